// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The distributed difference cover (STRIX_DISTRIBUTED_ALGORITHM=cover; issue 63, goal 4): the
// suffixes at the sample positions of a difference cover of period X (|D| of every X) are
// ranked by the replicated rounds over the sample alone (replicated_def.hpp with cover_units: a
// round looks up the rank a whole number of periods further, which is a sample position again),
// and every rank then orders its own range of keys with no exchange but the rows at the end:
// it takes the suffixes whose first k characters fall in its range (k >= X), puts its sample
// suffixes in order by their ranks (they are a contiguous range of the sample's order), sorts
// each other class by its characters up to the next sample position and that position's rank,
// and merges these runs by the cover's comparator (sa/detail/difference_cover/induce_merge.hpp,
// the single-device construction's own steps, here over the rank's suffixes only).
//
// Rounds exchange only the sample's changed ranks (|D| / X of the text: 3/7, 4/13, 5/21); the
// merge is local. Per rank, besides the whole text (n bytes) and the sample's rank array (|D|/X
// n entries): the pairs the rounds receive (2 entries for each of the other ranks' sample
// suffixes, in the first round), the sample rounds' arrays for its share of the sample, then
// (in the same block) 24 bytes (32-bit entries) for each of its own suffixes: their order, a
// merge buffer and two packed keys — of one piece at a time where memory binds.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

#include <strix/distributed/detail/replicated_def.hpp>
#include <strix/sa/detail/difference_cover/cover.hpp>
#include <strix/sa/detail/difference_cover/piece_order.hpp>
#include <strix/sa/detail/difference_cover/symbols.hpp>

