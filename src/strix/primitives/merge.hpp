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
#include <vector>

#include <strix/core/device_view.hpp>
#include <strix/error.hpp>
#include <strix/primitives/workspace.hpp>

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

// One level of a pairwise merge of sorted runs that tile a sequence: pairs of adjacent runs
// [first, first + na) and [first + na, first + na + nb), each merged into the same range of the
// output (nb = 0: a run carried over, copied).
struct adjacent_runs {
  std::uint64_t first, na, nb;
};

// The merges of one such level at once, for elements that carry their comparison data (a key
// and a payload), tiled for a GPU. Every pair's output is cut into tiles of threads ×
// per_thread elements; a kernel of its own finds where each tile starts in its pair's two runs
// (a thread a tile: a merge-path search in global memory), then a team a tile loads the
// elements it merges into its scratch with coalesced reads, each thread merges its share there,
// and the merged tile goes out through the scratch again, coalesced. All pairs of a level are
// one launch of each kernel: a pair of a difference cover's small classes is a fraction of a
// wave, and one launch a pair left the GPU waiting on each launch's slowest team (issue 64's
// profile: 64 launches of ~0.7 waves on English dc21). Source: value_type (trivially
// copyable); value_type at(k) (the input at k); bool b_before_a(const value_type& from_b,
// const value_type& from_a) (strict: ties take a's first); store(k, v) (the output at k).
// threads: the team size (one the space supports: Kokkos refuses a larger one rather than
// launch a smaller team); per_thread ≤ 8. ws: merge_in_tiles_scratch_bytes(total, pairs).
constexpr int merge_tile_max_per_thread = 8;
constexpr int merge_launch_pairs = 32;  // pairs a launch (more: several launches)
inline std::size_t merge_in_tiles_scratch_bytes(std::uint64_t total, std::uint64_t pairs, int threads,
                                                int per_thread) {
  if (per_thread < 1 || per_thread > merge_tile_max_per_thread) per_thread = merge_tile_max_per_thread;
  const std::uint64_t tile = std::uint64_t(threads) * std::uint64_t(per_thread);
  return std::size_t(total / tile + pairs + 1) * sizeof(std::uint64_t);
}
namespace merge_impl {
// A launch's pairs, passed with the kernels (about 1 KB of parameters): no table to copy.
struct launch_pairs {
  std::uint64_t first[merge_launch_pairs], na[merge_launch_pairs], nb[merge_launch_pairs];
  std::uint64_t tile0[merge_launch_pairs + 1];  // each pair's first tile; tile0[count]: all tiles
  int count = 0;
  // The pair tile t belongs to.
  KOKKOS_INLINE_FUNCTION int pair_of(std::uint64_t t) const {
    int lo = 0, hi = count - 1;
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (tile0[mid] <= t) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
};
}  // namespace merge_impl
template <class ExecSpace, class Source>
void merge_in_tiles(const ExecSpace& space, workspace<ExecSpace>& ws, const std::vector<adjacent_runs>& level,
                    const Source& src, int threads, int per_thread) {
  using value_type = typename Source::value_type;
  using team_policy = Kokkos::TeamPolicy<ExecSpace>;
  using member = typename team_policy::member_type;
  using scratch = Kokkos::View<value_type*, typename ExecSpace::scratch_memory_space, Kokkos::MemoryUnmanaged>;
  STRIX_REQUIRE(threads >= 1);
  if (per_thread < 1 || per_thread > merge_tile_max_per_thread) per_thread = merge_tile_max_per_thread;
  const std::uint64_t tile = std::uint64_t(threads) * std::uint64_t(per_thread);
  for (std::size_t from = 0; from < level.size(); from += merge_launch_pairs) {
    merge_impl::launch_pairs pairs;
    std::uint64_t tiles = 0, total = 0;
    for (std::size_t p = from; p < level.size() && pairs.count < merge_launch_pairs; ++p) {
      const std::uint64_t len = level[p].na + level[p].nb;
      if (len == 0) continue;
      pairs.first[pairs.count] = level[p].first;
      pairs.na[pairs.count] = level[p].na;
      pairs.nb[pairs.count] = level[p].nb;
      pairs.tile0[pairs.count++] = tiles;
      tiles += (len + tile - 1) / tile;
      total += len;
    }
    if (pairs.count == 0) continue;
    pairs.tile0[pairs.count] = tiles;
    STRIX_REQUIRE(tiles <= std::uint64_t(std::numeric_limits<int>::max()));  // (a league's size)
    STRIX_REQUIRE(tiles * sizeof(std::uint64_t) <=
                  merge_in_tiles_scratch_bytes(total, std::uint64_t(pairs.count), threads, per_thread));
    const device_view<std::uint64_t, ExecSpace> starts(
        static_cast<std::uint64_t*>(ws.reserve(merge_in_tiles_scratch_bytes(total, std::uint64_t(pairs.count), threads,
                                                                             per_thread))),
        tiles);
    Kokkos::parallel_for(
        "strix::merge_tile_starts",
        Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(tiles)),
        KOKKOS_LAMBDA(const std::int64_t t) {
          const int p = pairs.pair_of(std::uint64_t(t));
          const std::uint64_t a0 = pairs.first[p], na = pairs.na[p], b0 = a0 + na;
          starts(t) = merge_path_split(na, pairs.nb[p], (std::uint64_t(t) - pairs.tile0[p]) * tile,
                                       [&](std::uint64_t j, std::uint64_t i) { return src.b_before_a(src.at(b0 + j), src.at(a0 + i)); });
        });
    const std::size_t bytes = scratch::shmem_size(tile);
    Kokkos::parallel_for(
        "strix::merge_in_tiles",
        team_policy(space, static_cast<int>(tiles), threads).set_scratch_size(0, Kokkos::PerTeam(bytes)),
        KOKKOS_LAMBDA(const member& team) {
          scratch s(team.team_scratch(0), tile);
          const std::uint64_t t = std::uint64_t(team.league_rank());
          const int p = pairs.pair_of(t);
          const std::uint64_t a0 = pairs.first[p], na = pairs.na[p], b0 = a0 + na, total_p = na + pairs.nb[p];
          const std::uint64_t begin = (t - pairs.tile0[p]) * tile;
          const std::uint64_t end = begin + tile < total_p ? begin + tile : total_p;
          const std::uint64_t i0 = starts(t), i1 = t + 1 < pairs.tile0[p + 1] ? starts(t + 1) : na;
          const std::uint64_t j0 = begin - i0, la = i1 - i0, len = end - begin, lb = len - la;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len), [&](const std::uint64_t k) {
            s(k) = src.at(k < la ? a0 + i0 + k : b0 + j0 + (k - la));
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
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, len),
                               [&](const std::uint64_t k) { src.store(a0 + begin + k, s(k)); });
        });
  }
}

