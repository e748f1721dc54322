// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The distributed suffix array with replicated ranks, for texts whose rank array fits every
// device (suffix_array_def.hpp picks it; STRIX_DISTRIBUTED_ALGORITHM=replicated|partitioned
// asks). Every rank first receives the whole text (one all-gather: n bytes), then takes the
// suffixes whose first k characters fall in its range of keys (splitters from a sample every
// rank draws alike from the text, so equal prefixes stay on one rank and nothing else is
// exchanged) and sorts them by those characters. From there every rank owns whole groups and
// refines them by prefix doubling as the single-device construction does (prefix_doubling.hpp:
// group-head ranks, suffixes of unsorted groups re-sorted inside their group by ISA[s + h],
// singletons dropped), reading ISA[s + h] from its own copy of the whole rank array. After
// each round every rank sends the ranks it changed to all others (an all-gather of (suffix,
// rank) pairs); no request ever crosses ranks. At the end every rank holds the inverse suffix
// array and writes its own rows with no exchange.
//
// Per rank: the text (n bytes), the rank array (n entries of I),
// the round's incoming pairs (2 entries a suffix whose rank changed on another rank: all the
// others' suffixes in the first round), and about 40 bytes for each of its own suffixes.
// Exchanged: the text, then 2 sizeof(I) bytes per changed rank and round, to every other rank.
// The changed ranks come out of the round's own scan (round_scan's changed_pairs).
//
// Shared ranks (the same rounds, `Shared`): where every rank can read and write every other
// rank's memory in place (one node: GPUs with peer access, or host ranks through an MPI
// shared-memory window; shared_ranks.hpp), the rank array is not copied but split by position
// over the ranks, n / P entries each. A round reads ISA[s + h] wherever it lives; its scan
// records the new ranks of its own suffixes as pairs, which go to the ranks whose parts hold
// those suffixes (one all-to-all) and are stored there (64-bit entries: the scan stores them
// there itself, which takes no memory for pairs); two barriers a round keep the reads of a
// round before anyone's writes and the writes before the next round's reads. No rank array
// copy, and each update stored once: per rank n / P entries of I, the text, 2 n / P entries for
// the pairs it receives (32-bit), and about 52 bytes for each of its own suffixes (80 at 64 bits).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <utility>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/distributed/detail/exchange.hpp>
#include <strix/distributed/detail/shared_ranks.hpp>
#include <strix/distributed/workspace.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/sa/detail/alphabet.hpp>
#include <strix/sa/detail/difference_cover/cover.hpp>
#include <strix/sa/detail/difference_cover/pieces.hpp>  // marked
#include <strix/sa/detail/doubling/round_scan.hpp>
#include <strix/succinct/detail/word_ops.hpp>

namespace strix::distributed::detail {

// Sends the `count` (suffix, rank) pairs this rank's round changed (round_scan's
// changed_pairs wrote them into `pairs`) to every other rank, with one all-gather that leaves
// each rank's own out, into `incoming` (sized for the first round: every other rank's
// suffixes), and stores the others' into `isa` (the round's scan stored this rank's own).
template <class I, class ExecSpace>
void share_rank_updates(const ExecSpace& space, const collective& c, const array<I, ExecSpace>& pairs,
                        std::uint64_t count, const array<I, ExecSpace>& isa, const array<I, ExecSpace>& incoming,
                        strix::detail::phase_timer<ExecSpace>& timer) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  layout from = c.gather_layout(2 * count);
  // This rank's own range empty: the all-gather skips it (communicator.hpp).
  for (int r = c.rank() + 1; r <= c.size(); ++r) from.offsets[r] -= 2 * count;
  timer.begin("distributed_share_transfer");  // (the wait for the slowest rank's round included)
  auto got = gather_arrays(space, c, array<I, ExecSpace>(pairs.data(), 2 * count), from.offsets, "strix::got_pairs",
                           incoming);
  timer.begin("distributed_share_store");
  c.run([&] {
    auto r = isa;
    Kokkos::parallel_for(
        "strix::update_store", policy(space, 0, std::int64_t(got.extent(0) / 2)),
        KOKKOS_LAMBDA(const std::int64_t j) { r(got(2 * j)) = got(2 * j + 1); });
  });
}

// Whether pair j's suffix (pairs(2 j)) lies in [lo, hi): in that rank's part of the rank array.
template <class I, class ExecSpace>
struct pair_in_part {
  array<I, ExecSpace> pairs;
  std::uint64_t lo, hi;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t j) const {
    const std::uint64_t s = std::uint64_t(pairs(2 * j));
    return s >= lo && s < hi;
  }
};

