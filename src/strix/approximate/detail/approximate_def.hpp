// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Approximate search's kernels (approximate_search.hpp), included by libstrix's instantiation
// files only. STRIX_APPROXIMATE_INSTANTIATE(SPACE, I) instantiates them.
//
// Lanes take walks — a read through one search of the scheme, depth first — from a work list,
// one step an iteration, each with its stack in scratch memory (hamming_walk.hpp: a frame a
// read position; edit_walk.hpp: a frame a text symbol taken). Two walks: the first counts the
// rows found per read and keeps its first few intervals, the second writes them with their
// distances (walking again only the reads that found more); then their positions (locate's LF
// walks), a sort by (position, distance) within each read, and a compaction that keeps each
// position once, at its smallest distance (the scheme's searches may find one occurrence more
// than once).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <strix/approximate/approximate_search.hpp>
#include <strix/approximate/detail/edit_walk.hpp>
#include <strix/approximate/detail/hamming_walk.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/device_memory.hpp>
#include <strix/core/memory.hpp>
#include <strix/fm_index/detail/fm_query_def.hpp>
#include <strix/primitives/portable/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/primitives/workspace.hpp>


namespace strix::approximate::detail {

// A match's rows [first, end) in the forward index and its distance, as walk 1 keeps them.
struct found_rows {
  std::uint64_t first = 0, end = 0;
  int distance = 0;
};
constexpr std::uint32_t kept_rows = 16;  // intervals kept a read (more: its walks run again)

// The walks' counters: unsigned long long, whose atomic add is the GPU's own instruction;
// Kokkos 3.4 adds to std::uint64_t (unsigned long) by a compare-and-swap loop, and tens of
// thousands of lanes taking items from one such counter spin for minutes.
using counter = unsigned long long;

// Lanes that each take the next walk of a work list — a (read, search) pair — when their own
// ends, one step of a walk an iteration of one loop: a lane whose walk ends takes the next
// while the others of its warp go on stepping theirs, instead of waiting for the longest
// walk of the warp (issue 53's profile: 2-3 of 32 lanes active with a lane a read). Each lane
// has its own stack of `per_lane` frames. Work: read(item) (the read of the item-th walk's
// pair) and found(read, first row, end row, distance).
// A walker hands a unique match's chain (its match occurs once: every later step
// is the text's own symbol) to a queue instead of running it in the step: the chains then run
// in a kernel of their own, where a warp's lanes all run the same loop, instead of holding the
// lanes of a branching walk's warp idle while one of them runs a chain of ~90 steps (§43: 4
// of 32 lanes issuing). A full queue leaves the chain to the step.
template <class Walker, class Work, class Frames, class Bytes, class Offsets, class Counter, class Chains>
struct walk_lanes {
  Walker walker;
  Work work;
  Frames frames;
  Bytes bytes;
  Offsets offsets;
  Counter next;  // next(0): the next item to take; next(1): the chains offered (more than
                 // the queue holds once it filled)
  std::uint64_t items = 0, per_lane = 0;
  Chains chains;  // the deferred chains (extent 0: none deferred)

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t lane) const {
    const std::uint64_t base = std::uint64_t(lane) * per_lane;
    typename Walker::state w;
    std::uint64_t q = 0, m = 0;
    const std::uint8_t* read = nullptr;
    bool active = false;
    for (;;) {
      if (!active) {
        const std::uint64_t item = Kokkos::atomic_fetch_add(&next(0), counter(1));
        if (item >= items) return;
        const std::uint64_t searches = std::uint64_t(walker.searches);
        q = work.read(item / searches);
        const std::uint64_t first = offsets(q);
        m = offsets(q + 1) - first;
        read = bytes.data() + first;
        active = m > 0 && walker.start(w, read, m, int(item % searches), frames, base);
        continue;
      }
      active = walker.step(
          w, read, m, frames, base, [&](std::uint64_t fs, std::uint64_t fe, int d) { work.found(q, fs, fe, d); },
          [&](const auto& f, int s) {
            if (chains.extent(0) == 0) return false;
            const std::uint64_t at = Kokkos::atomic_fetch_add(&next(1), counter(1));
            if (at >= chains.extent(0)) return false;
            chains(at) = Walker::chain_of(f, q, s);
            return true;
          });
    }
  }
};

