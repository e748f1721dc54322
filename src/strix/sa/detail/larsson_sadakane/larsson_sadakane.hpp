// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Suffix array by GPU-LS: Larsson-Sadakane prefix doubling whose unsorted groups are sorted
// by size class (shared/papers/gpu-ls-segmented-suffix-sorting.txt).
//
// Ranks are "group heads": ISA[s] is the SA slot of the first suffix of s's group. The
// active (not yet singleton) suffixes are kept compacted in SA order, each unsorted group
// contiguous, with their slots and a flag where a group starts. A round with offset h:
//   gather    key(k) = ISA[suf(k) + h] + 1 (0 past the end of the text),
//   classify  every group by its size: S (<= R1 = options.ls_small_group) in power-of-two
//             sub-classes, M (<= R2 = options.ls_medium_group), L (larger); one radix sort
//             of (class, group) lists the groups of each class together,
//   sort S    one team or warp per group in scratch memory (sort_small_segments), one call
//             per sub-class so that a call's tiles fit its groups,
//   sort M    the M groups gathered into contiguous arrays, one segmented sort, scattered back,
//   sort L    the L groups gathered, one device-wide radix sort of (group, key) composites
//             (one radix sort per group when a composite does not fit 64 bits), scattered back,
//   refine    one scan: new group heads into ISA, singletons dropped, survivors compacted.
// Initial round (the paper's h0 = 8 packed characters, here as many as fit): radix sort of
// the first k characters packed into a 64-bit key, k = 64 / bits(sigma): 7 when all 256 byte
// values occur (9 bits with the end code), 8 up to 255, 9 for English text, 21 for DNA.
//
// End of text: characters are mapped to their rank 1..sigma in the text's alphabet and 0
// stands for "past the end", so a suffix sorts before every longer suffix it is a prefix
// of, a suffix shorter than h is alone in its group, and an active suffix has s + h <= n.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include <strix/core/copy.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/primitives/small_segment_sort.hpp>
// The shared part (memory, skeleton, initial sort; its includes): doubling_engine.hpp.
#include <strix/sa/detail/doubling/doubling_engine.hpp>
#include <strix/sa/detail/doubling/round_scan.hpp>

namespace strix::detail {

// Class codes of a group in the classification sort: S groups get ceil(log2(size)), 1..11.
constexpr int ls_medium_code = 14, ls_large_code = 15, ls_class_bits = 4, ls_codes = 16;

// The construction and its working memory, sized once for texts of up to `capacity` bytes
// and reused by every run.
//
// Memory per text byte, w = sizeof(I): 16 (two arrays of 64-bit keys: the initial keys,
// then the gathered M and L keys) + 5w (suffixes, ISA, two slot arrays, rank keys) + 2
// (group-start flags, double-buffered) + 3w (up to n/2 entries each: group offsets, the
// offsets of the gathered groups, and the classification sort's four arrays), plus the
// caller's text and SA (1 + w; the SA buffer doubles as the suffixes' second buffer) and the
// sort scratch. For I = uint32: 16 + 20 + 2 + 12 = 50, 55 with the caller's; for I = uint64:
// 16 + 40 + 2 + 24 = 82, 91 with the caller's.
template <class ExecSpace, class I>
class larsson_sadakane final : public doubling_engine<larsson_sadakane<ExecSpace, I>, ExecSpace, I> {
  using base = doubling_engine<larsson_sadakane<ExecSpace, I>, ExecSpace, I>;
  using base::capacity_, base::isa_, base::m_, base::mem_, base::n_, base::singles_, base::space_, base::suf_,
      base::suf_alt_, base::timer_, base::ws_;

 public:
  using typename base::index_view, typename base::memory_space, typename base::policy, typename base::wide_view;
  using const_index_view = Kokkos::View<const I*, memory_space, Kokkos::MemoryUnmanaged>;
  using flag_view = Kokkos::View<std::uint8_t*, memory_space, Kokkos::MemoryUnmanaged>;

  larsson_sadakane(const ExecSpace& space, const sa_options& options)
      : base(space), small_(options.ls_small_group), medium_(options.ls_medium_group) {
    STRIX_USER_REQUIRE(small_ <= primitives::small_segment_max,
                       "larsson-sadakane: the small-group bound R1 = " + std::to_string(small_) +
                           " is above " + std::to_string(primitives::small_segment_max));
    STRIX_USER_REQUIRE(medium_ >= small_, "larsson-sadakane: the medium-group bound R2 = " +
                                              std::to_string(medium_) + " is below R1 = " +
                                              std::to_string(small_));
  }

