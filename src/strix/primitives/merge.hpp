// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Merge of two sorted sequences by a comparator, with merge path (Green-McColl-Bader;
// Baxter's moderngpu): the output is cut into tiles of equal length, each tile finds
// where it starts in both inputs by one binary search along its cross diagonal, then
// merges its tile sequentially. Every tile does the same work whatever the data, and
// each writes one contiguous piece of the output. Portable: any Kokkos execution space.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>

#include <strix/core/device_view.hpp>
#include <strix/error.hpp>

namespace strix::primitives {

// Where output position `diag` of the merge of a (na elements) and b (nb) starts: the
// number of elements taken from a (the rest, diag minus it, from b). b_before_a(j, i): b's
// j-th element strictly precedes a's i-th; on ties a's elements come first (stable).
template <class BeforeA>
KOKKOS_INLINE_FUNCTION std::uint64_t merge_path_split(std::uint64_t na, std::uint64_t nb, std::uint64_t diag,
                                                      const BeforeA& b_before_a) {
  std::uint64_t lo = diag > nb ? diag - nb : 0;
  std::uint64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (!b_before_a(diag - 1 - mid, mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The merge of two sorted sequences known only through b_before_a (see merge_path_split):
// emit(k, from_a, index) is called once for every output position k, with the element's
// side and its index there. Tiles of output merge independently.
template <class ExecSpace, class BeforeA, class Emit>
void merge_by(const ExecSpace& space, std::uint64_t na, std::uint64_t nb, const BeforeA& b_before_a,
              const Emit& emit) {
  const std::uint64_t total = na + nb;
  if (total == 0) return;
  // Host threads take long tiles (few searches); device threads short ones (on an H100,
  // 32 outputs a thread merged 2-3x slower than 8: too few threads in flight).
  const std::uint64_t tile = is_host_space_v<ExecSpace> ? 4096 : 8;
  const std::uint64_t tiles = (total + tile - 1) / tile;
  Kokkos::parallel_for(
      "strix::merge", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles),
      KOKKOS_LAMBDA(const std::int64_t t) {
        const std::uint64_t begin = static_cast<std::uint64_t>(t) * tile;
        const std::uint64_t end = begin + tile < total ? begin + tile : total;
        std::uint64_t i = merge_path_split(na, nb, begin, b_before_a);
        std::uint64_t j = begin - i;
        for (std::uint64_t k = begin; k < end; ++k) {
          const bool take_a = j >= nb || (i < na && !b_before_a(j, i));
          if (take_a) emit(k, true, i++);
          else emit(k, false, j++);
        }
      });
}

// The same merge for elements that carry their comparison data (a key and a payload), tiled
// for a GPU: a team of threads takes threads × per_thread consecutive outputs, finds where
// they start and end in a and b (two searches in global memory a team instead of one a
// thread), loads those elements into its scratch with coalesced reads, and each thread merges
// its share there; the merged tile goes out through the scratch again, coalesced. The
// comparisons that global memory served (log2 n reads a thread for the search, strided reads
// for the merge) come from scratch: what the merges of a difference cover spent their time on
// (issue 64). Source: value_type (trivially copyable); value_type a(i), b(j); bool
// b_before_a(const value_type& from_b, const value_type& from_a) (strict: ties take a's first);
// store(k, v). threads: the team size (one the space supports: Kokkos refuses a larger one
// rather than launch a smaller team); per_thread ≤ 8.
constexpr int merge_tile_max_per_thread = 8;
template <class ExecSpace, class Source>
void merge_in_tiles(const ExecSpace& space, std::uint64_t na, std::uint64_t nb, const Source& src, int threads,
                    int per_thread) {
  using value_type = typename Source::value_type;
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  using scratch = Kokkos::View<value_type*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  using bounds = Kokkos::View<std::uint64_t*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  const std::uint64_t total = na + nb;
  if (total == 0) return;
  if (per_thread < 1 || per_thread > merge_tile_max_per_thread) per_thread = merge_tile_max_per_thread;
  STRIX_REQUIRE(threads >= 1);
  const std::uint64_t tile = std::uint64_t(threads) * std::uint64_t(per_thread);
  const std::uint64_t tiles = (total + tile - 1) / tile;
  STRIX_REQUIRE(tiles <= std::uint64_t(std::numeric_limits<int>::max()));  // (a league's size)
  const std::size_t bytes = scratch::shmem_size(tile) + bounds::shmem_size(2);
  Kokkos::parallel_for(
      "strix::merge_in_tiles",
      team_policy(space, static_cast<int>(tiles), threads).set_scratch_size(0, Kokkos::PerTeam(bytes)),
      KOKKOS_LAMBDA(const member& team) {
        scratch s(team.team_scratch(0), tile);
        bounds split(team.team_scratch(0), 2);
        const std::uint64_t begin = std::uint64_t(team.league_rank()) * tile;
        const std::uint64_t end = begin + tile < total ? begin + tile : total;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, 2), [&](const int q) {
          split(q) = merge_path_split(na, nb, q == 0 ? begin : end,
                                      [&](std::uint64_t j, std::uint64_t i) { return src.b_before_a(src.b(j), src.a(i)); });
        });
        team.team_barrier();
        const std::uint64_t i0 = split(0), j0 = begin - i0, la = split(1) - i0, len = end - begin, lb = len - la;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len), [&](const std::uint64_t k) {
          s(k) = k < la ? src.a(i0 + k) : src.b(j0 + (k - la));
        });
        team.team_barrier();
        // This thread's outputs [d, d + per_thread) of the tile, merged from scratch into its
        // registers, then written over the scratch once every thread has read it.
        const std::uint64_t d0 = std::uint64_t(team.team_rank()) * std::uint64_t(per_thread);
        const std::uint64_t d = d0 < len ? d0 : len;
        std::uint64_t i = merge_path_split(la, lb, d, [&](std::uint64_t j, std::uint64_t ii) {
          return src.b_before_a(s(la + j), s(ii));
        });
        std::uint64_t j = d - i;
        value_type out[merge_tile_max_per_thread];
        int count = 0;
        for (; count < per_thread && d + std::uint64_t(count) < len; ++count) {
          const bool take_a = j >= lb || (i < la && !src.b_before_a(s(la + j), s(i)));
          out[count] = take_a ? s(i++) : s(la + j++);
        }
        team.team_barrier();
        for (int c = 0; c < count; ++c) s(d + std::uint64_t(c)) = out[c];
        team.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len), [&](const std::uint64_t k) { src.store(begin + k, s(k)); });
      });
}