// The deferred chains, one a thread (each runs its loop to the end).
template <class Walker, class Work, class Chains, class Bytes, class Offsets>
struct finish_chains {
  Walker walker;
  Work work;
  Chains chains;
  Bytes bytes;
  Offsets offsets;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t t) const {
    const auto c = chains(t);
    const std::uint64_t q = c.read, first = offsets(q);
    walker.finish(c, bytes.data() + first, offsets(q + 1) - first,
                  [&](std::uint64_t fs, std::uint64_t fe, int d) { work.found(q, fs, fe, d); });
  }
};

// Walk 1's work: every read's walks; counts each read's rows and keeps its first intervals.
template <class MemorySpace>
struct count_work {
  Kokkos::View<counter*, MemorySpace> rows, intervals;
  Kokkos::View<found_rows*, MemorySpace> kept;
  KOKKOS_INLINE_FUNCTION std::uint64_t read(std::uint64_t r) const { return r; }
  KOKKOS_INLINE_FUNCTION void found(std::uint64_t q, std::uint64_t fs, std::uint64_t fe, int d) const {
    Kokkos::atomic_add(&rows(q), counter(fe - fs));
    const std::uint64_t slot = Kokkos::atomic_fetch_add(&intervals(q), counter(1));
    if (slot < kept_rows) kept(q * kept_rows + slot) = {fs, fe, d};
  }
};

// The reads walk 1 found more intervals of than it kept.
template <class MemorySpace>
struct overflowing {
  Kokkos::View<counter*, MemorySpace> intervals;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t q) const { return intervals(q) > kept_rows; }
};

// Walk 2's work: the walks of the reads that found more than they kept; writes their rows as
// keys (row << 3 | distance) from starts[q], in any order (sorted later).
template <class MemorySpace>
struct write_work {
  Kokkos::View<std::uint64_t*, MemorySpace> list, starts;
  Kokkos::View<counter*, MemorySpace> cursor;
  Kokkos::View<std::uint64_t*, MemorySpace> out;
  KOKKOS_INLINE_FUNCTION std::uint64_t read(std::uint64_t r) const { return list(r); }
  KOKKOS_INLINE_FUNCTION void found(std::uint64_t q, std::uint64_t fs, std::uint64_t fe, int d) const {
    std::uint64_t at = starts(q) + Kokkos::atomic_fetch_add(&cursor(q), counter(fe - fs));
    for (std::uint64_t r = fs; r < fe; ++r, ++at) out(at) = (r << 3) | std::uint64_t(d);
  }
};

}  // namespace strix::approximate::detail

