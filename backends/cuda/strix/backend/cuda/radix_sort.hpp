// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overloads of strix::primitives::radix_sort_pairs: CUB's DeviceRadixSort, compiled
// into libstrix (radix_sort.cpp) for keys and values of 32 and 64 bits. No CUB type here.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::backend::cuda {

template <class T>
constexpr bool is_sort_word_v = std::is_same<T, std::uint32_t>::value || std::is_same<T, std::uint64_t>::value;

// Scratch bytes CUB needs to sort n pairs on bits [begin_bit, end_bit).
template <class K, class V>
std::size_t radix_sort_pairs_temp_bytes(std::size_t n, int begin_bit, int end_bit);

// Returns true when the result ended in the *_alt arrays (CUB's double buffers).
template <class K, class V>
bool radix_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                      K* keys_alt, V* vals, V* vals_alt, std::size_t n, int begin_bit, int end_bit);

}  // namespace strix::backend::cuda

namespace strix::primitives {

template <class K, class V>
std::size_t radix_sort_pairs_scratch_bytes(const Kokkos::Cuda&, std::size_t n) {
  static_assert(backend::cuda::is_sort_word_v<K> && backend::cuda::is_sort_word_v<V>,
                "strix: the CUDA radix sort takes 32- or 64-bit unsigned keys and values");
  return backend::cuda::radix_sort_pairs_temp_bytes<K, V>(n, 0, int(8 * sizeof(K)));
}

template <class K, class V>
bool radix_sort_pairs(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws,
                      const device_view<K, Kokkos::Cuda>& keys, const device_view<K, Kokkos::Cuda>& keys_alt,
                      const device_view<V, Kokkos::Cuda>& vals, const device_view<V, Kokkos::Cuda>& vals_alt,
                      int begin_bit, int end_bit) {
  static_assert(backend::cuda::is_sort_word_v<K> && backend::cuda::is_sort_word_v<V>,
                "strix: the CUDA radix sort takes 32- or 64-bit unsigned keys and values");
  const std::size_t n = keys.extent(0);
  const std::size_t bytes = backend::cuda::radix_sort_pairs_temp_bytes<K, V>(n, begin_bit, end_bit);
  void* temp = ws.reserve(bytes);
  return backend::cuda::radix_sort_pairs<K, V>(space, temp, bytes, keys.data(), keys_alt.data(),
                                               vals.data(), vals_alt.data(), n, begin_bit, end_bit);
}

}  // namespace strix::primitives
