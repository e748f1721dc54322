// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Host overloads of strix::primitives::segmented_sort_pairs (OpenMP and Serial): sorts in
// place with the tuned host code, no device scratch.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include <strix/backend/host/host_sort.hpp>
#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

#define STRIX_HOST_SEGMENTED_SORT_OVERLOADS(SPACE)                                               \
  template <class K, class V, class O>                                                           \
  std::size_t segmented_sort_pairs_scratch_bytes(const SPACE&, std::size_t, std::size_t) {       \
    return 0;                                                                                    \
  }                                                                                              \
  template <class K, class V, class O>                                                           \
  bool segmented_sort_pairs(const SPACE& space, workspace<SPACE>&, const device_view<K, SPACE>& keys, \
                            const device_view<K, SPACE>& keys_alt, const device_view<V, SPACE>& vals, \
                            const device_view<V, SPACE>& vals_alt,                               \
                            const device_view<const O, SPACE>& offsets, std::size_t num_segments, \
                            int key_bits) {                                                      \
    backend::host::segmented_sort_pairs(space, keys.data(), keys_alt.data(), vals.data(),        \
                                        vals_alt.data(), offsets.data(), num_segments, key_bits); \
    return false;                                                                                \
  }

namespace strix::primitives {
#ifdef KOKKOS_ENABLE_OPENMP
STRIX_HOST_SEGMENTED_SORT_OVERLOADS(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_SERIAL
STRIX_HOST_SEGMENTED_SORT_OVERLOADS(Kokkos::Serial)
#endif
}  // namespace strix::primitives
#undef STRIX_HOST_SEGMENTED_SORT_OVERLOADS