// Shared ranks: sends the `count` (suffix, rank) pairs this rank's round changed (round_scan's
// routed_pairs wrote them into `pairs`) to the ranks whose parts of the rank array hold the
// suffixes — a selection a part into `order`, the pairs gathered part by part into `send`, one
// all-to-all into `incoming` (room for a part's entries: a position changes once a round) —
// and stores those it receives into its own part (`own`, positions from `own_lo`). On 4 H200s a
// GPU's random stores into other GPUs' memory cost more than the exchange (RESULTS §59).
template <class I, class ExecSpace>
void route_rank_updates(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c,
                        const array<I, ExecSpace>& pairs, std::uint64_t count, const array<I, ExecSpace>& order,
                        const array<I, ExecSpace>& send, const array<I, ExecSpace>& incoming, std::uint64_t n,
                        I* own, strix::detail::phase_timer<ExecSpace>& timer) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const int ranks = c.size();
  const std::uint64_t block = part_block(n, ranks), own_lo = std::min(n, block * std::uint64_t(c.rank()));
  timer.begin("distributed_share_route");
  std::vector<std::uint64_t> to(std::size_t(ranks) + 1, 0);  // entries (two a pair) for each part
  c.run([&] {
    std::uint64_t done = 0;  // pairs selected so far
    for (int r = 0; r < ranks; ++r) {
      const pair_in_part<I, ExecSpace> in_part{pairs, std::min(n, block * std::uint64_t(r)),
                                               std::min(n, block * (std::uint64_t(r) + 1))};
      if (done < count)
        done += primitives::select_indices(space, ws, std::int64_t(count), in_part,
                                           strix::device_view<I, ExecSpace>(order.data() + done, count - done));
      to[r + 1] = 2 * done;
    }
    auto o = order;
    auto p = pairs;
    auto out = send;
    Kokkos::parallel_for(
        "strix::route_gather", policy(space, 0, std::int64_t(count)), KOKKOS_LAMBDA(const std::int64_t t) {
          const std::int64_t j = std::int64_t(o(t));
          out(2 * t) = p(2 * j);
          out(2 * t + 1) = p(2 * j + 1);
        });
  });
  const auto from = receive_offsets(c, to);
  timer.begin("distributed_share_transfer");  // (the wait for the slowest rank's round included)
  auto got = send_arrays(space, c, array<I, ExecSpace>(send.data(), 2 * count), to, from, "strix::routed_got", incoming);
  timer.begin("distributed_share_store");
  c.run([&] {
    Kokkos::parallel_for(
        "strix::routed_store", policy(space, 0, std::int64_t(got.extent(0) / 2)),
        KOKKOS_LAMBDA(const std::int64_t j) { own[std::uint64_t(got(2 * j)) - own_lo] = got(2 * j + 1); });
  });
}

// The first k characters of the suffix at j, packed (sa/detail/alphabet.hpp).
template <class ExecSpace>
using first_characters =
    strix::detail::prefix_key<text_view<ExecSpace>, strix::device_view<std::uint16_t, ExecSpace>>;

// The units a construction ranks: every text position (Units = text_positions), or the
// sample positions of a difference cover in increasing order (cover_units: the distributed
// difference cover's sample, cover_def.hpp). Unit u + shift(h) starts h characters after unit
// u wherever shift is defined, so the rounds look ranks up by unit.
struct text_positions {
  KOKKOS_INLINE_FUNCTION std::uint64_t position(const std::uint64_t u) const { return u; }
  std::uint64_t count(const std::uint64_t n) const { return n; }
  // The shift, in characters, of a round whose ranks tell `covered` characters apart.
  std::uint64_t step(const std::uint64_t covered) const { return covered; }
  std::uint64_t shift(const std::uint64_t step) const { return step; }
};
struct cover_units {
  strix::detail::difference_cover cover;
  KOKKOS_INLINE_FUNCTION std::uint64_t position(const std::uint64_t u) const { return cover.position_of(u); }
  std::uint64_t count(const std::uint64_t n) const { return cover.sample_below(n); }
  // Whole periods only (a sample position plus a multiple of X is one): the covered length
  // starts at k >= X characters, so a round shifts by at least X.
  std::uint64_t step(const std::uint64_t covered) const { return covered / cover.period * cover.period; }
  std::uint64_t shift(const std::uint64_t step) const { return step / cover.period * cover.size; }
};

// The first characters of unit u's suffix.
template <class ExecSpace, class Units>
struct unit_key {
  first_characters<ExecSpace> key_of;
  Units units;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(const std::uint64_t u) const { return key_of(units.position(u)); }
};

// The positions whose first k characters fall in [lo, hi) (hi == 0: no upper bound), marked in
// `flags` (bit j % 32 of word j / 32, n / 32 + 1 words); returns how many. A thread takes 32
// positions and rolls the key along them (one character in, one out), so a position costs one
// character read instead of k: the selection that follows reads the marks, not the text.
template <class ExecSpace>
std::uint64_t mark_key_range(const ExecSpace& space, const first_characters<ExecSpace>& key_of, std::uint64_t lo,
                             std::uint64_t hi, const array<std::uint32_t, ExecSpace>& flags) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = key_of.n, words = n / 32 + 1;
  const int width = key_of.k * key_of.bits;
  const std::uint64_t keep = width >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
  std::uint64_t count = 0;
  Kokkos::parallel_reduce(
      "strix::mark_key_range", policy(space, 0, std::int64_t(words)),
      KOKKOS_LAMBDA(const std::int64_t w, std::uint64_t& sum) {
        const std::uint64_t p0 = std::uint64_t(w) * 32;
        std::uint64_t key = p0 < n ? key_of(p0) : 0;
        std::uint32_t marks = 0;
        for (int t = 0; t < 32 && p0 + std::uint64_t(t) < n; ++t) {
          if (t > 0) {
            const std::uint64_t in = p0 + std::uint64_t(t) + std::uint64_t(key_of.k) - 1;
            key = ((key << key_of.bits) | (in < n ? std::uint64_t(key_of.rank_of(key_of.text(in))) : 0)) & keep;
          }
          if (key >= lo && (hi == 0 || key < hi)) marks |= std::uint32_t(1) << t;
        }
        flags(w) = marks;
        sum += std::uint64_t(strix::detail::popcount32(marks));
      },
      count);
  return count;
}

