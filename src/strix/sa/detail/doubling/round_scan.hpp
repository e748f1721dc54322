// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The one scan that closes a suffix-sorting round, shared by prefix doubling and
// Larsson–Sadakane (the paper's "update ISA" and "split groups"). Over the active suffixes,
// sorted by `keys` inside their old groups, it finds where new groups start (an old group
// starts there, or the key changes), and in its final pass
//   - writes ISA[s] = slot of the first suffix of s's new group (a running maximum: the
//     segmented scan of the group heads),
//   - drops suffixes whose new group is a singleton (they are sorted for good),
//   - copies the others with their slots to the output buffers, marks their groups for the
//     next round, and records where each surviving group starts among them.
// Fusing these steps reads the round's arrays once instead of four times. The two
// algorithms differ only in how a group is marked (Marks, below).
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix::detail {

// Prefix doubling: the old groups are numbered (segments); survivors get their new number.
template <class IndexView>
struct segment_marks {
  using I = typename IndexView::non_const_value_type;
  IndexView seg, seg_out;
  KOKKOS_INLINE_FUNCTION bool old_group_starts(const std::int64_t k) const { return seg(k) != seg(k - 1); }
  KOKKOS_INLINE_FUNCTION void mark(const I dst, const bool head, const I segments) const {
    seg_out(dst) = head ? segments : static_cast<I>(segments - 1);
  }
};

// Larsson–Sadakane: the first suffix of each old group is flagged; survivors keep a flag.
template <class FlagView>
struct start_flags {
  FlagView flag, flag_out;
  KOKKOS_INLINE_FUNCTION bool old_group_starts(const std::int64_t k) const { return flag(k) != 0; }
  template <class I>
  KOKKOS_INLINE_FUNCTION void mark(const I dst, const bool head, const I) const {
    flag_out(dst) = head ? 1 : 0;
  }
};

// What the scan does with the suffixes whose rank changes: nothing (one device: every active
// suffix's rank is stored), changed_pairs below (the replicated distributed construction
// sends them to other ranks), routed_pairs (the shared-rank one sends them to the ranks
// that store them) or changed_only (the shared-rank one with 64-bit entries stores only those,
// many into another GPU's memory).
struct no_changes {
  static constexpr bool records = false;
  struct count {};  // empty: the scan's value keeps its size (an empty base takes no space)
  template <class KeyView>
  KOKKOS_INLINE_FUNCTION constexpr bool stores(const KeyView&, const std::int64_t) const {
    return true;
  }
};

// Writes (suffix, new rank) for every suffix whose rank changes into `pairs`, in order; their
// number is the scan's total `changed`. A suffix keeps its rank where it stays in the first
// new group of its old group, whose key is that of the old group's first element
// (old_offsets: where each old group starts, by its number in seg). `all`: every suffix
// counts (the first round, when no rank was known before).
template <class IndexView>
struct changed_pairs {
  using I = typename IndexView::non_const_value_type;
  static constexpr bool records = true;
  struct count {
    I changed;
  };
  IndexView seg, old_offsets, pairs;
  bool all;
  template <class KeyView>
  KOKKOS_INLINE_FUNCTION bool changes(const KeyView& keys, const std::int64_t k) const {
    return all || keys(k) != keys(old_offsets(seg(k)));
  }
  template <class KeyView>
  KOKKOS_INLINE_FUNCTION constexpr bool stores(const KeyView&, const std::int64_t) const {
    return true;
  }
};

// Stores only the ranks that change (the same test as changed_pairs'; records nothing): the
// others hold their rank already (the shared-rank construction with 64-bit entries, whose
// pairs would cost more memory than their stores into other GPUs' memory cost time).
template <class IndexView>
struct changed_only {
  static constexpr bool records = false;
  struct count {};
  IndexView seg, old_offsets;
  bool all;
  template <class KeyView>
  KOKKOS_INLINE_FUNCTION bool stores(const KeyView& keys, const std::int64_t k) const {
    return all || keys(k) != keys(old_offsets(seg(k)));
  }
};

// Records as changed_pairs and stores nothing: the shared-rank distributed construction sends
// the pairs to the ranks whose parts of the rank array hold the suffixes, which store them
// (cheaper than storing into another GPU's memory from the scan: bench/RESULTS.md §59).
template <class IndexView>
struct routed_pairs : changed_pairs<IndexView> {
  template <class KeyView>
  KOKKOS_INLINE_FUNCTION constexpr bool stores(const KeyView&, const std::int64_t) const {
    return false;
  }
};

// Where a suffix that becomes a singleton writes its BWT symbol when the construction makes the
// BWT as it sorts (doubling_engine::build_bwt): out[slot] = T[s - 1], and suffix 0's slot into
// zero_slot(0) (divbwt's layout needs the rows before it moved by one: done after the last
// round). Off (no output) when a suffix array is built.
template <class IndexView>
struct singleton_symbols {
  using I = typename IndexView::non_const_value_type;
  using memory_space = typename IndexView::memory_space;
  Kokkos::View<const std::uint8_t*, memory_space, Kokkos::MemoryUnmanaged> text;
  Kokkos::View<std::uint8_t*, memory_space, Kokkos::MemoryUnmanaged> out;
  Kokkos::View<I*, memory_space, Kokkos::MemoryUnmanaged> zero_slot;
  KOKKOS_INLINE_FUNCTION bool on() const { return out.data() != nullptr; }
  KOKKOS_INLINE_FUNCTION void write(const I slot, const I s) const {
    if (s == 0) zero_slot(0) = slot;
    else out(slot) = text(s - 1);
  }
};

// RankView: where ISA lives (a view; the shared-rank distributed construction passes its rank
// array split over the node's ranks, distributed/detail/shared_ranks.hpp).
template <class KeyView, class IndexView, class Marks, class Changes = no_changes, class RankView = IndexView>
struct round_scan {
  using I = typename IndexView::non_const_value_type;
  struct value_type : Changes::count {
    I head;      // slot of the latest group start (max-scan)
    I kept;      // survivors so far (sum-scan)
    I segments;  // surviving groups so far (sum-scan)
  };

  KeyView keys;
  Marks marks;
  IndexView pos, suf;
  RankView isa;
  IndexView pos_out, suf_out, offsets;
  std::int64_t m;
  bool initial;  // first round: one old group, slot == index, `marks` and `pos` unused
  Changes changes{};
  singleton_symbols<IndexView> singles{};
  // Set: every element's new rank goes to heads(k), in scan order, and the caller stores them
  // into isa afterwards (bucketed_store.hpp: grouped by target, where one random store per
  // element into an ISA far larger than the GPU's L2 costs a DRAM sector each). Empty: the
  // scan stores them itself.
  IndexView heads{};

  KOKKOS_INLINE_FUNCTION bool starts_group(const std::int64_t k) const {
    if (k == 0 || keys(k) != keys(k - 1)) return true;
    return !initial && marks.old_group_starts(k);
  }
  KOKKOS_INLINE_FUNCTION I slot(const std::int64_t k) const { return initial ? static_cast<I>(k) : pos(k); }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& upd, const bool final) const {
    const bool head = starts_group(k);
    const bool single = head && (k + 1 == m || starts_group(k + 1));
    if (head) {
      const I s = slot(k);
      if (s > upd.head) upd.head = s;
    }
    if constexpr (Changes::records) {
      if (changes.changes(keys, k)) {
        if (final) {
          changes.pairs(2 * std::int64_t(upd.changed)) = suf(k);
          changes.pairs(2 * std::int64_t(upd.changed) + 1) = upd.head;
        }
        upd.changed += 1;
      }
    }
    if (final) {
      if (heads.data() != nullptr) heads(k) = upd.head;
      else if (changes.stores(keys, k)) isa(suf(k)) = upd.head;
      if (single && singles.on()) singles.write(slot(k), suf(k));
      if (!single) {
        const I dst = upd.kept;
        pos_out(dst) = slot(k);
        suf_out(dst) = suf(k);
        marks.mark(dst, head, upd.segments);
        if (head) offsets(upd.segments) = dst;
      }
    }
    if (!single) {
      upd.kept += 1;
      if (head) upd.segments += 1;
    }
    // The last element closes the group table: offsets[segments] = survivors.
    if (final && k + 1 == m && upd.kept > 0) offsets(upd.segments) = upd.kept;
  }

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const {
    v.head = v.kept = v.segments = 0;
    if constexpr (Changes::records) v.changed = 0;
  }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (src.head > dst.head) dst.head = src.head;
    dst.kept += src.kept;
    dst.segments += src.segments;
    if constexpr (Changes::records) dst.changed += src.changed;
  }
  // Kokkos 3.x reduces through volatile references.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    if (src.head > dst.head) dst.head = src.head;
    dst.kept += src.kept;
    dst.segments += src.segments;
    if constexpr (Changes::records) dst.changed += src.changed;
  }
};

}  // namespace strix::detail