namespace strix::distributed::detail {

// The largest supported period up to `wanted` that the k characters of a round-0 key allow (the
// first round shifts by a whole period of them): 7, 13 or 21.
inline unsigned clip_period(unsigned wanted, int k) {
  unsigned count = 0;
  const unsigned* periods = strix::detail::supported_dc_periods(count);
  unsigned period = 0;
  for (unsigned j = 0; j < count; ++j)
    if (periods[j] <= wanted && periods[j] <= unsigned(k) && periods[j] > 3) period = periods[j];
  STRIX_REQUIRE(period >= 7);  // k >= 7: a character code takes at most 9 bits
  return period;
}

// The period asked for with STRIX_DISTRIBUTED_ALGORITHM=cover: STRIX_DISTRIBUTED_COVER (7, 13
// or 21), else 7 (the fastest: fewest runs to merge). (`auto` chooses its own.)
inline unsigned asked_cover_period(const collective& c) {
  const char* set = std::getenv("STRIX_DISTRIBUTED_COVER");
  if (!set || !*set) return 7;
  const std::string v = set;
  c.run([&] {
    STRIX_USER_REQUIRE(v == "7" || v == "13" || v == "21", "STRIX_DISTRIBUTED_COVER is '" + v + "'; it takes 7, 13 or 21");
  });
  return unsigned(std::stoul(v));
}

// What the merge step takes: carved from the block of the sample rounds' own arrays, which
// are done by then (the block grows where the rank's suffixes need more).
template <class I, class ExecSpace>
struct cover_arrays {
  using rounds_arrays = replicated_arrays<I, false, ExecSpace>;
  array<I, ExecSpace> own, merge_buf;
  array<std::uint64_t, ExecSpace> keys;  // 2 m0: the runs' and the merge's keys
  static std::size_t block_bytes(std::uint64_t m0) {
    return 2 * rounds_arrays::aligned(m0 * sizeof(I)) + rounds_arrays::aligned(2 * m0 * sizeof(std::uint64_t));
  }
  void take(named_buffers& pool, std::uint64_t m0) {
    using memory = typename ExecSpace::memory_space;
    auto block = pool.take<unsigned char, memory>(rounds_arrays::own_block, block_bytes(m0));
    own = array<I, ExecSpace>(reinterpret_cast<I*>(block.data()), m0);
    const std::size_t at = rounds_arrays::aligned(m0 * sizeof(I));
    merge_buf = array<I, ExecSpace>(reinterpret_cast<I*>(block.data() + at), m0);
    keys = array<std::uint64_t, ExecSpace>(reinterpret_cast<std::uint64_t*>(block.data() + 2 * at), 2 * m0);
  }
  // The workspace buffers the construction takes.
  static void keep_buffers(named_buffers& pool) {
    pool.keep_only({"strix::whole_text", "strix::replicated_isa", rounds_arrays::own_block, "strix::incoming_pairs", key_flags});
  }
};

// The pieces a rank's range of keys is ordered in: STRIX_DISTRIBUTED_PIECES (1 to 64), else
// `chosen` (suffix_array_def.hpp's choose_construction: 1 unless memory binds).
inline unsigned cover_pieces(const collective& c, unsigned chosen) {
  const char* set = std::getenv("STRIX_DISTRIBUTED_PIECES");
  if (!set || !*set) return std::max(1u, chosen);
  const std::string v = set;
  const unsigned long asked = std::strtoul(set, nullptr, 10);
  c.run([&] {
    STRIX_USER_REQUIRE(asked >= 1 && asked <= 64 && v.find_first_not_of("0123456789") == std::string::npos,
                       "STRIX_DISTRIBUTED_PIECES is '" + v + "'; it takes 1 to 64");
  });
  return unsigned(asked);
}

// This rank's rows of the suffix array, from the sample's ranks (`ranks`, one a unit) and the
// whole text: its range of keys ordered locally, then moved to the block layout. In `pieces`
// pieces of keys one after the other (bounds from the same sample of keys), where memory binds:
// the merge's arrays then hold one piece, and a piece costs a pass over the text's marks.
template <class I, class R, class ExecSpace>
std::uint64_t cover_merge(const ExecSpace& space, named_buffers& pool, const collective& c,
                          const array<std::uint8_t, ExecSpace>& text, const array<std::uint16_t, ExecSpace>& codes,
                          int bits, const strix::detail::difference_cover& cover, const array<R, ExecSpace>& ranks,
                          const Kokkos::View<I*, typename ExecSpace::memory_space>& sa, unsigned pieces,
                          strix::detail::phase_timer<ExecSpace>& timer) {
  using index = array<I, ExecSpace>;
  const std::uint64_t n = text.extent(0), m = ranks.extent(0);
  const int k = bits == 0 ? 1 : 64 / bits;
  auto& ws = pool.scratch<ExecSpace>();
  const first_characters<ExecSpace> key_of{text, codes, n, k, bits};
  const strix::detail::byte_symbols<ExecSpace> sym{text, codes, n, bits};
  const strix::detail::sample_rank<ExecSpace, R> rank{strix::device_view<const R, ExecSpace>(ranks.data(), m), cover, n};
  const int ranks_count = c.size();
  cover_arrays<I, ExecSpace> a;

  // 1. Every piece's suffixes counted (pieces of every rank in key order: rank-major).
  timer.begin("distributed_cover_select");
  std::vector<std::uint64_t> bounds, mine_counts(pieces, 0);
  const marked<ExecSpace> mine{pool.take<std::uint32_t, typename ExecSpace::memory_space>(key_flags, key_flag_words(n))};
  const auto piece_bounds = [&](unsigned s) {
    const std::size_t at = std::size_t(c.rank()) * pieces + s;
    return std::make_pair(bounds[at], at + 1 < std::size_t(ranks_count) * pieces ? bounds[at + 1] : std::uint64_t(0));
  };
  c.run([&] {
    // (One piece: the sample rounds marked this rank's range already, from the same bounds:
    // replicated_def.hpp.)
    if (pieces == 1) {
      mine_counts[0] = count_marks(space, mine.flags);
      return;
    }
    bounds = key_ranges(space, key_of, n, ranks_count * int(pieces));
    for (unsigned s = 0; s < pieces; ++s) {
      const auto [lo, hi] = piece_bounds(s);
      mine_counts[s] = mark_key_range(space, key_of, lo, hi, mine.flags);
    }
  });
  const std::vector<std::uint64_t> counts = c.all_gather(mine_counts);  // [rank * pieces + piece]
  std::vector<std::uint64_t> firsts(counts.size(), 0);
  for (std::size_t j = 1; j < counts.size(); ++j) firsts[j] = firsts[j - 1] + counts[j - 1];
  std::uint64_t largest = 0, total = 0;
  for (const std::uint64_t x : mine_counts) {
    largest = std::max(largest, x);
    total += x;
  }
  c.run([&] {
    a.take(pool, largest);
    note_device_memory<ExecSpace>();
  });

  for (unsigned s = 0; s < pieces; ++s) {
    const std::uint64_t m0 = mine_counts[s];
    const index own(a.own.data(), m0), spare(a.merge_buf.data(), m0);
    timer.begin("distributed_cover_select");
    c.run([&] {
      if (pieces > 1) {  // (one piece: marked by the sample rounds)
        const auto [lo, hi] = piece_bounds(s);
        mark_key_range(space, key_of, lo, hi, mine.flags);
      }
      primitives::select_indices(space, ws, std::int64_t(n), mine, strix::device_view<I, ExecSpace>(own));
    });

    // 2., 3. The piece in order: the sample by rank (its ranks here are a contiguous range: the
    // pieces split the global order), the other classes in groups that share an offset into the
    // cover, each by its characters up to that offset and the rank there, the runs merged
    // (sa/detail/difference_cover/piece_order.hpp).
    c.run([&] {
      strix::detail::order_piece(space, ws, cover, sym, rank, m, strix::device_view<I, ExecSpace>(own),
                                 strix::device_view<I, ExecSpace>(spare),
                                 strix::device_view<std::uint64_t, ExecSpace>(a.keys.data(), 2 * m0), timer,
                                 strix::detail::piece_phases{"distributed_cover_select", "distributed_cover_runs",
                                                             "distributed_cover_merge"});
      space.fence();
    });

    // 4. The rows to the block layout: piece s of every rank.
    timer.begin("distributed_place");
    std::vector<std::uint64_t> step_firsts(ranks_count), step_counts(ranks_count);
    for (int r = 0; r < ranks_count; ++r) {
      step_firsts[r] = firsts[std::size_t(r) * pieces + s];
      step_counts[r] = counts[std::size_t(r) * pieces + s];
    }
    send_rows_to_blocks(space, c, own, step_firsts, step_counts, n, sa,
                        index(reinterpret_cast<I*>(a.keys.data()), 2 * largest * sizeof(std::uint64_t) / sizeof(I)));
  }
  return total;
}

// The sample is ranked with 32-bit entries whatever the suffix array's (unit indices and ranks
// are all its rounds store): half the rounds' memory under 64-bit arrays (issue 63, goal 3),
// and one instantiation of them less to compile. So its units must be fewer than 2^32 - 1:
// texts up to about 10^10 bytes at period 7, 1.8·10^10 at 21.
inline bool sample_fits(std::uint64_t n, unsigned period) {
  return cover_units{strix::detail::make_difference_cover(period)}.count(n) < (std::uint64_t(1) << 32) - 1;
}

// The whole construction: the sample ranked (with entries of type R), then every rank's range
// merged.
template <class I, class R, class ExecSpace>
replicated_work cover_rounds_and_merge(const ExecSpace& space, named_buffers& pool, const collective& c,
                                       const text_view<ExecSpace>& slice, const layout& positions,
                                       const std::vector<std::uint64_t>& code, int bits,
                                       const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                                       strix::detail::phase_timer<ExecSpace>& timer, bool kept, const cover_units& units,
                                       unsigned pieces) {
  using memory = typename ExecSpace::memory_space;
  const std::uint64_t n = positions.total(), m = units.count(n);
  replicated_work work = replicated_rounds<R, false>(space, pool, c, slice, positions, code, bits,
                                                     Kokkos::View<R*, memory>(), timer, units);
  array<std::uint8_t, ExecSpace> text;
  array<R, ExecSpace> ranks;
  array<std::uint16_t, ExecSpace> codes;
  c.run([&] {
    // The pairs the sample rounds received go, unless the workspace is the caller's (kept).
    if (!kept)
      pool.keep_only({"strix::whole_text", "strix::replicated_isa", replicated_arrays<R, false, ExecSpace>::own_block, key_flags});
    text = pool.take<std::uint8_t, memory>("strix::whole_text", n);
    ranks = pool.take<R, memory>("strix::replicated_isa", m);
    codes = device_codes(space, code);
  });
  work.sorted += cover_merge<I, R>(space, pool, c, text, codes, bits, units.cover, ranks, sa, pieces, timer);
  return work;
}

// (`chosen_period`, `chosen_pieces`: what suffix_array_def.hpp's choose_construction chose;
// the keys' k may make the period smaller; STRIX_DISTRIBUTED_PIECES asks other pieces.)
template <class I, class ExecSpace>
replicated_work cover_construction(const ExecSpace& space, named_buffers& pool, const collective& c,
                                   const text_view<ExecSpace>& slice, const layout& positions,
                                   const std::vector<std::uint64_t>& code, int bits,
                                   const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                                   strix::detail::phase_timer<ExecSpace>& timer, bool kept, unsigned chosen_period,
                                   unsigned chosen_pieces, unsigned& period, unsigned& pieces) {
  const int k = bits == 0 ? 1 : 64 / bits;
  period = clip_period(chosen_period, k);
  pieces = cover_pieces(c, chosen_pieces);
  const std::uint64_t n = positions.total();
  if (!sample_fits(n, period)) period = clip_period(21, k);  // (the smallest sample the keys allow)
  c.run([&] {
    STRIX_USER_REQUIRE(sample_fits(n, period),
                       "the distributed difference cover takes texts of up to about 10^10 bytes (1.8·10^10 for DNA); " +
                           std::to_string(n) + " bytes need STRIX_DISTRIBUTED_ALGORITHM=partitioned");
  });
  const cover_units units{strix::detail::make_difference_cover(period)};
  return cover_rounds_and_merge<I, std::uint32_t>(space, pool, c, slice, positions, code, bits, sa, timer, kept, units,
                                                  pieces);
}

// A piece's suffixes expected, with room for the sample's error (a piece has fewer samples).
inline std::uint64_t expected_piece(std::uint64_t own, unsigned pieces) {
  const std::uint64_t even = (own + pieces - 1) / pieces;
  return pieces == 1 ? own : std::min(own, even + even / 16 + 4096);
}

// The arrays of the construction for a text of n bytes over `ranks` ranks, with the rank's
// suffixes estimated, for the sample of `units`.
template <class ExecSpace, class I, class R>
void reserve_cover_as(const ExecSpace& space, named_buffers& pool, const cover_units& units, std::uint64_t n, int ranks,
                      unsigned pieces) {
  using memory = typename ExecSpace::memory_space;
  using rounds_arrays = replicated_arrays<R, false, ExecSpace>;
  const std::uint64_t m = units.count(n), sample_own = expected_own_suffixes(m, ranks),
                      own = expected_piece(expected_own_suffixes(n, ranks), pieces);
  cover_arrays<I, ExecSpace>::keep_buffers(pool);
  rounds_arrays a;
  a.take_whole(pool, n, m);
  pool.take<unsigned char, memory>(rounds_arrays::own_block, std::max(rounds_arrays::own_block_bytes(sample_own),
                                                                      cover_arrays<I, ExecSpace>::block_bytes(own)));
  // (The incoming pairs at their largest first: take_own then finds them large enough.)
  const std::uint64_t fewest = 2 * (m / std::uint64_t(ranks)) > sample_own ? 2 * (m / std::uint64_t(ranks)) - sample_own : 0;
  pool.take<R, memory>("strix::incoming_pairs", 2 * (m - fewest));
  a.take_own(space, pool, m, ranks, sample_own);
  pool.scratch<ExecSpace>().reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space, own));
  pool.scratch<ExecSpace>().result(64);
}
// ... for `period`: the build's own where reserve was given the text (its alphabet), else 7's,
// the largest sample (the period a text of unknown alphabet may take).
template <class ExecSpace, class I>
void reserve_cover(const ExecSpace& space, named_buffers& pool, const collective& c, std::uint64_t n, int ranks,
                   unsigned pieces, unsigned period) {
  pieces = cover_pieces(c, pieces);
  if (!sample_fits(n, period)) return;  // (the build refuses it)
  reserve_cover_as<ExecSpace, I, std::uint32_t>(space, pool, cover_units{strix::detail::make_difference_cover(period)},
                                                n, ranks, pieces);
}