// How many positions `flags` marks (what mark_key_range returned when it marked them).
template <class ExecSpace>
std::uint64_t count_marks(const ExecSpace& space, const array<std::uint32_t, ExecSpace>& flags) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::uint64_t count = 0;
  Kokkos::parallel_reduce(
      "strix::count_marks", policy(space, 0, std::int64_t(flags.extent(0))),
      KOKKOS_LAMBDA(const std::int64_t w, std::uint64_t& sum) { sum += std::uint64_t(strix::detail::popcount32(flags(w))); },
      count);
  return count;
}

// Whether position j is marked (mark_key_range; the single-device pieces' predicate).
using strix::detail::marked;
inline constexpr const char* key_flags = "strix::key_flags";
inline std::uint64_t key_flag_words(std::uint64_t n) { return strix::detail::mark_words(n); }

// Whether unit j's position is marked (mark_key_range).
template <class ExecSpace, class Units>
struct unit_marked {
  marked<ExecSpace> flags;
  Units units;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t j) const { return flags(std::int64_t(units.position(std::uint64_t(j)))); }
};

// Every rank's range of keys: P + 1 bounds from the keys of `samples` of the n units spread
// over the text (the same on every rank: the text is), rank r taking [bounds[r], bounds[r + 1]);
// the last bound 0 stands for no upper bound. Equal keys fall in one range.
template <class ExecSpace, class Key>
std::vector<std::uint64_t> key_ranges(const ExecSpace& space, const Key& key_of, std::uint64_t n, int ranks) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::vector<std::uint64_t> bounds(std::size_t(ranks) + 1, 0);
  const std::uint64_t samples = std::min<std::uint64_t>(n, std::uint64_t(1) << 16);
  if (samples == 0) return bounds;
  auto picked = make_array<std::uint64_t, ExecSpace>("strix::key_samples", samples);
  Kokkos::parallel_for(
      "strix::key_samples", policy(space, 0, std::int64_t(samples)), KOKKOS_LAMBDA(const std::int64_t s) {
        // Position s of `samples` even strides, moved within its stride by a hash of s (a
        // periodic text would otherwise be sampled at one phase).
        const std::uint64_t lo = std::uint64_t(s) * n / samples, hi = (std::uint64_t(s) + 1) * n / samples;
        const std::uint64_t x = (std::uint64_t(s) + 1) * 0x9E3779B97F4A7C15ull;
        picked(s) = key_of(lo + (x >> 32) % (hi - lo));
      });
  auto host = strix::to_host(space, picked);
  std::vector<std::uint64_t> keys(host.data(), host.data() + samples);
  std::sort(keys.begin(), keys.end());
  for (int r = 1; r < ranks; ++r) bounds[r] = std::max(bounds[r - 1], keys[std::size_t(r) * samples / std::size_t(ranks)]);
  return bounds;
}

// What a rank did: rounds (all ranks alike) and suffixes it sorted over all of them (its share
// of the work: groups stay on the rank that holds them, so this shows the balance).
struct replicated_work {
  int rounds = 0;
  std::uint64_t sorted = 0;
};

// Rows [firsts[r], firsts[r] + counts[r]) of the suffix array, in order on rank r (this rank's:
// `mine`), moved to the rows each rank holds in the block layout (`sa`): contiguous ranges, so
// each goes to the ranks whose blocks it overlaps. `spare`: a free array of any size for the
// rows on their way.
template <class I, class ExecSpace>
void send_rows_to_blocks(const ExecSpace& space, const collective& c, const array<I, ExecSpace>& mine,
                         const std::vector<std::uint64_t>& firsts, const std::vector<std::uint64_t>& counts,
                         std::uint64_t n, const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                         const array<I, ExecSpace>& spare) {
  const layout rows = block_layout(n, c.size());
  const std::uint64_t m0 = mine.extent(0), first = firsts[std::size_t(c.rank())];
  const auto clamp = [](std::uint64_t x, std::uint64_t lo, std::uint64_t hi) { return std::min(std::max(x, lo), hi); };
  std::vector<std::uint64_t> send(std::size_t(c.size()) + 1), recv(std::size_t(c.size()) + 1, 0), at(std::size_t(c.size()));
  const std::uint64_t mine_lo = rows.begin(c.rank()), mine_hi = rows.end(c.rank());
  for (int r = 0; r <= c.size(); ++r) send[r] = clamp(r == c.size() ? n : rows.begin(r), first, first + m0) - first;
  for (int r = 0; r < c.size(); ++r) {
    const std::uint64_t lo = clamp(firsts[r], mine_lo, mine_hi), hi = clamp(firsts[r] + counts[r], mine_lo, mine_hi);
    recv[r + 1] = recv[r] + (hi - lo);
    at[r] = lo - mine_lo;
  }
  auto got = send_arrays(space, c, mine, send, recv, "strix::block_rows", spare);
  c.run([&] {
    using view = Kokkos::View<I*, typename ExecSpace::memory_space>;
    for (int r = 0; r < c.size(); ++r) {
      const std::uint64_t len = recv[r + 1] - recv[r];
      if (len == 0) continue;
      Kokkos::deep_copy(space, view(sa.data() + at[r], len), view(got.data() + recv[r], len));
    }
    space.fence();
  });
}
// Every rank's rows in order of rank (rank r's m0 after rank r - 1's).
template <class I, class ExecSpace>
void send_rows_to_blocks(const ExecSpace& space, const collective& c, const array<I, ExecSpace>& mine,
                         std::uint64_t n, const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                         const array<I, ExecSpace>& spare) {
  const layout keyed = c.gather_layout(mine.extent(0));
  std::vector<std::uint64_t> firsts(std::size_t(c.size())), counts(std::size_t(c.size()));
  for (int r = 0; r < c.size(); ++r) {
    firsts[r] = keyed.begin(r);
    counts[r] = keyed.size(r);
  }
  send_rows_to_blocks(space, c, mine, firsts, counts, n, sa, spare);
}

