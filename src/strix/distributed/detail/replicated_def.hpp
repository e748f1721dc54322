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
// whose rank changed on any rank: 2n in the first round), and about 40 bytes for each of its
// own active suffixes (measured: ~100 bytes per slice byte on 2 GPUs, RESULTS §45).
// Exchanged: 2 sizeof(I) bytes per changed rank and round, to every other rank.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <type_traits>
#include <utility>

#include <strix/distributed/detail/sample_sort.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/sa/detail/doubling/round_scan.hpp>

namespace strix::distributed::detail {

// The suffixes of a round whose rank changed, packed with their new ranks as pairs of
// index-type entries (suffix, rank) in one array: after the round's scan, isa(suf(k)) is the
// new head; the old one is the slot of the first element of k's old group,
// pos(old_offsets(seg(k))). (A group that did not split keeps its head: in the long rounds of
// repetitive texts most do.) Every suffix counts in the first round.
template <class I, class ExecSpace>
struct changed_ranks {
  using value_type = std::uint64_t;
  array<I, ExecSpace> suf, isa, seg, pos, old_offsets, pairs;
  bool all;
  KOKKOS_INLINE_FUNCTION bool changed(const std::int64_t k) const {
    return all || isa(suf(k)) != pos(old_offsets(seg(k)));
  }
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& upd, const bool final) const {
    if (!changed(k)) return;
    if (final) {
      pairs(2 * upd) = suf(k);
      pairs(2 * upd + 1) = isa(suf(k));
    }
    upd += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const { dst += src; }
  // Kokkos 3.x reduces through volatile references.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const { dst += src; }
};

// Sends the ranks this rank changed this round to every rank (one all-gather of the packed
// pairs into `incoming`, sized once for the first round's n pairs), and stores everybody's
// into `isa` (the scan's arrays as changed_ranks reads them).
template <class I, class ExecSpace>
void share_rank_updates(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c,
                        changed_ranks<I, ExecSpace> pack, std::uint64_t m, const array<I, ExecSpace>& incoming) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::uint64_t count = 0;
  c.run([&] {
    pack.pairs = make_array<I, ExecSpace>("strix::update_pairs", 2 * m);
    ws.reserve(primitives::scan_scratch_bytes<changed_ranks<I, ExecSpace>>(space, m));
    primitives::scan(space, ws, "strix::update_pack", pack, std::int64_t(m), count);
  });
  const layout from = c.gather_layout(2 * count);
  auto got = gather_arrays(space, c, array<I, ExecSpace>(pack.pairs.data(), 2 * count), from.offsets,
                           "strix::got_pairs", incoming);
  c.run([&] {
    const std::uint64_t mine = from.begin(c.rank()) / 2, mine_end = from.end(c.rank()) / 2;
    auto isa = pack.isa;
    Kokkos::parallel_for(
        "strix::update_store", policy(space, 0, std::int64_t(got.extent(0) / 2)), KOKKOS_LAMBDA(const std::int64_t j) {
          if (std::uint64_t(j) < mine || std::uint64_t(j) >= mine_end) isa(got(2 * j)) = got(2 * j + 1);
        });
  });
}

// What a rank did: rounds (all ranks alike) and suffixes it sorted over all of them (its share
// of the work: groups stay on the rank that holds them, so this shows the balance).
struct replicated_work {
  int rounds = 0;
  std::uint64_t sorted = 0;
};

