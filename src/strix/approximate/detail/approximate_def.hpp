// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Approximate search's kernels (approximate_search.hpp), included by libstrix's instantiation
// files only. STRIX_APPROXIMATE_INSTANTIATE(SPACE, I) instantiates them.
//
// One lane walks one read through each search of the scheme, depth first over the read's
// positions in the search's order, with its stack in scratch memory (a frame a read
// position). Two walks: the first counts the rows found per read, the second writes them with
// their distances; then their positions (locate's LF walks), a sort by (position, distance)
// within each read, and a compaction that keeps each position once, at its smallest distance
// (the scheme's searches may find one occurrence more than once).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <strix/approximate/approximate_search.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/fm_index/detail/fm_query_def.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::approximate::detail {

// A read position of the walk: the match's rows before it, and how far its symbols are tried.
struct walk_frame {
  bi_rows rows;
  std::uint64_t smaller = 0;  // rows of the symbols tried so far (and the $ row), this side
  std::uint64_t pos = 0;      // the read position this frame extends the match with
  std::uint64_t left = 0;     // positions after it in its piece
  std::int32_t next = 0;      // the next symbol to try; 256: none left
  std::int32_t errors = 0;    // errors before this position
  std::int32_t step = 0;      // the piece's place in the search's order (its bounds)
  std::int32_t side = 0;      // 0: prepend (forward index), 1: append (reverse index)
  std::int32_t piece_end = 0;
};

// Walks read [read, read + m) through search s (bounds in scheme[s * 3 pieces, ...)), calling
// sink(first forward row, end forward row, distance) for each match found; frames[0, m).
template <class I, class Scheme, class Frames, class Sink>
KOKKOS_INLINE_FUNCTION void walk_search(const bidirectional_ref<I>& index, const std::uint8_t* read, std::uint64_t m,
                                        const Scheme& scheme, int s, int pieces, const Frames& frames,
                                        std::uint64_t base, const Sink& sink) {
  const int* order = &scheme(std::size_t(s) * 3 * pieces);
  const int* lower = order + pieces;
  const int* upper = lower + pieces;
  // The plan: each piece in the search's order, prepended right to left when it lies left of
  // the pieces visited (and the first piece), appended left to right when it lies right.
  std::uint64_t t = 0;
  int low = order[0], high = order[0];
  for (int i = 0; i < pieces; ++i) {
    const int piece = order[i];
    int side = 0;
    if (i > 0 && piece > high) side = 1;
    if (piece > high) high = piece;
    if (piece < low) low = piece;
    const std::uint64_t a = piece_start(m, pieces, piece), b = piece_start(m, pieces, piece + 1);
    for (std::uint64_t j = 0; j < b - a; ++j, ++t) {
      walk_frame& f = frames(base + t);
      f.pos = side == 0 ? b - 1 - j : a + j;
      f.side = side;
      f.step = i;
      f.piece_end = j + 1 == b - a;
      f.left = b - a - 1 - j;
    }
  }
  const int sep = index.separator();
  {
    walk_frame& f = frames(base);
    f.rows = index.all_rows();
    f.errors = 0;
    f.next = index.next_symbol(0);
    f.smaller = f.side == 0 ? end_row_in(index.forward, f.rows.fs, f.rows.fe) : end_row_in(index.reverse, f.rows.rs, f.rows.re);
  }
  std::int64_t depth = 0;
  while (depth >= 0) {
    walk_frame& f = frames(base + std::uint64_t(depth));
    if (f.next >= 256) {
      --depth;
      continue;
    }
    const auto& fm = f.side == 0 ? index.forward : index.reverse;
    const std::uint64_t s0 = f.side == 0 ? f.rows.fs : f.rows.rs, e0 = f.side == 0 ? f.rows.fe : f.rows.re;
    const std::uint64_t o0 = f.side == 0 ? f.rows.rs : f.rows.fs;
    const int want = read[f.pos];
    int b = f.next;
    if (f.errors == upper[f.step]) {
      // No error left at this step: the read's symbol only, after summing those before it.
      if (b > want || !fm.occurs(std::uint8_t(want))) {
        f.next = 256;
        continue;
      }
      for (; b < want; b = index.next_symbol(b + 1)) f.smaller += fm.rank(std::uint8_t(b), e0) - fm.rank(std::uint8_t(b), s0);
      f.next = 256;
    } else {
      f.next = index.next_symbol(b + 1);
    }
    std::uint64_t ns, ne, os, oe;
    const std::uint64_t d = step_rows(fm, std::uint8_t(b), s0, e0, o0, f.smaller, ns, ne, os, oe);
    f.smaller += d;
    if (d == 0 || b == sep) continue;
    const int errors = f.errors + (b != want ? 1 : 0);
    if (errors > upper[f.step]) continue;
    if (errors + (f.piece_end ? 0 : std::int64_t(f.left)) < lower[f.step]) continue;
    bi_rows next_rows = f.side == 0 ? bi_rows{ns, ne, os, oe} : bi_rows{os, oe, ns, ne};
    if (std::uint64_t(depth) + 1 == m) {
      if (errors >= lower[pieces - 1]) sink(next_rows.fs, next_rows.fe, errors);
      continue;
    }
    walk_frame& g = frames(base + std::uint64_t(depth) + 1);
    g.rows = next_rows;
    g.errors = errors;
    g.next = index.next_symbol(0);
    g.smaller = g.side == 0 ? end_row_in(index.forward, g.rows.fs, g.rows.fe) : end_row_in(index.reverse, g.rows.rs, g.rows.re);
    ++depth;
  }
}

}  // namespace strix::approximate::detail