namespace strix::detail {

// Runs `work`'s walks (`items` reads' walks through each of the walker's searches) on lanes
// with stacks of `per_lane` frames in `frames`; then the unique chains they deferred.
template <class ExecSpace, class Walker, class Work, class Frames>
void walk_work_list(const ExecSpace& space, const Walker& walker, const Work& work, const Frames& frames,
                    std::uint64_t per_lane, std::uint64_t reads, const device_view<const std::uint8_t, ExecSpace>& bytes,
                    const device_view<const std::uint64_t, ExecSpace>& offsets) {
  using memory_space = typename ExecSpace::memory_space;
  const std::uint64_t items = reads * std::uint64_t(walker.searches);
  // No walks, or only empty reads (Hamming stacks of 0 frames): the empty reads' rows are
  // written without walking.
  if (items == 0 || per_lane == 0) return;
  using counter = approximate::detail::counter;
  const std::uint64_t lanes = std::min<std::uint64_t>(frames.extent(0) / per_lane, items);
  auto next = allocate<counter, memory_space>("strix::approximate::next", 2);  // the walks, the chains
  fill(space, next, counter(0));
  // Room for two chains a walk (a walk at k errors may branch into more; those run in place),
  // within 1/16 of the device memory free where the backend tells it.
  // Not on host spaces: a CPU thread runs a chain as well in place, and writing it out and
  // reading it back cost one thread 3-6 % (bench/NOTES.md, twenty-fourth session); there the
  // walks take every chain in place, as on a device once its queue is full.
  constexpr bool on_host = std::is_same<memory_space, Kokkos::HostSpace>::value;
  using chain = typename Walker::chain;
  Kokkos::View<chain*, memory_space> chains;
  if constexpr (!on_host) {
    const std::uint64_t free = device_memory_in_use<ExecSpace>::free_bytes();
    const std::uint64_t room = free == 0 ? 2 * items : std::min<std::uint64_t>(2 * items, free / 16 / sizeof(chain));
    chains = allocate<chain, memory_space>("strix::approximate::chains", room);
  }
  using lanes_functor =
      approximate::detail::walk_lanes<Walker, Work, Frames, device_view<const std::uint8_t, ExecSpace>,
                                      device_view<const std::uint64_t, ExecSpace>, decltype(next), decltype(chains)>;
  Kokkos::parallel_for("strix::approximate_walks",
                       Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>, typename Walker::launch_bounds>(
                           space, 0, std::int64_t(lanes)),
                       lanes_functor{walker, work, frames, bytes, offsets, next, items, per_lane, chains});
  if constexpr (!on_host) {
    counter offered = 0;
    copy(space, Kokkos::View<counter, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&offered), Kokkos::subview(next, 1));
    space.fence();
    const std::uint64_t held = std::min<std::uint64_t>(offered, chains.extent(0));
    Kokkos::parallel_for("strix::approximate_chains", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(
                                                          space, 0, std::int64_t(held)),
                         approximate::detail::finish_chains<Walker, Work, decltype(chains),
                                                            device_view<const std::uint8_t, ExecSpace>,
                                                            device_view<const std::uint64_t, ExecSpace>>{
                             walker, work, chains, bytes, offsets});
  }
}

