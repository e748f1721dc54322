// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Portable sort of many small segments, on any Kokkos execution space: one team per listed
// segment copies it into team scratch, sorts it there (Kokkos Kernels' team bitonic sort on
// Kokkos 3.x, Kokkos' nested team sort from 4.0) and writes it back. Segments are listed by
// number, so those of one size class can be sorted together wherever they lie.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include <strix/core/device_view.hpp>

#if KOKKOS_VERSION >= 40000
#include <Kokkos_NestedSort.hpp>
#else
#include <KokkosKernels_Sorting.hpp>
#endif

namespace strix::primitives::portable {

// Largest segment sort_small_segments takes (its scratch holds one segment's pairs).
constexpr std::size_t small_segment_max = 2048;

// Sorts (keys, vals) by key inside every segment [offsets(s), offsets(s + 1)) for s in
// `segments`, each of at most max_len <= small_segment_max pairs; in place. Equal keys
// end in any order.
template <class ExecSpace, class K, class V, class O>
void sort_small_segments(const ExecSpace& space, const device_view<K, ExecSpace>& keys,
                         const device_view<V, ExecSpace>& vals, const device_view<const O, ExecSpace>& offsets,
                         const device_view<const O, ExecSpace>& segments, std::size_t max_len) {
  const std::size_t count = segments.extent(0);
  if (count == 0 || max_len < 2) return;
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  using scratch_space = typename ExecSpace::scratch_memory_space;
  using key_scratch = Kokkos::View<K*, scratch_space, Kokkos::MemoryUnmanaged>;
  using val_scratch = Kokkos::View<V*, scratch_space, Kokkos::MemoryUnmanaged>;
  // Bitonic sort does max_len / 2 compare-exchanges a step: that many threads a team on
  // devices (at least a warp), one thread on host spaces.
  int team_size = 1;
  if (!is_host_space_v<ExecSpace>) {
    team_size = static_cast<int>(max_len / 2);
    if (team_size < 32) team_size = 32;
    if (team_size > 256) team_size = 256;
  }
  const std::size_t scratch = key_scratch::shmem_size(max_len) + val_scratch::shmem_size(max_len);
  Kokkos::parallel_for(
      "strix::sort_small_segments",
      team_policy(space, static_cast<int>(count), team_size).set_scratch_size(0, Kokkos::PerTeam(scratch)),
      KOKKOS_LAMBDA(const member& team) {
        const std::size_t s = segments(team.league_rank());
        const std::size_t lo = offsets(s), len = offsets(s + 1) - lo;
        if (len < 2) return;
        key_scratch k(team.team_scratch(0), len);
        val_scratch v(team.team_scratch(0), len);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len), [&](const std::size_t i) {
          k(i) = keys(lo + i);
          v(i) = vals(lo + i);
        });
        team.team_barrier();
#if KOKKOS_VERSION >= 40000
        Kokkos::Experimental::sort_by_key_team(team, k, v);
#else
        KokkosKernels::Impl::TeamBitonicSort2<std::size_t, K, V, member>(k.data(), v.data(), len, team);
#endif
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len), [&](const std::size_t i) {
          keys(lo + i) = k(i);
          vals(lo + i) = v(i);
        });
      });
}

}  // namespace strix::primitives::portable