// A level of merges on a GPU by merge_in_tiles (teams of 128 threads, 8 outputs each: 1024
// elements of scratch a team); host spaces take merge_by's long tiles, a pair at a time.
// merge_tiled_scratch_bytes: the workspace it takes for levels of at most `total` elements in
// at most `pairs` pairs (none on the host).
constexpr int merge_tiled_threads = 128;
template <class ExecSpace>
std::size_t merge_tiled_scratch_bytes(const ExecSpace&, std::uint64_t total, std::uint64_t pairs) {
  if constexpr (is_host_space_v<ExecSpace>) return 0;
  else return merge_in_tiles_scratch_bytes(total, pairs < merge_launch_pairs ? pairs : merge_launch_pairs,
                                           merge_tiled_threads, merge_tile_max_per_thread);
}
template <class ExecSpace, class Source>
void merge_tiled(const ExecSpace& space, workspace<ExecSpace>& ws, const std::vector<adjacent_runs>& level,
                 const Source& src) {
  if constexpr (is_host_space_v<ExecSpace>) {
    for (const adjacent_runs& r : level) {
      const std::uint64_t a0 = r.first, b0 = r.first + r.na;
      merge_by(
          space, r.na, r.nb,
          KOKKOS_LAMBDA(std::uint64_t j, std::uint64_t i) { return src.b_before_a(src.at(b0 + j), src.at(a0 + i)); },
          KOKKOS_LAMBDA(std::uint64_t k, bool from_a, std::uint64_t idx) {
            src.store(a0 + k, src.at(from_a ? a0 + idx : b0 + idx));
          });
    }
  } else {
    merge_in_tiles(space, ws, level, src, merge_tiled_threads, merge_tile_max_per_thread);
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