// The two walks of `walker` over a batch: each read's rows as keys (row << 3 | distance) from
// starts[q]; returns their number. The empty read matches every row at distance 0.
template <class ExecSpace, class I, class Walker>
std::uint64_t approximate_rows(const ExecSpace& space, const Walker& walker, std::uint64_t n,
                               const device_view<const std::uint8_t, ExecSpace>& bytes,
                               const device_view<const std::uint64_t, ExecSpace>& offsets,
                               const Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>& starts,
                               Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>& keys) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using frame = typename Walker::frame;
  namespace ad = approximate::detail;
  const std::int64_t reads = std::int64_t(starts.extent(0)) - 1;
  std::uint64_t read_bytes = 0, longest = 0;
  if (reads > 0) copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&read_bytes),
                      Kokkos::subview(offsets, reads));
  Kokkos::parallel_reduce("strix::approximate_longest", range(space, 0, reads),
                          KOKKOS_LAMBDA(const std::int64_t q, std::uint64_t& most) {
                            const std::uint64_t m = offsets(q + 1) - offsets(q);
                            if (m > most) most = m;
                          },
                          Kokkos::Max<std::uint64_t>(longest));
  space.fence();
  // A lane's stack holds the longest read's walk; as many lanes as the space runs at once,
  // within the frames a stack per read would take.
  const std::uint64_t extra = walker.extra_frames(), per_lane = longest + extra;
  const std::uint64_t batch_frames = read_bytes + extra * std::uint64_t(reads);
  const std::uint64_t lanes = std::max<std::uint64_t>(
      1, std::min<std::uint64_t>(std::uint64_t(space.concurrency()), batch_frames / (per_lane > 0 ? per_lane : 1)));
  auto frames = allocate<frame, memory_space>("strix::approximate::frames", lanes * per_lane);
  auto found = allocate<ad::counter, memory_space>("strix::approximate::found", reads + 1);
  auto intervals = allocate<ad::counter, memory_space>("strix::approximate::intervals", reads + 1);
  auto kept = allocate<ad::found_rows, memory_space>("strix::approximate::kept", std::uint64_t(reads) * ad::kept_rows);
  Kokkos::parallel_for("strix::approximate_empty", range(space, 0, reads + 1), KOKKOS_LAMBDA(const std::int64_t q) {
    found(q) = q < reads && offsets(q + 1) == offsets(q) ? n + 1 : 0;
    intervals(q) = 0;
  });
  // Walk 1 counts each read's rows and keeps its first few intervals: walk 2 repeats only the
  // walks of reads that found more.
  walk_work_list(space, walker, ad::count_work<memory_space>{found, intervals, kept}, frames, per_lane,
                 std::uint64_t(reads), bytes, offsets);
  std::uint64_t total = 0;
  Kokkos::parallel_scan("strix::approximate_starts", range(space, 0, reads + 1),
                        KOKKOS_LAMBDA(const std::int64_t q, std::uint64_t& sum, const bool final) {
                          if (final) starts(q) = sum;
                          if (q < reads) sum += found(q);
                        },
                        total);
  space.fence();
  STRIX_USER_REQUIRE(total <= std::uint64_t(std::numeric_limits<I>::max()),
                     "approximate search: " + std::to_string(total) + " matches in one batch are too many for " +
                         std::to_string(8 * sizeof(I)) + "-bit positions: split the batch");
  keys = allocate<std::uint64_t, memory_space>("strix::approximate::keys", total);
  const auto out = keys;
  // The reads that kept all they found write it; the others (listed) walk again.
  Kokkos::parallel_for("strix::approximate_kept_rows", range(space, 0, reads), KOKKOS_LAMBDA(const std::int64_t q) {
    std::uint64_t at = starts(q);
    found(q) = 0;
    if (offsets(q + 1) == offsets(q)) {
      for (std::uint64_t r = 0; r <= n; ++r, ++at) out(at) = r << 3;
      return;
    }
    if (intervals(q) > ad::kept_rows) return;
    for (std::uint64_t i = 0; i < intervals(q); ++i) {
      const auto& k = kept(std::uint64_t(q) * ad::kept_rows + i);
      for (std::uint64_t r = k.first; r < k.end; ++r, ++at) out(at) = (r << 3) | std::uint64_t(k.distance);
    }
  });
  // (The portable selection: the list is a read's worth of entries, and a CUB one would cost
  // the CUDA build an instantiation for it.)
  auto list = allocate<std::uint64_t, memory_space>("strix::approximate::again", reads + 1);
  primitives::workspace<ExecSpace> ws;
  const std::uint64_t again = primitives::portable::select_indices(
      space, ws, reads, ad::overflowing<memory_space>{intervals},
      device_view<std::uint64_t, ExecSpace>(list.data(), list.extent(0)));
  space.fence();
  walk_work_list(space, walker, ad::write_work<memory_space>{list, starts, found, out}, frames, per_lane, again,
                 bytes, offsets);
  space.fence();
  return total;
}

