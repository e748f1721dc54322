#pragma once
// The one scan that closes a GPU-LS round (the paper's "update ISA" and "split groups").
// Over the active suffixes, each old group sorted by its keys, it finds where new groups
// start (the old group starts, flagged, or the key changes), and in its final pass
//   - writes ISA[s] = slot of the first suffix of s's new group (a running maximum: the
//     segmented scan of the group heads),
//   - drops suffixes whose new group is a singleton (they are in their final place),
//   - copies the others, with their slots and group-start flags, to the output buffers,
//     and records where each surviving group starts among them.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix::detail {

template <class KeyView, class IndexView, class FlagView>
struct ls_refine_scan {
  using I = typename IndexView::non_const_value_type;
  struct value_type {
    I head;      // slot of the latest group start (max-scan)
    I kept;      // survivors so far (sum-scan)
    I segments;  // surviving groups so far (sum-scan)
  };

  KeyView keys;
  FlagView flag;  // 1 where an old group starts
  IndexView pos, suf, isa;
  IndexView pos_out, suf_out, offsets;
  FlagView flag_out;
  std::int64_t m;
  bool initial;  // first round: one old group, slot == index, `flag` and `pos` unused

  KOKKOS_INLINE_FUNCTION bool starts_group(const std::int64_t k) const {
    if (k == 0 || keys(k) != keys(k - 1)) return true;
    return !initial && flag(k) != 0;
  }
  KOKKOS_INLINE_FUNCTION I slot(const std::int64_t k) const { return initial ? static_cast<I>(k) : pos(k); }

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& upd, const bool final) const {
    const bool head = starts_group(k);
    const bool single = head && (k + 1 == m || starts_group(k + 1));
    if (head) {
      const I s = slot(k);
      if (s > upd.head) upd.head = s;
    }
    if (final) {
      isa(suf(k)) = upd.head;
      if (!single) {
        const I dst = upd.kept;
        pos_out(dst) = slot(k);
        suf_out(dst) = suf(k);
        flag_out(dst) = head ? 1 : 0;
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

  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v.head = v.kept = v.segments = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (src.head > dst.head) dst.head = src.head;
    dst.kept += src.kept;
    dst.segments += src.segments;
  }
  // Kokkos 3.x reduces through volatile references.
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    if (src.head > dst.head) dst.head = src.head;
    dst.kept += src.kept;
    dst.segments += src.segments;
  }
};

}  // namespace strix::detail
