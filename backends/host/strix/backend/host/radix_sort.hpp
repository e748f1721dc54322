// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Host overloads of strix::primitives::radix_sort_pairs (OpenMP and Serial): the tuned
// host sort needs no device scratch.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include <strix/backend/host/host_sort.hpp>
#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

// One overload set per host execution space (a template on the space would tie with the
// portable default in overload resolution).
#define STRIX_HOST_RADIX_SORT_OVERLOADS(SPACE)                                                   \
  template <class K, class V>                                                                    \
  std::size_t radix_sort_pairs_scratch_bytes(const SPACE&, std::size_t) {                        \
    return 0;                                                                                    \
  }                                                                                              \
  template <class K, class V>                                                                    \
  bool radix_sort_pairs(const SPACE& space, workspace<SPACE>&, const device_view<K, SPACE>& keys, \
                        const device_view<K, SPACE>& keys_alt, const device_view<V, SPACE>& vals, \
                        const device_view<V, SPACE>& vals_alt, int begin_bit, int end_bit) {      \
    bool swapped = false;                                                                        \
    backend::host::radix_sort_pairs(space, keys.data(), keys_alt.data(), vals.data(),            \
                                    vals_alt.data(), keys.extent(0), begin_bit, end_bit, swapped); \
    return swapped;                                                                              \
  }

namespace strix::primitives {
#ifdef KOKKOS_ENABLE_OPENMP
STRIX_HOST_RADIX_SORT_OVERLOADS(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_SERIAL
STRIX_HOST_RADIX_SORT_OVERLOADS(Kokkos::Serial)
#endif
}  // namespace strix::primitives
#undef STRIX_HOST_RADIX_SORT_OVERLOADS