  // The family's part of doubling_engine, and its steps (public: the base calls them, and
  // CUDA lambdas may not live in private member functions).
  void reserve_family(std::size_t cap);
  void release_family();
  std::pair<wide_view, wide_view> initial_key_buffers(std::size_t n) const {
    return {wide_view(wide_buf_.data(), n), wide_view(wide_buf_.data() + capacity_, n)};
  }
  void first_refine(const wide_view& keys);
  void begin_run() { std::fill(groups_sorted_, groups_sorted_ + 3, 0); }
  void add_counters(run_stats& stats) const {
    stats.set_counter("small_groups", groups_sorted_[0]);
    stats.set_counter("medium_groups", groups_sorted_[1]);
    stats.set_counter("large_groups", groups_sorted_[2]);
  }
  void round(std::uint64_t h);
  void gather_keys(std::uint64_t h);
  void classify();
  void sort_small();
  void sort_medium();
  void sort_large();
  std::size_t gather_groups(const const_index_view& groups, const index_view& gathered_keys,
                            const wide_view& composite, bool tag_groups, const index_view& vals);
  void scatter_groups(const const_index_view& groups, std::size_t total, const index_view& gathered_keys,
                      const wide_view& composite, const index_view& vals);
  template <class KeyView>
  void refine(const KeyView& keys, bool initial);

 private:
  // The groups of class `code`, as a range of the classification's sorted list.
  std::size_t class_count(int code) const { return class_end_[code] - class_begin_[code]; }
  const_index_view class_groups(int code) const {
    return const_index_view(group_list_.data() + class_begin_[code], class_count(code));
  }
  std::size_t half() const { return capacity_ / 2 + 2; }

  std::uint32_t small_, medium_;
  Kokkos::View<std::uint64_t*, memory_space> wide_buf_;  // 2 x capacity
  Kokkos::View<I*, memory_space> pos_buf_, keys_buf_, offsets_buf_, class_buf_, goffsets_buf_;
  Kokkos::View<std::uint8_t*, memory_space> flag_buf_;  // 2 x capacity
  Kokkos::View<I*, memory_space> bounds_;               // first and end of each class in the list