// Shared: this rank's rows [first, first + own.extent(0)) of the suffix array (its range of
// keys) from the final ranks of its own suffixes, moved to the rows it holds in the block
// layout (`sa`). `spare` and `spare_alt`: free arrays of m0 entries (or more) and of any size.
template <class I, class ExecSpace, class Ranks>
void place_own_rows(const ExecSpace& space, const collective& c, const array<I, ExecSpace>& own, std::uint64_t first,
                    const Ranks& isa, std::uint64_t n, const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                    const array<I, ExecSpace>& spare, const array<I, ExecSpace>& spare_alt) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t m0 = own.extent(0);
  const array<I, ExecSpace> mine(spare.data(), m0);
  c.run([&] {
    auto out = mine;
    auto o = own;
    Kokkos::parallel_for(
        "strix::shared_rows", policy(space, 0, std::int64_t(m0)), KOKKOS_LAMBDA(const std::int64_t j) {
          const std::uint64_t s = std::uint64_t(o(j));
          out(std::uint64_t(isa(s)) - first) = I(s);
        });
  });
  send_rows_to_blocks(space, c, mine, n, sa, spare_alt);
}

// The rank's suffixes expected in a text of n bytes over `ranks` ranks (the key ranges split
// a sample of 2^16 positions evenly), with room for the sample's error.
inline std::uint64_t expected_own_suffixes(std::uint64_t n, int ranks) {
  const std::uint64_t even = (n + std::uint64_t(ranks) - 1) / std::uint64_t(ranks);
  return std::min(n, even + even / 32 + 4096);
}

// The arrays of the replicated rounds on one rank, taken from the workspace's buffers (kept
// from call to call: none is freed inside the construction). `whole`: what is sized by the
// text alone (the text; the rank array unless Shared); `own`: what is sized by the rank's m0
// suffixes, with the primitives' scratch for them. reserve() takes both with an estimate of m0.
template <class I, bool Shared, class ExecSpace>
struct replicated_arrays {
  using index = array<I, ExecSpace>;
  using wide = array<std::uint64_t, ExecSpace>;
  using memory = typename ExecSpace::memory_space;
  array<std::uint8_t, ExecSpace> text;
  index isa;  // (not Shared) ISA; until the first round, the rank's selected suffixes
  index suf, suf_alt, pos, pos_alt, seg, seg_alt, offsets, offsets_alt, incoming, outgoing;
  index route_order;  // (routed) the round's pairs in part order
  wide keys, keys_alt;  // a round's keys: 64-bit, or the index type in their first half

  // (units: the entries of the rank array, n unless a sample is ranked)
  void take_whole(named_buffers& pool, std::uint64_t n, std::uint64_t units) {
    text = pool.take<std::uint8_t, memory>("strix::whole_text", n);
    if (!Shared) isa = pool.take<I, memory>("strix::replicated_isa", units);
    pool.take<std::uint32_t, memory>(key_flags, key_flag_words(n));  // (the selection's marks)
  }
  // (Shared) Changed ranks sent to the parts that hold them with 32-bit entries (faster than
  // storing them there from the scan: RESULTS §59); with 64-bit ones stored from the scan, as
  // their pairs would take another 56 bytes a suffix.
  static constexpr bool routed = Shared && sizeof(I) == 4;
  using changes =
      std::conditional_t<!Shared, strix::detail::changed_pairs<index>,
                         std::conditional_t<routed, strix::detail::routed_pairs<index>, strix::detail::changed_only<index>>>;
  using rank_view = std::conditional_t<Shared, split_ranks<I>, index>;
  using wide_scan = strix::detail::round_scan<wide, index, strix::detail::segment_marks<index>, changes, rank_view>;
  using narrow_scan = strix::detail::round_scan<index, index, strix::detail::segment_marks<index>, changes, rank_view>;

  // The arrays sized by the rank's m0 suffixes are carved from one buffer, so that before m0 is
  // known (round 0's selection) the same bytes can hold a scratch of up to n entries.
  static constexpr std::size_t align = 256;
  static std::size_t aligned(std::size_t bytes) { return (bytes + align - 1) / align * align; }
  static std::size_t own_block_bytes(std::uint64_t m0) {
    const std::size_t a = aligned(m0 * sizeof(I)), w = aligned(m0 * sizeof(std::uint64_t)),
                      o = aligned((m0 / 2 + 2) * sizeof(I)), out = !Shared && sizeof(I) > 4 ? aligned(2 * m0 * sizeof(I)) : 0;
    return 6 * a + 2 * w + 2 * o + out;  // suf, suf_alt, pos, pos_alt, seg, seg_alt; keys, keys_alt; offsets x2
  }
  static constexpr const char* own_block = "strix::own_arrays";
  // (Shared) The block's size for round 0, which selects the rank's suffixes into it: the own
  // arrays of the suffixes expected, and n entries at least.
  static std::size_t selection_block_bytes(std::uint64_t n, int ranks) {
    return std::max(own_block_bytes(expected_own_suffixes(n, ranks)), std::size_t(n) * sizeof(I));
  }
  // The workspace buffers the construction takes (the others are freed before it runs).
  static void keep_own_buffers(named_buffers& pool) {
    if (routed)
      pool.keep_only({"strix::whole_text", own_block, "strix::own_suffixes", "strix::route_order", "strix::routed_pairs", key_flags});
    else if (Shared) pool.keep_only({"strix::whole_text", own_block, "strix::own_suffixes", key_flags});
    else pool.keep_only({"strix::whole_text", "strix::replicated_isa", own_block, "strix::incoming_pairs", key_flags});
  }