// The device bytes a rank needs for the construction with period X, over `ranks` ranks, its
// suffixes at most `own`, ordered in `pieces`: the text, the sample's rank array, the larger of
// the sample rounds' arrays and a piece's merge arrays, the pairs the rounds receive, 4 bytes a
// suffix of a piece for scratch, the selection's marks.
template <class I, class ExecSpace>
std::uint64_t cover_bytes(std::uint64_t n, int ranks, std::uint64_t own, unsigned period, unsigned pieces) {
  const cover_units units{strix::detail::make_difference_cover(period)};
  const std::uint64_t m = units.count(n), sample_own = expected_own_suffixes(m, ranks),
                      fewest = 2 * (m / std::uint64_t(ranks)) > sample_own ? 2 * (m / std::uint64_t(ranks)) - sample_own : 0;
  const auto need = [&](auto entry) {
    using R = decltype(entry);
    return n + m * sizeof(R) +
           std::max<std::uint64_t>(replicated_arrays<R, false, ExecSpace>::own_block_bytes(sample_own),
                                   cover_arrays<I, ExecSpace>::block_bytes(expected_piece(own, pieces))) +
           2 * sizeof(R) * (m - fewest) + 4 * expected_piece(own, pieces) + 4 * key_flag_words(n);
  };
  return sample_fits(n, period) ? need(std::uint32_t{}) : ~std::uint64_t(0) >> 2;  // (never fits; no overflow in fits())
}

}  // namespace strix::distributed::detail
