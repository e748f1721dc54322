// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overload of strix::primitives::sort_small_segments: CUB's warp merge sort (segments
// of up to 256 pairs, several segments a block) and block merge sort (up to 2048), in
// shared memory; compiled into libstrix (small_segment_sort.cpp) for keys, values and
// offsets all of 32 or all of 64 bits. No CUB type here.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include <strix/primitives/views.hpp>

namespace strix::backend::cuda {

template <class K, class V, class O>
constexpr bool small_sort_types_ok_v =
    std::is_same<K, V>::value && std::is_same<V, O>::value &&
    (std::is_same<K, std::uint32_t>::value || std::is_same<K, std::uint64_t>::value);

// keys, vals, offsets and segments are device pointers; `count` segments are listed.
template <class T>
void sort_small_segments(const Kokkos::Cuda& space, T* keys, T* vals, const T* offsets, const T* segments,
                         std::size_t count, std::size_t max_len);

}  // namespace strix::backend::cuda

namespace strix::primitives {

template <class K, class V, class O>
void sort_small_segments(const Kokkos::Cuda& space, const device_view<K, Kokkos::Cuda>& keys,
                         const device_view<V, Kokkos::Cuda>& vals, const device_view<const O, Kokkos::Cuda>& offsets,
                         const device_view<const O, Kokkos::Cuda>& segments, std::size_t max_len) {
  static_assert(backend::cuda::small_sort_types_ok_v<K, V, O>,
                "strix: the CUDA small-segment sort takes keys, values and offsets of one word type");
  backend::cuda::sort_small_segments<K>(space, keys.data(), vals.data(), offsets.data(), segments.data(),
                                        segments.extent(0), max_len);
}

}  // namespace strix::primitives
