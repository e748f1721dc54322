// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overloads of strix::primitives::segmented_sort_pairs: CUB's DeviceSegmentedSort,
// compiled into libstrix (segmented_sort.cpp) for keys, values and offsets all of 32 or
// all of 64 bits. No CUB type here.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::backend::cuda {

template <class K, class V, class O>
constexpr bool segmented_types_ok_v =
    std::is_same<K, V>::value && std::is_same<V, O>::value &&
    (std::is_same<K, std::uint32_t>::value || std::is_same<K, std::uint64_t>::value);

template <class K, class V, class O>
std::size_t segmented_sort_pairs_temp_bytes(std::size_t n, std::size_t num_segments);

// Sorts inside each segment [offsets[s], offsets[s+1]) (device pointers); returns true
// when the result ended in the *_alt arrays.
template <class K, class V, class O>
bool segmented_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                          K* keys_alt, V* vals, V* vals_alt, std::size_t n, const O* offsets,
                          std::size_t num_segments);

}  // namespace strix::backend::cuda

namespace strix::primitives {

template <class K, class V, class O>
std::size_t segmented_sort_pairs_scratch_bytes(const Kokkos::Cuda&, std::size_t n, std::size_t num_segments) {
  static_assert(backend::cuda::segmented_types_ok_v<K, V, O>,
                "strix: the CUDA segmented sort takes keys, values and offsets of one word type");
  return backend::cuda::segmented_sort_pairs_temp_bytes<K, V, O>(n, num_segments);
}

template <class K, class V, class O>
bool segmented_sort_pairs(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws,
                          const device_view<K, Kokkos::Cuda>& keys, const device_view<K, Kokkos::Cuda>& keys_alt,
                          const device_view<V, Kokkos::Cuda>& vals, const device_view<V, Kokkos::Cuda>& vals_alt,
                          const device_view<const O, Kokkos::Cuda>& offsets, std::size_t num_segments,
                          int /*key_bits*/) {
  static_assert(backend::cuda::segmented_types_ok_v<K, V, O>,
                "strix: the CUDA segmented sort takes keys, values and offsets of one word type");
  const std::size_t n = keys.extent(0);
  const std::size_t bytes = backend::cuda::segmented_sort_pairs_temp_bytes<K, V, O>(n, num_segments);
  void* temp = ws.reserve(bytes);
  return backend::cuda::segmented_sort_pairs<K, V, O>(space, temp, bytes, keys.data(), keys_alt.data(),
                                                      vals.data(), vals_alt.data(), n, offsets.data(),
                                                      num_segments);
}

}  // namespace strix::primitives