// merge_in_tiles on a GPU (teams of 128 threads, 8 outputs each: 1024 elements of scratch a
// team); host spaces take merge_by's long tiles.
template <class ExecSpace, class Source>
void merge_tiled(const ExecSpace& space, std::uint64_t na, std::uint64_t nb, const Source& src) {
  if constexpr (is_host_space_v<ExecSpace>) {
    merge_by(
        space, na, nb, KOKKOS_LAMBDA(std::uint64_t j, std::uint64_t i) { return src.b_before_a(src.b(j), src.a(i)); },
        KOKKOS_LAMBDA(std::uint64_t k, bool from_a, std::uint64_t idx) { src.store(k, from_a ? src.a(idx) : src.b(idx)); });
  } else {
    merge_in_tiles(space, na, nb, src, 128, merge_tile_max_per_thread);
  }
}

namespace merge_impl {
template <class AView, class BView, class Less>
struct view_before {
  AView a;
  BView b;
  Less less;
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint64_t j, std::uint64_t i) const { return less(b(j), a(i)); }
};
template <class AView, class BView, class OutView>
struct view_emit {
  AView a;
  BView b;
  OutView out;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t k, bool from_a, std::uint64_t idx) const {
    out(k) = from_a ? a(idx) : b(idx);
  }
};
}  // namespace merge_impl

// out[0, na+nb) = the stable merge of sorted a and b (less(x, y): x before y).
// out must not overlap a or b.
template <class ExecSpace, class T, class Less>
void merge(const ExecSpace& space, const device_view<const T, ExecSpace>& a, const device_view<const T, ExecSpace>& b,
           const device_view<T, ExecSpace>& out, const Less& less) {
  using A = device_view<const T, ExecSpace>;
  merge_by(space, a.extent(0), b.extent(0), merge_impl::view_before<A, A, Less>{a, b, less},
           merge_impl::view_emit<A, A, device_view<T, ExecSpace>>{a, b, out});
}

}  // namespace strix::primitives
