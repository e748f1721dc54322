// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Portable segmented sort of key/value pairs, on any Kokkos execution space: one team
// per small segment sorts it in place with a team sort (Kokkos' nested sort from Kokkos 4,
// Kokkos Kernels' team bitonic sort before), and every large segment is sorted by the
// portable radix sort in its turn.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/device_view.hpp>
#include <strix/primitives/portable/radix_sort.hpp>
#include <strix/primitives/workspace.hpp>

#if KOKKOS_VERSION >= 40000
#include <Kokkos_NestedSort.hpp>
#else
#include <KokkosKernels_Sorting.hpp>
#endif

namespace strix::primitives::portable {

// Segments longer than this are sorted by the device-wide radix sort.
constexpr std::size_t team_sort_max = 4096;

template <class ExecSpace>
std::size_t segmented_sort_pairs_scratch_bytes(const ExecSpace& space, std::size_t n) {
  return radix_sort_pairs_scratch_bytes(space, n);
}

// Sorts (keys, vals) by key inside every segment [offsets(s), offsets(s + 1)), s <
// num_segments; keys use bits [0, key_bits). Returns false: the result is in keys/vals.
template <class ExecSpace, class K, class V, class O>
bool segmented_sort_pairs(const ExecSpace& space, workspace<ExecSpace>& ws,
                          const device_view<K, ExecSpace>& keys,
                          const device_view<K, ExecSpace>& keys_alt,
                          const device_view<V, ExecSpace>& vals,
                          const device_view<V, ExecSpace>& vals_alt,
                          const device_view<const O, ExecSpace>& offsets,
                          std::size_t num_segments, int key_bits) {
  if (num_segments == 0) return false;
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  // Most segments are tiny: one warp a team on devices (a large automatic team size would
  // schedule hundreds of idle threads per segment), one thread on host spaces.
  const int team_size = is_host_space_v<ExecSpace> ? 1 : 32;
  Kokkos::parallel_for(
      "strix::portable_segmented_team_sort", team_policy(space, num_segments, team_size),
      KOKKOS_LAMBDA(const member& team) {
        const std::size_t s = team.league_rank();
        const std::size_t lo = offsets(s), hi = offsets(s + 1);
        if (hi - lo < 2 || hi - lo > team_sort_max) return;
#if KOKKOS_VERSION >= 40000
        const auto range = Kokkos::make_pair(lo, hi);
        Kokkos::Experimental::sort_by_key_team(team, Kokkos::subview(keys, range),
                                               Kokkos::subview(vals, range));
#else
        KokkosKernels::Impl::TeamBitonicSort2<std::size_t, K, V, member>(
            keys.data() + lo, vals.data() + lo, hi - lo, team);
#endif
      });
  // Large segments, found on the host, one radix sort each.
  auto offsets_h = strix::to_host(space, Kokkos::subview(offsets, std::make_pair(std::size_t(0), num_segments + 1)));
  for (std::size_t s = 0; s < num_segments; ++s) {
    const std::size_t lo = offsets_h(s), hi = offsets_h(s + 1);
    if (hi - lo <= team_sort_max) continue;
    device_view<K, ExecSpace> k(keys.data() + lo, hi - lo), ka(keys_alt.data() + lo, hi - lo);
    device_view<V, ExecSpace> v(vals.data() + lo, hi - lo), va(vals_alt.data() + lo, hi - lo);
    if (portable::radix_sort_pairs(space, ws, k, ka, v, va, 0, key_bits)) {
      strix::copy(space, k, ka);
      strix::copy(space, v, va);
    }
  }
  return false;
}

}  // namespace strix::primitives::portable