  // Per-run state.
  std::size_t num_groups_ = 0;
  int rank_bits_ = 0;
  index_view offsets_, keys_;
  index_view pos_, pos_alt_;
  flag_view flag_, flag_alt_;
  const_index_view group_list_;  // the classification's sorted group numbers
  std::size_t class_begin_[ls_codes] = {}, class_end_[ls_codes] = {};
  std::uint64_t groups_sorted_[3] = {};  // S, M, L over all rounds
};

template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::release_family() {
  detail::release(wide_buf_, &mem_);
  detail::release(pos_buf_, &mem_);
  detail::release(keys_buf_, &mem_);
  detail::release(offsets_buf_, &mem_);
  detail::release(class_buf_, &mem_);
  detail::release(goffsets_buf_, &mem_);
  detail::release(flag_buf_, &mem_);
  detail::release(bounds_, &mem_);
}

template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::reserve_family(std::size_t cap) {
  const std::size_t h = cap / 2 + 2;  // groups of at least two suffixes: at most n/2
  wide_buf_ = allocate<std::uint64_t, memory_space>("strix::ls_wide", 2 * cap, &mem_);
  pos_buf_ = allocate<I, memory_space>("strix::ls_slots", 2 * cap, &mem_);
  keys_buf_ = allocate<I, memory_space>("strix::ls_keys", cap, &mem_);
  offsets_buf_ = allocate<I, memory_space>("strix::ls_group_offsets", h, &mem_);
  class_buf_ = allocate<I, memory_space>("strix::ls_classes", 4 * h, &mem_);
  goffsets_buf_ = allocate<I, memory_space>("strix::ls_gathered_offsets", h, &mem_);
  flag_buf_ = allocate<std::uint8_t, memory_space>("strix::ls_flags", 2 * cap, &mem_);
  bounds_ = allocate<I, memory_space>("strix::ls_class_bounds", 2 * ls_codes, &mem_);
  using refine_wide = round_scan<wide_view, index_view, start_flags<flag_view>>;
  using refine_narrow = round_scan<index_view, index_view, start_flags<flag_view>>;
  ws_.reserve(primitives::radix_sort_pairs_scratch_bytes<I, I>(space_, h));
  ws_.reserve(primitives::segmented_sort_pairs_scratch_bytes<I, I, I>(space_, cap, cap / (small_ + 1) + 1));
  ws_.reserve(primitives::scan_scratch_bytes<refine_wide>(space_, cap));
  ws_.reserve(primitives::scan_scratch_bytes<refine_narrow>(space_, cap));
}

// After the initial sort: the first refine, with one old group (the whole text).
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::first_refine(const wide_view& keys) {
  rank_bits_ = bits_for(n_);  // round keys are 0..n
  offsets_ = index_view(offsets_buf_.data(), offsets_buf_.extent(0));
  pos_ = index_view(pos_buf_.data(), capacity_);
  pos_alt_ = index_view(pos_buf_.data() + capacity_, capacity_);
  flag_ = flag_view(flag_buf_.data(), capacity_);
  flag_alt_ = flag_view(flag_buf_.data() + capacity_, capacity_);
  refine(keys, true);
}

template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::round(std::uint64_t h) {
  timer_->begin("gather");
  gather_keys(h);
  timer_->begin("classify");
  classify();
  if (class_count(ls_medium_code) + class_count(ls_large_code) < num_groups_) {
    timer_->begin("sort small");
    sort_small();
  }
  if (class_count(ls_medium_code) > 0) {
    timer_->begin("sort medium");
    sort_medium();
  }
  if (class_count(ls_large_code) > 0) {
    timer_->begin("sort large");
    sort_large();
  }
  timer_->begin("rank update");
  refine(keys_, false);
}

// key(k) = rank of the suffix h further on, + 1; 0 for the empty suffix (s + h == n).
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::gather_keys(std::uint64_t h) {
  const std::size_t n = n_;
  keys_ = index_view(keys_buf_.data(), m_);
  auto keys = keys_;
  auto suf = suf_;
  auto isa = isa_;
  Kokkos::parallel_for(
      "strix::ls_gather_keys", policy(space_, 0, m_), KOKKOS_LAMBDA(const std::int64_t k) {
        const std::size_t p = static_cast<std::size_t>(suf(k)) + h;
        keys(k) = p < n ? static_cast<I>(isa(p) + 1) : I(0);
      });
}

// Lists the groups by class: one radix sort of (class code, group number) on 4 bits, then
// the first and end of each code's run in the sorted list, read back to the host.
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::classify() {
  const std::size_t g = num_groups_, h = half();
  index_view code(class_buf_.data(), g), code_alt(class_buf_.data() + h, g);
  index_view list(class_buf_.data() + 2 * h, g), list_alt(class_buf_.data() + 3 * h, g);
  auto offsets = offsets_;
  const std::size_t small = small_, medium = medium_;
  Kokkos::parallel_for(
      "strix::ls_classify", policy(space_, 0, g), KOKKOS_LAMBDA(const std::int64_t s) {
        const std::size_t len = offsets(s + 1) - offsets(s);
        code(s) = static_cast<I>(len <= small ? bits_for(len - 1) : len <= medium ? ls_medium_code : ls_large_code);
        list(s) = static_cast<I>(s);
      });
  if (primitives::radix_sort_pairs(space_, ws_, code, code_alt, list, list_alt, 0, ls_class_bits)) {
    std::swap(code, code_alt);
    std::swap(list, list_alt);
  }
  group_list_ = list;
  auto bounds = bounds_;
  strix::fill(space_, bounds, I(0));
  Kokkos::parallel_for(
      "strix::ls_class_bounds", policy(space_, 0, g), KOKKOS_LAMBDA(const std::int64_t i) {
        const I c = code(i);
        if (i == 0 || code(i - 1) != c) bounds(c) = static_cast<I>(i);
        if (static_cast<std::size_t>(i) + 1 == g || code(i + 1) != c) bounds(ls_codes + c) = static_cast<I>(i + 1);
      });
  auto bounds_h = strix::to_host(space_, bounds);
  for (int c = 0; c < ls_codes; ++c) {
    class_begin_[c] = bounds_h(c);
    class_end_[c] = bounds_h(ls_codes + c);
  }
}

// S groups, one call per power-of-two sub-class (tiles of that size), in place.
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::sort_small() {
  const const_index_view offsets(offsets_.data(), num_groups_ + 1);
  for (int c = 1; c < ls_medium_code; ++c) {
    if (class_count(c) == 0) continue;
    primitives::sort_small_segments(space_, keys_, suf_, offsets, class_groups(c), std::size_t(1) << c);
    groups_sorted_[0] += class_count(c);
  }
}

// M groups: gathered into contiguous arrays (the wide buffer seen as index arrays, and the
// free slot and suffix buffers), one segmented sort, scattered back.
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::sort_medium() {
  const auto groups = class_groups(ls_medium_code);
  const std::size_t count = groups.extent(0);
  index_view keys(reinterpret_cast<I*>(wide_buf_.data()), capacity_);
  index_view keys_alt(reinterpret_cast<I*>(wide_buf_.data() + capacity_), capacity_);
  index_view vals = pos_alt_, vals_alt = suf_alt_;
  const std::size_t total = gather_groups(groups, keys, wide_view(), false, vals);
  keys = index_view(keys.data(), total);
  keys_alt = index_view(keys_alt.data(), total);
  vals = index_view(vals.data(), total);
  vals_alt = index_view(vals_alt.data(), total);
  const const_index_view goffsets(goffsets_buf_.data(), count + 1);
  if (primitives::segmented_sort_pairs(space_, ws_, keys, keys_alt, vals, vals_alt, goffsets, count, rank_bits_)) {
    std::swap(keys, keys_alt);
    std::swap(vals, vals_alt);
  }
  scatter_groups(groups, total, keys, wide_view(), vals);
  groups_sorted_[1] += count;
}

// L groups: gathered with (group, key) composite keys, one device-wide radix sort (of
// index-type keys when the composite fits them: fewer bytes a pass), scattered back; where a
// composite needs more than 64 bits, one radix sort per group.
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::sort_large() {
  const auto groups = class_groups(ls_large_code);
  const std::size_t count = groups.extent(0);
  index_view vals = pos_alt_, vals_alt = suf_alt_;
  const int key_bits = bits_for(count - 1) + rank_bits_;
  groups_sorted_[2] += count;
  if (key_bits <= int(8 * sizeof(I))) {
    index_view keys(reinterpret_cast<I*>(wide_buf_.data()), capacity_);
    index_view keys_alt(reinterpret_cast<I*>(wide_buf_.data() + capacity_), capacity_);
    const std::size_t total = gather_groups(groups, keys, wide_view(), true, vals);
    index_view k(keys.data(), total), ka(keys_alt.data(), total), v(vals.data(), total), va(vals_alt.data(), total);
    if (primitives::radix_sort_pairs(space_, ws_, k, ka, v, va, 0, key_bits)) {
      keys = keys_alt;
      vals = vals_alt;
    }
    scatter_groups(groups, total, keys, wide_view(), vals);
    return;
  }
  wide_view keys(wide_buf_.data(), capacity_), keys_alt(wide_buf_.data() + capacity_, capacity_);
  const bool composite = key_bits <= 64;
  const std::size_t total = gather_groups(groups, index_view(), keys, composite, vals);
  if (composite) {
    wide_view k(keys.data(), total), ka(keys_alt.data(), total);
    index_view v(vals.data(), total), va(vals_alt.data(), total);
    if (primitives::radix_sort_pairs(space_, ws_, k, ka, v, va, 0, key_bits)) {
      keys = keys_alt;
      vals = vals_alt;
    }
  } else {
    auto goffsets_h = strix::to_host(space_, Kokkos::subview(goffsets_buf_, std::make_pair(std::size_t(0), count + 1)));
    for (std::size_t j = 0; j < count; ++j) {
      const std::size_t lo = goffsets_h(j), len = goffsets_h(j + 1) - lo;
      wide_view k(keys.data() + lo, len), ka(keys_alt.data() + lo, len);
      index_view v(vals.data() + lo, len), va(vals_alt.data() + lo, len);
      if (primitives::radix_sort_pairs(space_, ws_, k, ka, v, va, 0, rank_bits_)) {
        strix::copy(space_, k, ka);
        strix::copy(space_, v, va);
      }
    }
  }
  scatter_groups(groups, total, index_view(), keys, vals);
}

// Copies the listed groups' keys and suffixes into contiguous arrays, group after group,
// and the gathered groups' offsets to goffsets. Keys go to `gathered_keys` when it is
// allocated, else to `composite`; with `tag_groups` as (list index << rank bits) | key.
// Returns the number of gathered suffixes.
template <class ExecSpace, class I>
std::size_t larsson_sadakane<ExecSpace, I>::gather_groups(const const_index_view& groups,
                                                          const index_view& gathered_keys,
                                                          const wide_view& composite, bool tag_groups,
                                                          const index_view& vals) {
  const std::size_t count = groups.extent(0);
  index_view goffsets(goffsets_buf_.data(), count + 1);
  auto offsets = offsets_;
  std::size_t total = 0;
  Kokkos::parallel_scan(
      "strix::ls_gathered_offsets", policy(space_, 0, count),
      KOKKOS_LAMBDA(const std::int64_t j, std::size_t& sum, const bool final) {
        const I s = groups(j);
        const std::size_t len = offsets(s + 1) - offsets(s);
        if (final) goffsets(j) = static_cast<I>(sum);
        sum += len;
        if (final && static_cast<std::size_t>(j) + 1 == count) goffsets(count) = static_cast<I>(sum);
      },
      total);
  auto keys = keys_;
  auto suf = suf_;
  const bool to_composite = gathered_keys.data() == nullptr;
  const int shift = rank_bits_;
  Kokkos::parallel_for(
      "strix::ls_gather_groups", policy(space_, 0, total), KOKKOS_LAMBDA(const std::int64_t t) {
        // The group holding t: the last j with goffsets(j) <= t.
        std::size_t lo = 0, hi = count;
        while (hi - lo > 1) {
          const std::size_t mid = (lo + hi) / 2;
          if (static_cast<std::size_t>(goffsets(mid)) <= static_cast<std::size_t>(t)) lo = mid;
          else hi = mid;
        }
        const std::size_t src = offsets(groups(lo)) + (t - goffsets(lo));
        vals(t) = suf(src);
        if (to_composite) {
          const std::uint64_t tag = tag_groups ? static_cast<std::uint64_t>(lo) << shift : 0;
          composite(t) = tag | static_cast<std::uint64_t>(keys(src));
        } else {
          gathered_keys(t) = tag_groups ? static_cast<I>((lo << shift) | keys(src)) : keys(src);
        }
      });
  return total;
}

// The reverse of gather_groups: sorted keys (their rank bits) and suffixes back
// into the groups' places.
template <class ExecSpace, class I>
void larsson_sadakane<ExecSpace, I>::scatter_groups(const const_index_view& groups, std::size_t total,
                                                    const index_view& gathered_keys,
                                                    const wide_view& composite, const index_view& vals) {
  const std::size_t count = groups.extent(0);
  const const_index_view goffsets(goffsets_buf_.data(), count + 1);
  auto offsets = offsets_;
  auto keys = keys_;
  auto suf = suf_;
  const bool from_composite = gathered_keys.data() == nullptr;
  const std::uint64_t mask = (std::uint64_t(1) << rank_bits_) - 1;  // rank_bits_ < 64: n < 2^63
  Kokkos::parallel_for(
      "strix::ls_scatter_groups", policy(space_, 0, total), KOKKOS_LAMBDA(const std::int64_t t) {
        std::size_t lo = 0, hi = count;
        while (hi - lo > 1) {
          const std::size_t mid = (lo + hi) / 2;
          if (static_cast<std::size_t>(goffsets(mid)) <= static_cast<std::size_t>(t)) lo = mid;
          else hi = mid;
        }
        const std::size_t dst = offsets(groups(lo)) + (t - goffsets(lo));
        suf(dst) = vals(t);
        keys(dst) = static_cast<I>((from_composite ? composite(t) : gathered_keys(t)) & mask);
      });
}

// One scan over the m active suffixes, each old group sorted by `keys` (see round_scan.hpp;
// groups marked by start flags); survivors go to the double buffers, which then swap in.
template <class ExecSpace, class I>
template <class KeyView>
void larsson_sadakane<ExecSpace, I>::refine(const KeyView& keys, bool initial) {
  const std::size_t m = m_;
  round_scan<KeyView, index_view, start_flags<flag_view>> scan{
      keys, {flag_, flag_alt_}, pos_, suf_, isa_, pos_alt_, suf_alt_, offsets_, static_cast<std::int64_t>(m), initial};
  scan.singles = singles_;
  typename decltype(scan)::value_type totals{};
  primitives::scan(space_, ws_, "strix::ls_refine", scan, static_cast<std::int64_t>(m), totals);
  m_ = totals.kept;
  num_groups_ = totals.segments;
  std::swap(pos_, pos_alt_);
  std::swap(flag_, flag_alt_);
  std::swap(suf_, suf_alt_);
}

// Every group is a singleton: ISA is the inverse suffix array.
}  // namespace strix::detail
