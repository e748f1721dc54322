#pragma once
// CUDA backend: runs a Kokkos-style scan functor -- operator()(i, value&, final),
// init(value&), join(value&, const value&) -- with CUB's single-pass scan (decoupled
// look-back): every element is read once per pass instead of Kokkos' two passes.
// Declarations only; cuda_scan.cpp instantiates it for the functors strix uses.
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <cstddef>
#include <cstdint>

namespace strix::backend::cuda {

template <class Functor>
std::size_t functor_scan_temp_bytes(std::int64_t n);

// Runs the functor's final pass on every i in [0, n) with its exclusive prefix and
// writes the total to `total` (device memory).
template <class Functor>
void functor_scan(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes,
                  const Functor& functor, std::int64_t n,
                  typename Functor::value_type* total);

}  // namespace strix::backend::cuda
#endif