  void take_own(const ExecSpace& space, named_buffers& pool, std::uint64_t n, int ranks, std::uint64_t m0) {
    auto block = pool.take<unsigned char, memory>(own_block, own_block_bytes(m0));
    std::size_t at = 0;
    const auto carve = [&](auto* type, std::uint64_t count) {
      using T = std::remove_pointer_t<decltype(type)>;
      array<T, ExecSpace> v(reinterpret_cast<T*>(block.data() + at), count);
      at += aligned(count * sizeof(T));
      return v;
    };
    suf = carve((I*)nullptr, m0);
    suf_alt = carve((I*)nullptr, m0);
    pos = carve((I*)nullptr, m0);
    pos_alt = carve((I*)nullptr, m0);
    seg = carve((I*)nullptr, m0);
    seg_alt = carve((I*)nullptr, m0);
    keys = carve((std::uint64_t*)nullptr, m0);
    keys_alt = carve((std::uint64_t*)nullptr, m0);
    offsets = carve((I*)nullptr, m0 / 2 + 2);
    offsets_alt = carve((I*)nullptr, m0 / 2 + 2);
    // Those a round sends go to a free key buffer where they fit (close_round).
    if (!Shared && sizeof(I) > 4) outgoing = carve((I*)nullptr, 2 * m0);
    STRIX_REQUIRE(at <= block.extent(0));
    // The pairs a round receives: the first round's (every other rank's suffixes; routed: every
    // position of the rank's part) are the most. (Routed pairs are sent from the key buffer the
    // round's scan has read.)
    if (!Shared) incoming = pool.take<I, memory>("strix::incoming_pairs", 2 * (n - m0));
    if (routed) {
      incoming = pool.take<I, memory>("strix::routed_pairs", 2 * part_block(n, ranks));
      route_order = pool.take<I, memory>("strix::route_order", m0);
    }
    auto& ws = pool.scratch<ExecSpace>();
    ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space, m0));
    ws.reserve(primitives::scan_scratch_bytes<wide_scan>(space, m0));
    ws.reserve(primitives::scan_scratch_bytes<narrow_scan>(space, m0));
    ws.reserve(primitives::segmented_sort_pairs_scratch_bytes<I, I, I>(space, m0, segmented_limit(m0)));
  }
  // Segment tables up to this many go to the segmented sort (whose scratch grows with them).
  static std::uint64_t segmented_limit(std::uint64_t m0) { return m0 / 16 + 1; }
};

// The characters' codes (code[b]: 1 + b's rank among the used bytes) on the device.
template <class ExecSpace>
array<std::uint16_t, ExecSpace> device_codes(const ExecSpace& space, const std::vector<std::uint64_t>& code) {
  auto codes = make_array<std::uint16_t, ExecSpace>("strix::codes", 256);
  // (Not a mirror: its zero fill is a host kernel that starts the host threads.)
  auto h = strix::detail::allocate<std::uint16_t, Kokkos::HostSpace>("strix::codes_host", 256);
  for (int b = 0; b < 256; ++b) h(b) = std::uint16_t(code[b]);
  strix::copy(space, codes, h);
  space.fence();  // h goes with this scope
  return codes;
}