namespace strix::detail {

template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> approximate_search_hamming(
    const ExecSpace& space, const approximate::bidirectional_ref<I>& index,
    const device_view<const std::uint8_t, ExecSpace>& bytes, const device_view<const std::uint64_t, ExecSpace>& offsets,
    const device_view<const int, ExecSpace>& scheme, int searches, int pieces) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using approximate::detail::walk_frame;
  const std::int64_t reads = offsets.extent(0) > 0 ? std::int64_t(offsets.extent(0)) - 1 : 0;
  approximate_matches<memory_space, I> out;
  out.starts = allocate<std::uint64_t, memory_space>("strix::approximate::starts", reads + 1);
  std::uint64_t read_bytes = 0;
  if (reads > 0) copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&read_bytes),
                      Kokkos::subview(offsets, reads));
  space.fence();
  auto frames = allocate<walk_frame, memory_space>("strix::approximate::frames", read_bytes);
  auto found = allocate<std::uint64_t, memory_space>("strix::approximate::found", reads + 1);
  const std::uint64_t n = index.forward.n;
  // Walk 1: rows found per read (the empty read: every position).
  Kokkos::parallel_for("strix::approximate_count", range(space, 0, reads), KOKKOS_LAMBDA(const std::int64_t q) {
    const std::uint64_t first = offsets(q), m = offsets(q + 1) - first;
    std::uint64_t total = 0;
    if (m == 0) total = n + 1;
    else
      for (int s = 0; s < searches; ++s)
        approximate::detail::walk_search(index, bytes.data() + first, m, scheme, s, pieces, frames, first,
                                         [&](std::uint64_t fs, std::uint64_t fe, int) { total += fe - fs; });
    found(q) = total;
  });
  const auto starts = out.starts;
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
  // Walk 2: the rows and their distances; then each row's position as a key with its distance.
  auto keys = allocate<std::uint64_t, memory_space>("strix::approximate::keys", total);
  auto keys_alt = allocate<std::uint64_t, memory_space>("strix::approximate::keys_alt", total);
  auto vals = allocate<std::uint64_t, memory_space>("strix::approximate::vals", total);
  auto vals_alt = allocate<std::uint64_t, memory_space>("strix::approximate::vals_alt", total);
  Kokkos::parallel_for("strix::approximate_rows", range(space, 0, reads), KOKKOS_LAMBDA(const std::int64_t q) {
    const std::uint64_t first = offsets(q), m = offsets(q + 1) - first;
    std::uint64_t at = starts(q);
    if (m == 0) {
      for (std::uint64_t r = 0; r <= n; ++r, ++at) keys(at) = r << 3;
      return;
    }
    for (int s = 0; s < searches; ++s)
      approximate::detail::walk_search(index, bytes.data() + first, m, scheme, s, pieces, frames, first,
                                       [&](std::uint64_t fs, std::uint64_t fe, int d) {
                                         for (std::uint64_t r = fs; r < fe; ++r, ++at) keys(at) = (r << 3) | std::uint64_t(d);
                                       });
  });
  release(frames);
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
  return {forward.ref(), reverse.ref()};
}