template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> approximate_search(
    const ExecSpace& space, const approximate::bidirectional_ref<I>& index,
    const device_view<const std::uint8_t, ExecSpace>& bytes, const device_view<const std::uint64_t, ExecSpace>& offsets,
    const device_view<const int, ExecSpace>& scheme, int searches, int pieces, int max_errors, approximate::metric metric) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using scheme_view = device_view<const int, ExecSpace>;
  const std::int64_t reads = offsets.extent(0) > 0 ? std::int64_t(offsets.extent(0)) - 1 : 0;
  approximate_matches<memory_space, I> out;
  out.starts = allocate<std::uint64_t, memory_space>("strix::approximate::starts", reads + 1);
  const auto starts = out.starts;
  const std::uint64_t n = index.forward.n;
  Kokkos::View<std::uint64_t*, memory_space> keys;
  std::uint64_t total = 0;
  if (metric == approximate::metric::edit)
    total = approximate_rows<ExecSpace, I>(
        space, approximate::detail::edit_walker<I, scheme_view>{index, scheme, searches, pieces, max_errors}, n, bytes,
        offsets, starts, keys);
  else
    total = approximate_rows<ExecSpace, I>(space, approximate::detail::hamming_walker<I, scheme_view>{index, scheme, searches, pieces},
                                           n, bytes, offsets, starts, keys);
  // Each row's position as a key with its distance.
  auto found = allocate<std::uint64_t, memory_space>("strix::approximate::found", reads + 1);
  auto keys_alt = allocate<std::uint64_t, memory_space>("strix::approximate::keys_alt", total);
  auto vals = allocate<std::uint64_t, memory_space>("strix::approximate::vals", total);
  auto vals_alt = allocate<std::uint64_t, memory_space>("strix::approximate::vals_alt", total);
  auto status = allocate<std::uint64_t, memory_space>("strix::approximate::status", 1);
  fill(space, status, std::uint64_t(0));
  const auto fm = index.forward;
  Kokkos::parallel_for("strix::approximate_positions", range(space, 0, std::int64_t(total)),
                       KOKKOS_LAMBDA(const std::int64_t t) {
                         const std::uint64_t key = keys(t), p = fm.position(key >> 3);
                         if (p > fm.n) Kokkos::atomic_add(&status(0), std::uint64_t(1));
                         keys(t) = (p << 3) | (key & 7);
                         vals(t) = 0;
                       });
  std::uint64_t damaged = 0;
  copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&damaged), Kokkos::subview(status, 0));
  space.fence();
  STRIX_USER_REQUIRE(damaged == 0, "approximate search: the suffix-array samples are damaged");
  // Within each read by (position, distance): a position's first entry has its smallest distance.
  auto sorted = keys;
  if (total > 1) {
    primitives::workspace<ExecSpace> ws;
    ws.reserve(primitives::segmented_sort_pairs_scratch_bytes<std::uint64_t, std::uint64_t, std::uint64_t>(space, total, reads));
    int key_bits = 4;
    while (key_bits < 64 && ((n << 3) >> key_bits) > 0) ++key_bits;
    const bool alt = primitives::segmented_sort_pairs(
        space, ws, device_view<std::uint64_t, ExecSpace>(keys.data(), total),
        device_view<std::uint64_t, ExecSpace>(keys_alt.data(), total), device_view<std::uint64_t, ExecSpace>(vals.data(), total),
        device_view<std::uint64_t, ExecSpace>(vals_alt.data(), total),
        device_view<const std::uint64_t, ExecSpace>(starts.data(), reads + 1), std::size_t(reads), key_bits);
    if (alt) sorted = keys_alt;
  }
  // Keep a read's first entry at each position: flags, their exclusive sums, the scatter.
  auto keep = allocate<std::uint64_t, memory_space>("strix::approximate::keep", total + 1);
  fill(space, keep, std::uint64_t(0));
  Kokkos::parallel_for("strix::approximate_firsts", range(space, 0, reads), KOKKOS_LAMBDA(const std::int64_t q) {
    if (starts(q) < starts(q + 1)) keep(starts(q)) = 1;
  });
  Kokkos::parallel_for("strix::approximate_changes", range(space, 1, std::int64_t(total)), KOKKOS_LAMBDA(const std::int64_t t) {
    if ((sorted(t) >> 3) != (sorted(t - 1) >> 3)) keep(t) = 1;
  });
  std::uint64_t kept = 0;
  Kokkos::parallel_scan("strix::approximate_kept", range(space, 0, std::int64_t(total) + 1),
                        KOKKOS_LAMBDA(const std::int64_t t, std::uint64_t& sum, const bool final) {
                          const std::uint64_t flag = keep(t);
                          if (final) keep(t) = sum;
                          if (t < std::int64_t(total)) sum += flag;
                        },
                        kept);
  space.fence();
  out.positions = allocate<I, memory_space>("strix::approximate::positions", kept);
  out.distances = allocate<std::uint8_t, memory_space>("strix::approximate::distances", kept);
  const auto positions = out.positions;
  const auto distances = out.distances;
  Kokkos::parallel_for("strix::approximate_scatter", range(space, 0, std::int64_t(total)), KOKKOS_LAMBDA(const std::int64_t t) {
    if (keep(t + 1) != keep(t)) {
      positions(keep(t)) = static_cast<I>(sorted(t) >> 3);
      distances(keep(t)) = static_cast<std::uint8_t>(sorted(t) & 7);
    }
  });
  Kokkos::parallel_for("strix::approximate_new_starts", range(space, 0, reads + 1),
                       KOKKOS_LAMBDA(const std::int64_t q) { found(q) = keep(starts(q)); });
  copy(space, starts, found);
  space.fence();
  return out;
}

}  // namespace strix::detail

