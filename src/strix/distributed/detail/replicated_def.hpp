// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The distributed suffix array with replicated ranks, for texts whose rank array fits every
// device (suffix_array_def.hpp picks it; STRIX_DISTRIBUTED_ALGORITHM=replicated|partitioned
// asks): after one global sort of the first k characters, whose splitters keep equal
// prefixes on one rank, every rank owns whole groups and refines them by prefix doubling as
// the single-device construction does (prefix_doubling.hpp: group-head ranks, suffixes of
// unsorted groups re-sorted inside their group by ISA[s + h], singletons dropped), reading
// ISA[s + h] from its own copy of the whole rank array. After each round every rank sends
// the ranks it changed to all others (an all-gather of (suffix, rank) pairs); no request
// ever crosses ranks. At the end every rank holds the inverse suffix array and writes its
// own rows with no exchange.
//
// Per rank: the rank array (n entries of I), the round's incoming pairs (2 entries a suffix
// active on any rank: 2n in the first round), and about 40 bytes for each of its own active
// suffixes. Exchanged: 2 sizeof(I) bytes per active suffix and round, to every other rank.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include <strix/distributed/detail/sample_sort.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/sa/detail/doubling/round_scan.hpp>

namespace strix::distributed::detail {

// Sends the ranks this rank changed (isa(suf(k)) for its m active suffixes) to every rank,
// and stores everybody's into `isa`.
template <class I, class ExecSpace>
void share_rank_updates(const ExecSpace& space, const collective& c, const array<I, ExecSpace>& suf, std::uint64_t m,
                        const array<I, ExecSpace>& isa) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  array<I, ExecSpace> who, value;
  c.run([&] {
    who = make_array<I, ExecSpace>("strix::update_suffixes", m);
    value = make_array<I, ExecSpace>("strix::update_ranks", m);
    Kokkos::parallel_for(
        "strix::update_pack", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t k) {
          who(k) = suf(k);
          value(k) = isa(suf(k));
        });
  });
  const layout from = c.gather_layout(m);
  auto got_who = gather_arrays(space, c, who, from.offsets, "strix::got_suffixes");
  who = array<I, ExecSpace>();
  auto got_value = gather_arrays(space, c, value, from.offsets, "strix::got_ranks");
  value = array<I, ExecSpace>();
  c.run([&] {
    const std::uint64_t mine = from.begin(c.rank()), mine_end = from.end(c.rank());
    Kokkos::parallel_for(
        "strix::update_store", policy(space, 0, std::int64_t(got_who.extent(0))), KOKKOS_LAMBDA(const std::int64_t j) {
          if (std::uint64_t(j) < mine || std::uint64_t(j) >= mine_end) isa(got_who(j)) = got_value(j);
        });
  });
}

