// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overload of strix::primitives::byte_histogram: a warp-aggregated kernel compiled into
// libstrix (histogram.cpp). No CUDA runtime type here.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::backend::cuda {

std::size_t byte_histogram_temp_bytes(std::size_t n);
void byte_histogram(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes,
                    const std::uint8_t* values, std::size_t n, std::uint64_t* counts);

}  // namespace strix::backend::cuda

namespace strix::primitives {

inline void byte_histogram(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws,
                           const device_view<const std::uint8_t, Kokkos::Cuda>& values,
                           const device_view<std::uint64_t, Kokkos::Cuda>& counts) {
  const std::size_t n = values.extent(0);
  const std::size_t bytes = backend::cuda::byte_histogram_temp_bytes(n);
  void* temp = ws.reserve(bytes);
  backend::cuda::byte_histogram(space, temp, bytes, values.data(), n, counts.data());
}

}  // namespace strix::primitives