namespace strix {

template <class ExecSpace, class I>
approximate::bidirectional_ref<I> bidirectional(const fm_index<ExecSpace, I>& forward,
                                                const fm_index<ExecSpace, I>& reverse) {
  STRIX_USER_REQUIRE(forward.size() == reverse.size() && forward.separator() == reverse.separator(),
                     "approximate search: the reverse index is not of the same text reversed (size or separator differ)");
  const auto a = to_host(forward.space(), forward.data().rank.C), b = to_host(reverse.space(), reverse.data().rank.C);
  for (std::size_t c = 0; c < a.extent(0); ++c)
    STRIX_USER_REQUIRE(a(c) == b(c), "approximate search: the reverse index is not of the same text reversed (symbol counts differ)");
  approximate::bidirectional_ref<I> index{forward.ref(), reverse.ref()};
  for (std::size_t c = 0; c + 1 < a.extent(0); ++c)
    if (a(c + 1) > a(c)) index.occurring[c >> 6] |= std::uint64_t(1) << (c & 63);
  return index;
}

template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> search_approximate(
    const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
    const Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>& bytes,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& offsets,
    const approximate::search_scheme& plan, approximate::metric metric) {
  const int k = plan.max_errors;
  STRIX_USER_REQUIRE(k >= 0 && k <= 6, "approximate search: at most 6 errors (asked for " + std::to_string(k) + ")");
  STRIX_USER_REQUIRE(plan.searches.size() <= 127,  // a deferred chain keeps its search in a byte
                     "approximate search: at most 127 searches in a scheme (" + plan.name + " has " +
                         std::to_string(plan.searches.size()) + ")");
  STRIX_USER_REQUIRE(plan.pieces >= 1 && plan.pieces <= approximate::detail::edit_max_pieces,
                     "approximate search: a scheme of 1 to 16 pieces (" + plan.name + " has " + std::to_string(plan.pieces) + ")");
  const std::string malformed = approximate::check_well_formed(plan);
  STRIX_USER_REQUIRE(malformed.empty(), "approximate search: scheme " + plan.name + ": " + malformed);
  STRIX_USER_REQUIRE(!approximate::uncovered(plan), "approximate search: scheme " + plan.name + " is not lossless for " +
                                                        std::to_string(k) + " errors");
  STRIX_USER_REQUIRE(offsets.extent(0) >= 1, "approximate search: a batch of m reads has m + 1 offsets");
  const ExecSpace& space = forward.space();
  STRIX_USER_REQUIRE(detail::fm_offsets_ascend(space, device_view<const std::uint64_t, ExecSpace>(offsets.data(), offsets.extent(0)),
                                               bytes.extent(0)),
                     "approximate search: read offsets must ascend from 0 to the bytes' length");
  const auto index = bidirectional(forward, reverse);
  std::vector<int> rows;
  for (const auto& s : plan.searches)
    for (const auto* v : {&s.order, &s.lower, &s.upper}) rows.insert(rows.end(), v->begin(), v->end());
  const auto scheme = to_device(space, rows.data(), rows.size(), "strix::approximate::scheme");
  return detail::approximate_search<ExecSpace, I>(
      space, index, device_view<const std::uint8_t, ExecSpace>(bytes.data(), bytes.extent(0)),
      device_view<const std::uint64_t, ExecSpace>(offsets.data(), offsets.extent(0)),
      device_view<const int, ExecSpace>(scheme.data(), scheme.extent(0)), int(plan.searches.size()), plan.pieces, k,
      metric);
}

template <class ExecSpace, class I>
host_approximate_matches<I> search_approximate(const fm_index<ExecSpace, I>& forward,
                                               const fm_index<ExecSpace, I>& reverse, const std::uint8_t* bytes,
                                               const std::uint64_t* offsets, std::size_t reads,
                                               const approximate::search_scheme& scheme, approximate::metric metric,
                                               std::uint64_t batch_frames) {
  const std::uint64_t per_read = std::uint64_t(scheme.max_errors + scheme.pieces + 1);
  if (batch_frames == 0) {
    // Fewer batches are fewer drains of the walk list and fewer allocations of the stacks.
    const std::uint64_t free = detail::device_memory_in_use<ExecSpace>::free_bytes();
    batch_frames = free == 0 ? std::uint64_t(1) << 27
                             : std::min(std::uint64_t(1) << 31, std::max(std::uint64_t(1) << 27, free / 64));
  }
  STRIX_USER_REQUIRE(offsets[0] == 0, "approximate search: read offsets must start at 0");
  for (std::size_t q = 0; q < reads; ++q)
    STRIX_USER_REQUIRE(offsets[q + 1] >= offsets[q], "approximate search: read offsets must not decrease");
  const ExecSpace& space = forward.space();
  host_approximate_matches<I> out;
  out.starts.assign(1, 0);
  std::size_t first = 0;
  do {
    std::size_t last = first + (first < reads ? 1 : 0);
    while (last < reads && offsets[last + 1] - offsets[first] + per_read * (last + 1 - first) <= batch_frames) ++last;
    std::vector<std::uint64_t> local(last - first + 1);
    for (std::size_t q = first; q <= last; ++q) local[q - first] = offsets[q] - offsets[first];
    const auto d_offsets = to_device(space, local.data(), local.size(), "strix::approximate::offsets");
    const auto d_bytes = to_device(space, bytes + offsets[first], local.back(), "strix::approximate::bytes");
    const auto found =
        search_approximate(forward, reverse, Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>(d_bytes),
                           Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>(d_offsets), scheme, metric);
    const auto starts = to_host(space, found.starts);
    const auto positions = to_host(space, found.positions);
    const auto distances = to_host(space, found.distances);
    const std::uint64_t base = out.positions.size();
    for (std::size_t q = 1; q < starts.extent(0); ++q) out.starts.push_back(base + starts(q));
    out.positions.insert(out.positions.end(), positions.data(), positions.data() + positions.extent(0));
    out.distances.insert(out.distances.end(), distances.data(), distances.data() + distances.extent(0));
    first = last;
  } while (first < reads);
  return out;
}

}  // namespace strix

#define STRIX_APPROXIMATE_INSTANTIATE(SPACE, I) STRIX_APPROXIMATE_DECLARE(, SPACE, I)
