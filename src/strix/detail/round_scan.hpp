#pragma once
// The scans of a prefix-doubling round. Over the active suffixes, sorted inside their
// segments, a new group starts where the key or the segment changes. Two scans follow:
//   - head_scan: ISA[s] = slot of the first suffix of s's new group (a running maximum);
//   - compact_scan: drops suffixes whose new group is a singleton (sorted for good),
//     copies the others to the output buffers, renumbers their groups as segments and
//     records where each segment starts (and, at the end, where the last one ends).
// Each scan's running value is one machine word (the counts of compact_scan are packed
// into 64 bits for 32-bit indices), which keeps CUB's single-pass scan on its fast path.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

namespace strix::detail {

// Where new groups start among the m active suffixes.
template <class KeyView, class IndexView>
struct round_groups {
  using I = typename IndexView::non_const_value_type;
  KeyView keys;
  IndexView seg, pos;
  std::int64_t m;
  bool initial;  // first round: one segment, slot == index, `seg` and `pos` unused

  KOKKOS_INLINE_FUNCTION bool starts_group(const std::int64_t k) const {
    if (k == 0 || keys(k) != keys(k - 1)) return true;
    return !initial && seg(k) != seg(k - 1);
  }
  KOKKOS_INLINE_FUNCTION bool singleton(const std::int64_t k) const {
    return starts_group(k) && (k + 1 == m || starts_group(k + 1));
  }
  KOKKOS_INLINE_FUNCTION I slot(const std::int64_t k) const {
    return initial ? static_cast<I>(k) : pos(k);
  }
};

template <class KeyView, class IndexView>
struct head_scan {
  using I = typename IndexView::non_const_value_type;
  using value_type = I;
  round_groups<KeyView, IndexView> groups;
  IndexView suf, isa;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& head,
                                         const bool final) const {
    if (groups.starts_group(k)) {
      const I s = groups.slot(k);
      if (s > head) head = s;
    }
    if (final) isa(suf(k)) = head;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    if (src > dst) dst = src;
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    if (src > dst) dst = src;
  }
};

// Survivor and segment counts: one 64-bit word for 32-bit indices (both counts stay
// below 2^32, so the halves never carry into each other), two words otherwise.
template <class I, bool Packed = sizeof(I) == 4>
struct round_counts {
  using type = std::uint64_t;
  KOKKOS_INLINE_FUNCTION static type make(I kept, I segments) {
    return static_cast<std::uint64_t>(kept) | (static_cast<std::uint64_t>(segments) << 32);
  }
  KOKKOS_INLINE_FUNCTION static I kept(type v) { return static_cast<I>(v & 0xffffffffu); }
  KOKKOS_INLINE_FUNCTION static I segments(type v) { return static_cast<I>(v >> 32); }
  KOKKOS_INLINE_FUNCTION static void add(type& dst, const type& src) { dst += src; }
  KOKKOS_INLINE_FUNCTION static void add(volatile type& dst, const volatile type& src) { dst += src; }
};
template <class I>
struct round_counts<I, false> {
  struct type {
    I kept, segments;
  };
  KOKKOS_INLINE_FUNCTION static type make(I kept, I segments) { return type{kept, segments}; }
  KOKKOS_INLINE_FUNCTION static I kept(const type& v) { return v.kept; }
  KOKKOS_INLINE_FUNCTION static I segments(const type& v) { return v.segments; }
  KOKKOS_INLINE_FUNCTION static void add(type& dst, const type& src) {
    dst.kept += src.kept;
    dst.segments += src.segments;
  }
  KOKKOS_INLINE_FUNCTION static void add(volatile type& dst, const volatile type& src) {
    dst.kept += src.kept;
    dst.segments += src.segments;
  }
};

template <class KeyView, class IndexView>
struct compact_scan {
  using I = typename IndexView::non_const_value_type;
  using counts = round_counts<I>;
  using value_type = typename counts::type;
  round_groups<KeyView, IndexView> groups;
  IndexView suf;
  IndexView pos_out, seg_out, suf_out, offsets;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& upd,
                                         const bool final) const {
    const bool head = groups.starts_group(k);
    const bool single = head && (k + 1 == groups.m || groups.starts_group(k + 1));
    if (!single) {
      if (final) {
        const I dst = counts::kept(upd), segments = counts::segments(upd);
        pos_out(dst) = groups.slot(k);
        suf_out(dst) = suf(k);
        seg_out(dst) = head ? segments : static_cast<I>(segments - 1);
        if (head) offsets(segments) = dst;
      }
      counts::add(upd, counts::make(1, head ? 1 : 0));
    }
    // The last element closes the segment table: offsets[segments] = survivors.
    if (final && k + 1 == groups.m && counts::kept(upd) > 0)
      offsets(counts::segments(upd)) = counts::kept(upd);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = counts::make(0, 0); }
  KOKKOS_INLINE_FUNCTION void join(value_type& dst, const value_type& src) const {
    counts::add(dst, src);
  }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    counts::add(dst, src);
  }
};

}  // namespace strix::detail