template <class ExecSpace, class I>
approximate_matches<typename ExecSpace::memory_space, I> search_hamming(
    const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
    const Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>& bytes,
    const Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>& offsets, int k) {
  STRIX_USER_REQUIRE(k >= 0 && k <= 6, "approximate search: at most 6 errors (asked for " + std::to_string(k) + ")");
  STRIX_USER_REQUIRE(offsets.extent(0) >= 1, "approximate search: a batch of m reads has m + 1 offsets");
  const ExecSpace& space = forward.space();
  STRIX_USER_REQUIRE(detail::fm_offsets_ascend(space, device_view<const std::uint64_t, ExecSpace>(offsets.data(), offsets.extent(0)),
                                               bytes.extent(0)),
                     "approximate search: read offsets must ascend from 0 to the bytes' length");
  const auto index = bidirectional(forward, reverse);
  const auto plan = approximate::default_scheme(k);
  std::vector<int> rows;
  for (const auto& s : plan.searches)
    for (const auto* v : {&s.order, &s.lower, &s.upper}) rows.insert(rows.end(), v->begin(), v->end());
  const auto scheme = to_device(space, rows.data(), rows.size(), "strix::approximate::scheme");
  return detail::approximate_search_hamming<ExecSpace, I>(
      space, index, device_view<const std::uint8_t, ExecSpace>(bytes.data(), bytes.extent(0)),
      device_view<const std::uint64_t, ExecSpace>(offsets.data(), offsets.extent(0)),
      device_view<const int, ExecSpace>(scheme.data(), scheme.extent(0)), int(plan.searches.size()), plan.pieces);
}

template <class ExecSpace, class I>
host_approximate_matches<I> search_hamming(const fm_index<ExecSpace, I>& forward, const fm_index<ExecSpace, I>& reverse,
                                           const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t reads,
                                           int k) {
  // (The offsets are checked on the device, by the call below.)
  const ExecSpace& space = forward.space();
  const auto d_offsets = to_device(space, offsets, reads + 1, "strix::approximate::offsets");
  const auto d_bytes = to_device(space, bytes, offsets[reads], "strix::approximate::bytes");
  const auto found = search_hamming(forward, reverse, Kokkos::View<const std::uint8_t*, typename ExecSpace::memory_space>(d_bytes),
                                    Kokkos::View<const std::uint64_t*, typename ExecSpace::memory_space>(d_offsets), k);
  host_approximate_matches<I> out;
  const auto starts = to_host(space, found.starts);
  const auto positions = to_host(space, found.positions);
  const auto distances = to_host(space, found.distances);
  out.starts.assign(starts.data(), starts.data() + starts.extent(0));
  out.positions.assign(positions.data(), positions.data() + positions.extent(0));
  out.distances.assign(distances.data(), distances.data() + distances.extent(0));
  return out;
}

}  // namespace strix

#define STRIX_APPROXIMATE_INSTANTIATE(SPACE, I) STRIX_APPROXIMATE_DECLARE(, SPACE, I)