// The rounds after the initial batch (pos, key of every local suffix; rank unused) is built;
// writes this rank's rows of the suffix array.
template <class I, class ExecSpace>
replicated_work replicated_rounds(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const collective& c,
                      std::uint64_t n, suffix_batch<I, ExecSpace> batch, int key_bits, std::uint64_t h,
                      const Kokkos::View<I*, typename ExecSpace::memory_space>& sa,
                      strix::detail::phase_timer<ExecSpace>& timer) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index = array<I, ExecSpace>;
  using wide = array<std::uint64_t, ExecSpace>;
  using wide_scan = strix::detail::round_scan<wide, index, strix::detail::segment_marks<index>>;
  using narrow_scan = strix::detail::round_scan<index, index, strix::detail::segment_marks<index>>;

  // 1. One global sort of the first k characters; equal prefixes stay on one rank.
  sample_sort(space, ws, c, batch, 0, key_bits, timer, true);
  timer.begin("distributed_initial_ranks");
  std::uint64_t m = batch.size();
  const std::uint64_t m0 = m, first = c.gather_layout(m).begin(c.rank());
  // Segment tables up to this many go to the segmented sort (whose scratch grows with them).
  const std::uint64_t segmented_limit = m0 / 16 + 1;
  index isa, suf, suf_alt, pos, pos_alt, seg, seg_alt, offsets, offsets_alt, incoming;
  wide keys_buf, keys_alt_buf;  // a round's keys: 64-bit, or the index type in their first half
  c.run([&] {
    isa = make_array<I, ExecSpace>("strix::replicated_isa", n);
    incoming = make_array<I, ExecSpace>("strix::incoming_pairs", 2 * n);  // the first round's, the most
    suf = batch.pos;
    keys_buf = batch.key;
    batch = suffix_batch<I, ExecSpace>();
    keys_alt_buf = make_array<std::uint64_t, ExecSpace>("strix::round_keys_alt", m);
    suf_alt = make_array<I, ExecSpace>("strix::suffixes_alt", m);
    pos = make_array<I, ExecSpace>("strix::slots", m);
    pos_alt = make_array<I, ExecSpace>("strix::slots_alt", m);
    seg = make_array<I, ExecSpace>("strix::segments", m);
    seg_alt = make_array<I, ExecSpace>("strix::segments_alt", m);
    offsets = make_array<I, ExecSpace>("strix::segment_offsets", m / 2 + 2);
    offsets_alt = make_array<I, ExecSpace>("strix::segment_offsets_alt", m / 2 + 2);
    auto p = pos;
    auto s = seg;
    Kokkos::parallel_for(
        "strix::initial_slots", policy(space, 0, std::int64_t(m)), KOKKOS_LAMBDA(const std::int64_t k) {
          p(k) = I(first + std::uint64_t(k));  // the suffix's row in the global order
          s(k) = 0;                             // one old group
        });
    ws.reserve(primitives::scan_scratch_bytes<wide_scan>(space, m));
    ws.reserve(primitives::scan_scratch_bytes<narrow_scan>(space, m));
    ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space, m));
    ws.reserve(primitives::segmented_sort_pairs_scratch_bytes<I, I, I>(space, m, segmented_limit));
  });
  // The closing scan of a round over the m sorted active suffixes (round_scan.hpp): ranks
  // into isa, survivors and their slots and segments into the alternates, then swapped in.
  std::uint64_t segments = 0, sorted = 0;
  bool first_round = true;
  auto close_round = [&](const auto& sorted_keys) {
    using scan_type = strix::detail::round_scan<std::decay_t<decltype(sorted_keys)>, index,
                                                strix::detail::segment_marks<index>>;
    std::uint64_t kept = 0;
    c.run([&] {
      segments = 0;
      if (m == 0) return;
      scan_type scan{sorted_keys, {seg, seg_alt}, pos, suf, isa, pos_alt, suf_alt, offsets_alt, std::int64_t(m), false};
      typename scan_type::value_type totals{};
      primitives::scan(space, ws, "strix::replicated_refine", scan, std::int64_t(m), totals);
      segments = std::uint64_t(totals.segments);
      kept = std::uint64_t(totals.kept);
    });
    timer.begin("distributed_share_ranks");
    share_rank_updates(space, ws, c, changed_ranks<I, ExecSpace>{suf, isa, seg, pos, offsets, {}, first_round}, m,
                       incoming);
    first_round = false;
    std::swap(suf, suf_alt);
    std::swap(pos, pos_alt);
    std::swap(seg, seg_alt);
    std::swap(offsets, offsets_alt);
    sorted += m;
    m = kept;
  };
  close_round(wide(keys_buf.data(), m));

  // 2. Rounds, sorting by (segment, ISA[s + h] + 1) the way the single-device prefix doubling
  // does: one radix sort of composite keys in the index type where they fit, else CUB's
  // segmented sort of the ranks alone where every segment is small, else composite keys in
  // 64 bits, else (texts past 2^32 bytes with many groups) a stable sort by rank then one by
  // segment.
  const int rank_bits = bits_for(n);
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
    const std::uint64_t shift = std::uint64_t(rank_bits), hh = h;
    auto s = suf;
    auto g = seg;
    auto r = isa;
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
  return {rounds + 1, sorted};
}

}  // namespace strix::distributed::detail