// The rounds after the initial batch (pos, key of every local suffix; rank unused) is built;
// writes this rank's rows of the suffix array. Returns the number of rounds.
template <class I, class ExecSpace>
int replicated_rounds(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c,
                      std::uint64_t n, suffix_batch<I, ExecSpace> batch, int key_bits, std::uint64_t h,
                      const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                      strix::detail::phase_timer<ExecSpace>& timer) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index = array<I, ExecSpace>;
  using wide = array<std::uint64_t, ExecSpace>;
  using scan_type = strix::detail::round_scan<wide, index, strix::detail::segment_marks<index>>;

  // 1. One global sort of the first k characters; equal prefixes stay on one rank.
  sample_sort(space, ws, c, batch, 0, key_bits, timer, true);
  timer.begin("distributed_initial_ranks");
  std::uint64_t m = batch.size();
  const std::uint64_t first = c.gather_layout(m).begin(c.rank());
  index isa, suf, suf_alt, pos, pos_alt, seg, seg_alt, offsets;
  wide keys, keys_alt;
  c.run([&] {
    isa = make_array<I, ExecSpace>("strix::replicated_isa", n);
    suf = batch.pos;
    keys = batch.key;
    batch = suffix_batch<I, ExecSpace>();
    suf_alt = make_array<I, ExecSpace>("strix::suffixes_alt", m);
    pos = make_array<I, ExecSpace>("strix::slots", m);
    pos_alt = make_array<I, ExecSpace>("strix::slots_alt", m);
    seg = make_array<I, ExecSpace>("strix::segments", m);
    seg_alt = make_array<I, ExecSpace>("strix::segments_alt", m);
    offsets = make_array<I, ExecSpace>("strix::segment_offsets", m / 2 + 2);
    auto p = pos;
    auto s = seg;
    Kokkos::parallel_for(
        "strix::initial_slots", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t k) {
          p(k) = I(first + std::uint64_t(k));  // the suffix's row in the global order
          s(k) = 0;                             // one old group
        });
    ws.reserve(primitives::scan_scratch_bytes<scan_type>(space, m));
    ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space, m));
  });
  // The closing scan of a round over the m sorted active suffixes (round_scan.hpp): ranks
  // into isa, survivors and their slots and segments into the alternates, then swapped in.
  std::uint64_t segments = 0;
  auto close_round = [&](const wide& sorted_keys) {
    std::uint64_t kept = 0;
    c.run([&] {
      segments = 0;
      if (m == 0) return;
      scan_type scan{sorted_keys, {seg, seg_alt}, pos, suf, isa, pos_alt, suf_alt, offsets, std::int64_t(m), false};
      typename scan_type::value_type totals{};
      primitives::scan(space, ws, "strix::replicated_refine", scan, std::int64_t(m), totals);
      segments = std::uint64_t(totals.segments);
      kept = std::uint64_t(totals.kept);
    });
    timer.begin("distributed_share_ranks");
    share_rank_updates(space, c, suf, m, isa);  // every suffix active this round got its rank
    std::swap(suf, suf_alt);
    std::swap(pos, pos_alt);
    std::swap(seg, seg_alt);
    m = kept;
  };
  close_round(keys);

  // 2. Rounds: (segment, ISA[s + h] + 1) keys, one radix sort (two where they pass 64 bits).
  const int rank_bits = bits_for(n);
  // Keys of up to 64 bits go in one sort (STRIX_DISTRIBUTED_KEY_BITS: fewer, tests only).
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
    const bool composite = rank_bits + segment_bits <= key_limit;
    c.run([&] {
      keys = make_array<std::uint64_t, ExecSpace>("strix::round_keys", m);
      keys_alt = make_array<std::uint64_t, ExecSpace>("strix::round_keys_alt", m);
      auto k = keys;
      auto s = suf;
      auto g = seg;
      auto r = isa;
      const std::uint64_t shift = std::uint64_t(rank_bits), hh = h;
      Kokkos::parallel_for(
          "strix::replicated_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
            const std::uint64_t p = std::uint64_t(s(j)) + hh;
            const std::uint64_t rank = p < n ? std::uint64_t(r(p)) + 1 : 0;
            k(j) = composite ? (std::uint64_t(g(j)) << shift) | rank : rank;
          });
    });
    timer.begin("distributed_sort_local");
    c.run([&] {
      if (m == 0) return;
      if (composite) {
        index vals = suf, vals_alt(suf_alt.data(), m);
        if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys, keys_alt, vals, vals_alt, 0,
                                                           rank_bits + segment_bits)) {
          std::swap(keys, keys_alt);
          std::swap(vals, vals_alt);
        }
        if (vals.data() != suf.data()) std::swap(suf, suf_alt);
        return;
      }
      // Beyond 64 bits (texts past 2^32 bytes with many groups): a stable sort by rank, then
      // one by segment; the scan's keys are then the ranks alone (its marks see the groups).
      index order = make_array<I, ExecSpace>("strix::replicated_order", m);
      index order_alt = make_array<I, ExecSpace>("strix::replicated_order_alt", m);
      Kokkos::parallel_for("strix::replicated_iota", policy(space, 0, std::int64_t(m)),
                           KOKKOS_LAMBDA(const std::int64_t j) { order(j) = I(j); });
      if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys, keys_alt, order, order_alt, 0, rank_bits)) {
        std::swap(keys, keys_alt);
        std::swap(order, order_alt);
      }
      auto k = keys;
      auto g = seg;
      auto s = suf;
      auto v = suf_alt;
      auto o = order;
      Kokkos::parallel_for(
          "strix::replicated_by_segment", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
            k(j) = std::uint64_t(g(o(j)));
            v(j) = s(o(j));
          });
      index vals = suf_alt, vals_alt(suf.data(), m);
      if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, keys, keys_alt, vals, vals_alt, 0, segment_bits)) {
        std::swap(keys, keys_alt);
        std::swap(vals, vals_alt);
      }
      if (vals.data() != suf.data()) std::swap(suf, suf_alt);
      auto kk = keys;
      auto ss = suf;
      auto r = isa;
      const std::uint64_t hh = h;
      Kokkos::parallel_for(
          "strix::replicated_rank_keys", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t j) {
            const std::uint64_t p = std::uint64_t(ss(j)) + hh;
            kk(j) = p < n ? std::uint64_t(r(p)) + 1 : 0;
          });
    });
    timer.begin("distributed_split_groups");
    close_round(keys);
    keys = wide();
    keys_alt = wide();
    h *= 2;
  }
  // 3. Every rank holds the inverse suffix array: its own rows, with no exchange.
  timer.begin("distributed_place");
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
  return rounds + 1;
}

}  // namespace strix::distributed::detail