// The whole construction from this rank's slice of the text (`positions`: every rank's) and
// the text's alphabet (code[b]: 1 + b's rank among the used bytes, `bits` a code); writes
// this rank's rows of the suffix array. Shared: the rank array split over the node's ranks
// (shared_ranks.hpp), else a copy on every rank. With cover_units (not Shared) it ranks the
// sample alone and writes no rows: the rank array ("strix::replicated_isa", one entry a unit),
// the whole text ("strix::whole_text") and the marks of this rank's text positions (key_flags,
// which cover_def.hpp's merge takes as they are when it orders its range in one piece) stay in
// the pool for cover_def.hpp. The ranges of keys are drawn from the text's positions, so a
// rank's share of the sample follows its share of the text: even where keys do not depend on
// position mod X, uneven where they do (fixed-width records of a multiple of X bytes).
template <class I, bool Shared, class ExecSpace, class Units = text_positions>
replicated_work replicated_rounds(const ExecSpace& space, named_buffers& pool, const collective& c,
                                  const text_view<ExecSpace>& slice, const layout& positions,
                                  const std::vector<std::uint64_t>& code, int bits,
                                  const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                                  strix::detail::phase_timer<ExecSpace>& timer, const Units& units = {}) {
  constexpr bool whole = std::is_same_v<Units, text_positions>;
  static_assert(whole || !Shared, "the sample is ranked with replicated ranks");
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index = array<I, ExecSpace>;
  using wide = array<std::uint64_t, ExecSpace>;
  using arrays_type = replicated_arrays<I, Shared, ExecSpace>;
  using changes = typename arrays_type::changes;
  using rank_view = typename arrays_type::rank_view;
  const std::uint64_t text_n = positions.total();
  const std::uint64_t n = units.count(text_n);  // the units ranked (below: suffixes)
  const int k = bits == 0 ? 1 : 64 / bits, key_bits = k * bits;
  auto& ws = pool.scratch<ExecSpace>();
  arrays_type a;

  // 1. The whole text on every rank, and its characters' codes.
  timer.begin("distributed_gather_text");
  c.run([&] {
    a.take_whole(pool, text_n, n);
    note_device_memory<ExecSpace>();
  });
  const array<std::uint8_t, ExecSpace> text = gather_arrays(
      space, c, array<std::uint8_t, ExecSpace>(const_cast<std::uint8_t*>(slice.data()), slice.extent(0)),
      positions.offsets, "strix::whole_text", a.text);
  array<std::uint16_t, ExecSpace> codes;
  c.run([&] { codes = device_codes(space, code); });

  // 2. This rank's suffixes: those whose first k characters fall in its range of keys (equal
  // prefixes stay on one rank), sorted by them.
  timer.begin("distributed_initial_keys");
  const unit_key<ExecSpace, Units> key_of{first_characters<ExecSpace>{text, codes, text_n, k, bits}, units};
  std::uint64_t m = 0;
  index own;                                // (Shared) this rank's suffixes, for its rows at the end
  const node_parts<ExecSpace>* parts = nullptr;  // (Shared) the rank array's parts, kept in the pool
  rank_view ranks{};                        // ISA: a.isa, or the parts
  if constexpr (Shared) {
    parts = &held_node_parts<ExecSpace>(pool, c, part_entries(n, c.size(), c.rank()) * sizeof(I));
    ranks = split_over<I>(*parts, n);
  }
  c.run([&] {
    // The text's positions in this rank's range of keys marked (a rolling key: one character
    // read a position), ranges of the text's keys in both cases: a sample's units are then
    // selected by their positions' marks, and the cover's merge takes the same ranges and
    // marks. (Its pieces cut each rank's range at the same bounds: key_ranges' bound r·G of
    // P·G ranges is bound r of P.)
    const auto bounds = key_ranges(space, key_of.key_of, text_n, c.size());
    const std::uint64_t lo = bounds[c.rank()], hi = bounds[c.rank() + 1];
    const marked<ExecSpace> flagged{pool.take<std::uint32_t, typename ExecSpace::memory_space>(key_flags, key_flag_words(text_n))};
    mark_key_range(space, key_of.key_of, lo, hi, flagged.flags);
    const auto select = [&](const index& into) {
      if constexpr (whole) return primitives::select_indices(space, ws, std::int64_t(n), flagged, strix::device_view<I, ExecSpace>(into));
      else
        return primitives::select_indices(space, ws, std::int64_t(n), unit_marked<ExecSpace, Units>{flagged, units},
                                          strix::device_view<I, ExecSpace>(into));
    };
    // The rank array holds the selected positions until the first round writes it. Shared has
    // none: its suffixes are selected into the (still free) block of its own arrays, which holds
    // n entries up to about 11 ranks (beyond, it is made that large), and copied out.
    index picked_buf = a.isa;
    if constexpr (Shared) {
      using memory = typename ExecSpace::memory_space;
      const std::size_t block_bytes = std::max(pool.capacity_bytes<memory>(arrays_type::own_block),
                                               arrays_type::selection_block_bytes(n, c.size()));
      const index scratch = pool.take<I, memory>(arrays_type::own_block, block_bytes / sizeof(I));
      m = select(scratch);
      own = pool.take<I, memory>("strix::own_suffixes", m);
      Kokkos::deep_copy(space, own, index(scratch.data(), m));
      picked_buf = own;
    } else {
      m = select(picked_buf);
    }
    if constexpr (!Shared) ranks = a.isa;
    space.fence();  // (Shared) the copy out of the block before the block's arrays are carved
    a.take_own(space, pool, n, c.size(), m);
    note_device_memory<ExecSpace>();
    auto picked = picked_buf;
    auto p = a.suf;
    auto key = a.keys;
    Kokkos::parallel_for(
        "strix::initial_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
          p(j) = picked(j);
          key(j) = key_of(std::uint64_t(picked(j)));
        });
  });
  index suf = a.suf, suf_alt = a.suf_alt;
  wide keys_buf = a.keys, keys_alt_buf = a.keys_alt;
  timer.begin("distributed_sort_local");
  c.run([&] {
    if (m <= 1) return;
    if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys_buf, keys_alt_buf, suf, suf_alt, 0, key_bits)) {
      std::swap(keys_buf, keys_alt_buf);
      std::swap(suf, suf_alt);
    }
  });

  timer.begin("distributed_initial_ranks");
  const std::uint64_t m0 = m, first = c.gather_layout(m).begin(c.rank());
  const std::uint64_t segmented_limit = arrays_type::segmented_limit(m0);
  index isa = a.isa, pos = a.pos, pos_alt = a.pos_alt, seg = a.seg, seg_alt = a.seg_alt, offsets = a.offsets,
        offsets_alt = a.offsets_alt, incoming = a.incoming, outgoing = a.outgoing;
  c.run([&] {
    auto p = pos;
    auto s = seg;
    Kokkos::parallel_for(
        "strix::initial_slots", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t k) {
          p(k) = I(first + std::uint64_t(k));  // the suffix's row in the global order
          s(k) = 0;                             // one old group
        });
  });
  // The closing scan of a round over the m sorted active suffixes (round_scan.hpp): ranks
  // into isa, survivors and their slots and segments into the alternates, then swapped in.
  std::uint64_t segments = 0, sorted = 0;
  bool first_round = true;
  // (Shared) every rank's device work done and seen by every other rank.
  const auto all_ranks_done = [&] {
    c.run([&] { space.fence(); });
    if (parts) parts->sync(c);
  };
  auto close_round = [&](const auto& sorted_keys) {
    using scan_type = strix::detail::round_scan<std::decay_t<decltype(sorted_keys)>, index,
                                                strix::detail::segment_marks<index>, changes, rank_view>;
    std::uint64_t kept = 0, changed = 0;
    // The changed pairs go to the key buffer the round's keys are not in where they fit (two
    // 32-bit entries a suffix in a 64-bit key's place), else to their own array.
    const index pairs = sizeof(I) > 4 ? outgoing
                      : index(reinterpret_cast<I*>(static_cast<const void*>(sorted_keys.data()) == keys_buf.data()
                                                       ? keys_alt_buf.data()
                                                       : keys_buf.data()),
                              2 * m0);
    // Every rank's reads of this round's ranks (its keys) done before anyone writes.
    if constexpr (Shared) all_ranks_done();
    c.run([&] {
      segments = 0;
      if (m == 0) return;
      changes recorded{};
      if constexpr (arrays_type::routed) recorded = changes{{seg, offsets, pairs, first_round}};
      else if constexpr (Shared) recorded = changes{seg, offsets, first_round};
      else recorded = changes{seg, offsets, pairs, first_round};
      scan_type scan{sorted_keys, {seg, seg_alt}, pos, suf, ranks, pos_alt, suf_alt, offsets_alt, std::int64_t(m), false,
                     recorded};
      typename scan_type::value_type totals{};
      primitives::scan(space, ws, "strix::replicated_refine", scan, std::int64_t(m), totals);
      segments = std::uint64_t(totals.segments);
      kept = std::uint64_t(totals.kept);
      if constexpr (changes::records) changed = std::uint64_t(totals.changed);
    });
    if constexpr (Shared) {
      if constexpr (arrays_type::routed) {
        // Sent from the key buffer the scan read.
        const index send(reinterpret_cast<I*>(const_cast<void*>(static_cast<const void*>(sorted_keys.data()))), 2 * m0);
        route_rank_updates(space, ws, c, pairs, changed, a.route_order, send, incoming, n,
                           static_cast<I*>(parts->parts()[std::size_t(c.rank())]), timer);
      }
      (void)changed;     // (64-bit: none recorded)
      all_ranks_done();  // every rank's new ranks stored before anyone reads them
    } else {
      share_rank_updates(space, c, pairs, changed, isa, incoming, timer);
    }
    first_round = false;
    std::swap(suf, suf_alt);
    std::swap(pos, pos_alt);
    std::swap(seg, seg_alt);
    std::swap(offsets, offsets_alt);
    sorted += m;
    m = kept;
  };
  close_round(wide(keys_buf.data(), m));

  // 3. Rounds, sorting by (segment, ISA[s + h] + 1) the way the single-device prefix doubling
  // does: one radix sort of composite keys in the index type where they fit, else CUB's
  // segmented sort of the ranks alone where every segment is small, else composite keys in
  // 64 bits, else (texts past 2^32 bytes with many groups) a stable sort by rank then one by
  // segment.
  const int rank_bits = bits_for(n);
  std::uint64_t covered = std::uint64_t(k);  // characters the ranks tell apart
  // STRIX_DISTRIBUTED_KEY_BITS: a lower limit than 64 for one sort (tests only: the two-sort path).
  int key_limit = 64;
  if (const char* set = std::getenv("STRIX_DISTRIBUTED_KEY_BITS")) key_limit = std::max(1, std::min(64, std::atoi(set)));
  int rounds = 0;
  for (;;) {
    const std::uint64_t left = c.sum<std::uint64_t>(m);
    if (left == 0) break;
    STRIX_REQUIRE(rounds < 64);
    ++rounds;
    timer.begin("distributed_gather_ranks");
    const int segment_bits = bits_for(segments > 0 ? segments - 1 : 0);
    const int composite_bits = rank_bits + segment_bits;
    std::uint64_t largest = 0;
    if (m > 0 && composite_bits > int(8 * sizeof(I))) {
      auto o = offsets;
      Kokkos::parallel_reduce(
          "strix::replicated_largest_segment", policy(space, 0, std::int64_t(segments)),
          KOKKOS_LAMBDA(const std::int64_t g, std::uint64_t& mx) {
            const std::uint64_t len = std::uint64_t(o(g + 1)) - std::uint64_t(o(g));
            if (len > mx) mx = len;
          },
          Kokkos::Max<std::uint64_t>(largest));
    }
    enum class strategy { narrow, segmented, wide, two_sorts };
    const strategy how = composite_bits <= int(8 * sizeof(I))                         ? strategy::narrow
                         : (largest <= 2048 && segments <= segmented_limit)           ? strategy::segmented
                         : composite_bits <= key_limit                                ? strategy::wide
                                                                                      : strategy::two_sorts;
    const bool with_segment = how == strategy::narrow || how == strategy::wide;
    const std::uint64_t step = units.step(covered);  // characters, and in units:
    const std::uint64_t shift = std::uint64_t(rank_bits), hh = units.shift(step);
    auto s = suf;
    auto g = seg;
    auto r = ranks;
    wide keys(keys_buf.data(), m), keys_alt(keys_alt_buf.data(), m);
    index nkeys(reinterpret_cast<I*>(keys_buf.data()), m), nkeys_alt(reinterpret_cast<I*>(keys_alt_buf.data()), m);
    c.run([&] {
      if (how == strategy::narrow || how == strategy::segmented) {
        auto k = nkeys;
        Kokkos::parallel_for(
            "strix::replicated_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
              const std::uint64_t p = std::uint64_t(s(j)) + hh;
              const std::uint64_t rank = p < n ? std::uint64_t(r(p)) + 1 : 0;
              k(j) = I(with_segment ? (std::uint64_t(g(j)) << shift) | rank : rank);
            });
      } else {
        auto k = keys;
        Kokkos::parallel_for(
            "strix::replicated_wide_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
              const std::uint64_t p = std::uint64_t(s(j)) + hh;
              const std::uint64_t rank = p < n ? std::uint64_t(r(p)) + 1 : 0;
              k(j) = with_segment ? (std::uint64_t(g(j)) << shift) | rank : rank;
            });
      }
    });
    timer.begin("distributed_sort_local");
    bool keys_in_alt = false;
    c.run([&] {
      if (m == 0) return;
      index vals = suf, vals_alt(suf_alt.data(), m);
      if (how == strategy::narrow) {
        keys_in_alt = primitives::radix_sort_pairs<I, I>(space, ws, nkeys, nkeys_alt, vals, vals_alt, 0, composite_bits);
      } else if (how == strategy::segmented) {
        const strix::device_view<const I, ExecSpace> table(offsets.data(), segments + 1);
        keys_in_alt = primitives::segmented_sort_pairs<I, I, I>(space, ws, nkeys, nkeys_alt, vals, vals_alt, table,
                                                                segments, rank_bits);
      } else if (how == strategy::wide) {
        keys_in_alt = primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys, keys_alt, vals, vals_alt, 0,
                                                                     composite_bits);
      }
      if (keys_in_alt) std::swap(vals, vals_alt);  // the suffixes ended beside their keys
      if (how == strategy::two_sorts) {
        // By rank (the order of the suffixes' indices), then stably by segment.
        index order = make_array<I, ExecSpace>("strix::replicated_order", m);
        index order_alt = make_array<I, ExecSpace>("strix::replicated_order_alt", m);
        Kokkos::parallel_for("strix::replicated_iota", policy(space, 0, std::int64_t(m)),
                             KOKKOS_LAMBDA(const std::int64_t j) { order(j) = I(j); });
        wide k1 = keys, k1_alt = keys_alt;
        if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, k1, k1_alt, order, order_alt, 0, rank_bits)) {
          std::swap(k1, k1_alt);
          std::swap(order, order_alt);
        }
        auto o = order;
        auto v = suf_alt;
        Kokkos::parallel_for(
            "strix::replicated_by_segment", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
              k1_alt(j) = std::uint64_t(g(o(j)));
              v(j) = s(o(j));
            });
        vals = suf_alt;
        vals_alt = index(suf.data(), m);
        wide k2 = k1_alt, k2_alt = k1;
        if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, k2, k2_alt, vals, vals_alt, 0, segment_bits))
          std::swap(vals, vals_alt);
        // The scan's keys: the ranks alone (its marks see the groups), in the final order.
        auto k = keys;
        auto sorted_suf = vals;
        Kokkos::parallel_for(
            "strix::replicated_rank_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
              const std::uint64_t p = std::uint64_t(sorted_suf(j)) + hh;
              k(j) = p < n ? std::uint64_t(r(p)) + 1 : 0;
            });
      }
      if (vals.data() != suf.data()) std::swap(suf, suf_alt);
    });
    timer.begin("distributed_split_groups");
    if (how == strategy::narrow || how == strategy::segmented) close_round(keys_in_alt ? nkeys_alt : nkeys);
    else close_round(keys_in_alt ? keys_alt : keys);
    covered += step;
  }
  if constexpr (!whole) {
    c.run([&] { space.fence(); });
    return {rounds + 1, sorted};
  }
  // 4. Every rank holds the inverse suffix array: its own rows, with no exchange (Shared:
  // its key range's rows, moved to the block layout).
  timer.begin("distributed_place");
  if constexpr (Shared) {
    // (The slots and the keys are free now: a key buffer holds 8 m0 bytes.)
    place_own_rows(space, c, own, first, ranks, n, sa, a.pos,
                   index(reinterpret_cast<I*>(a.keys.data()), a.keys.extent(0) * sizeof(std::uint64_t) / sizeof(I)));
    return {rounds + 1, sorted};
  }
  c.run([&] {
    const layout rows = block_layout(n, c.size());
    const std::uint64_t begin = rows.begin(c.rank()), end = rows.end(c.rank());
    auto out = sa;
    auto r = isa;
    Kokkos::parallel_for(
        "strix::replicated_rows", policy(space, 0, std::int64_t(n)), KOKKOS_LAMBDA(const std::int64_t s) {
          const std::uint64_t row = r(s);
          if (row >= begin && row < end) out(row - begin) = I(s);
        });
    space.fence();
  });
  return {rounds + 1, sorted};
}

}  // namespace strix::distributed::detail
