// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overloads of strix::primitives::scan and select_indices on CUB's single-pass
// algorithms (decoupled look-back: each element is read once, where Kokkos' scan reads
// it twice). Templates on the caller's functor, so they are defined here and compiled
// where an algorithm instantiates them, inside libstrix; only algorithm sources that are
// compiled into the library include this (through strix/primitives/scan.hpp).
#include <Kokkos_Core.hpp>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstddef>
#include <cstdint>

#include <strix/backend/cuda/error.hpp>
#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::backend::cuda {

// Element i's own contribution: the functor's update of the identity.
template <class Functor>
struct scan_contribution {
  Functor f;
  __host__ __device__ typename Functor::value_type operator()(std::int64_t i) const {
    typename Functor::value_type v;
    f.init(v);
    f(i, v, false);
    return v;
  }
};

template <class Functor>
struct scan_combine {
  Functor f;
  __host__ __device__ typename Functor::value_type operator()(
      const typename Functor::value_type& a, const typename Functor::value_type& b) const {
    typename Functor::value_type r = a;
    f.join(r, b);
    return r;
  }
};

// Receives element i's exclusive prefix and runs the final pass, which adds element i to
// it: the last element's is the total.
template <class Functor>
struct scan_finish {
  Functor f;
  std::int64_t n;
  typename Functor::value_type* total;
  __host__ __device__ void operator()(std::int64_t i, typename Functor::value_type prefix) const {
    f(i, prefix, true);
    if (i + 1 == n) *total = prefix;
  }
};

template <class Functor>
cudaError_t functor_scan(void* temp, std::size_t& bytes, const Functor& f, std::int64_t n,
                         typename Functor::value_type* total, cudaStream_t stream) {
  auto in = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                            scan_contribution<Functor>{f});
  auto out = thrust::make_tabulate_output_iterator(scan_finish<Functor>{f, n, total});
  typename Functor::value_type init;
  f.init(init);
  return cub::DeviceScan::ExclusiveScan(temp, bytes, in, out, scan_combine<Functor>{f}, init, n,
                                        stream);
}

template <class Predicate>
struct index_predicate {
  Predicate pred;
  template <class I>
  __host__ __device__ bool operator()(const I i) const {
    return pred(static_cast<std::int64_t>(i));
  }
};

}  // namespace strix::backend::cuda

namespace strix::primitives {

template <class Functor>
std::size_t scan_scratch_bytes(const Kokkos::Cuda&, std::int64_t n) {
  std::size_t bytes = 0;
  backend::cuda::check(backend::cuda::functor_scan(nullptr, bytes, Functor{}, n, nullptr, nullptr),
                       "cub::DeviceScan (size query)");
  return bytes;
}

template <class Functor>
void scan(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws, const char* /*label*/,
          const Functor& functor, std::int64_t n, typename Functor::value_type& total) {
  using value_type = typename Functor::value_type;
  functor.init(total);
  if (n <= 0) return;
  auto* device_total = static_cast<value_type*>(ws.result(sizeof(value_type)));
  std::size_t bytes = 0;
  backend::cuda::check(backend::cuda::functor_scan(nullptr, bytes, functor, n, device_total, nullptr),
                       "cub::DeviceScan (size query)");
  void* temp = ws.reserve(bytes);
  backend::cuda::check(
      backend::cuda::functor_scan(temp, bytes, functor, n, device_total, space.cuda_stream()),
      "cub::DeviceScan::ExclusiveScan");
  backend::cuda::check(cudaMemcpyAsync(&total, device_total, sizeof(value_type), cudaMemcpyDeviceToHost,
                                       space.cuda_stream()),
                       "cudaMemcpyAsync (scan total)");
  space.fence();
}

template <class Predicate, class I>
std::uint64_t select_indices(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws, std::int64_t n,
                             const Predicate& pred, const device_view<I, Kokkos::Cuda>& out) {
  if (n <= 0) return 0;
  auto* device_count = static_cast<std::int64_t*>(ws.result(sizeof(std::int64_t)));
  const thrust::counting_iterator<I> in(0);
  const backend::cuda::index_predicate<Predicate> select{pred};
  std::size_t bytes = 0;
  backend::cuda::check(cub::DeviceSelect::If(nullptr, bytes, in, out.data(), device_count, n, select),
                       "cub::DeviceSelect (size query)");
  void* temp = ws.reserve(bytes);
  backend::cuda::check(cub::DeviceSelect::If(temp, bytes, in, out.data(), device_count, n, select,
                                             space.cuda_stream()),
                       "cub::DeviceSelect::If");
  std::int64_t count = 0;
  backend::cuda::check(cudaMemcpyAsync(&count, device_count, sizeof(count), cudaMemcpyDeviceToHost,
                                       space.cuda_stream()),
                       "cudaMemcpyAsync (selected count)");
  space.fence();
  return static_cast<std::uint64_t>(count);
}

}  // namespace strix::primitives
