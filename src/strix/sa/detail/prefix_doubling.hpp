// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Suffix array by prefix doubling with Larsson-Sadakane filtering.
//
// Ranks are "group heads": ISA[s] is the SA slot of the first suffix of s's group
// (suffixes sharing their first h characters). Each round re-sorts only the suffixes
// of unsorted (non-singleton) groups by ISA[s + h] inside their group, then drops the
// suffixes that became singletons, so later rounds touch only what is still unsorted.
// When every group is a singleton, ISA is the inverse suffix array and one scatter
// writes SA; until then SA's buffer serves as scratch.
//
// End of text: characters are mapped to their rank 1..sigma in the text's alphabet and
// 0 stands for "past the end", so the initial keys order a suffix before any longer
// suffix it is a prefix of. A suffix shorter than h is then alone in its group, so an
// active suffix has s + h <= n; s + h == n (the empty suffix) gets the lowest key.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include <strix/core/bits.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>
#include <strix/sa/detail/alphabet.hpp>
#include <strix/sa/detail/round_scan.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

// The segmented sort's scratch grows with the number of segments (about 8 bytes each on
// CUDA); above this many, the composite radix sort, whose scratch is small, takes over.
inline std::size_t max_segmented_segments(std::size_t capacity) { return capacity / 16 + 1; }

// The construction and its working memory, sized once for texts of up to `capacity`
// bytes and reused by every run (a libcubwt-style workspace).
//
// Memory: three "pairs" of 2 * sizeof(I) bytes per text byte each. A pair holds either
// the active suffixes' slots and segment numbers, or the rank keys and their sort
// double buffer, or one array of 64-bit keys (the initial keys, composite keys); the
// roles move between pairs from round to round. Plus suffixes and ISA (sizeof(I)
// each), segment offsets, and the caller's text and SA (the SA buffer doubles as the
// suffixes' sort buffer). For I = uint32: 24 + 4 + 4 + 2 + 1 + 4 = about 39n bytes, plus the
// sort scratch.
template <class ExecSpace, class I>
class prefix_doubling final : public sa_engine<ExecSpace, I> {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index_view = Kokkos::View<I*, memory_space, Kokkos::MemoryUnmanaged>;
  using wide_view = Kokkos::View<std::uint64_t*, memory_space, Kokkos::MemoryUnmanaged>;

  explicit prefix_doubling(const ExecSpace& space) : space_(space), ws_(&mem_) {}

  std::uint64_t capacity() const override { return capacity_; }
  std::size_t bytes() const override { return mem_.current(); }
  // Grows the working memory to texts of n bytes (never shrinks).
  void reserve(std::uint64_t n) override;
  void release() override;
  void build(const text_view<ExecSpace>& text, const index_view& sa, run_stats* stats) override;

  // The sample of a difference-cover construction (hybrid, dcx), seen as m "units":
  // the caller sorts the units by their first h0 units into presorted_suffixes(m), with
  // group names (equal exactly when the prefixes are equal) in presorted_keys(m); rounds
  // then double from h0 until every unit is alone, and ranks()(u) is unit u's rank.
  // `scratch` (m entries, e.g. the caller's SA) serves as the sort's double buffer, and the
  // caller's own sort may use presorted_keys / spare_keys(m) / scratch before. Returns the
  // number of rounds. reserve(m) first.
  index_view presorted_suffixes(std::size_t m) const { return index_view(suf_buf_.data(), m); }
  wide_view presorted_keys(std::size_t m) const { return wide_of(0, m); }
  wide_view spare_keys(std::size_t m) const { return wide_of(1, m); }
  int rank_presorted(std::size_t m, std::uint64_t h0, const index_view& scratch, phase_timer<ExecSpace>& timer);
  index_view ranks() const { return isa_; }
  std::size_t peak_bytes() const { return mem_.peak(); }

  // Public only because CUDA lambdas may not live in private member functions.
  void initial_sort(const text_view<ExecSpace>& text);
  void doubling_round(std::uint64_t h);
  void write_suffix_array();
  template <class KeyView>
  void refine(const KeyView& keys, int out_pair, bool initial);
  void find_largest_segment();

 private:
  // Doubling rounds from prefix length h until every group is a singleton.
  int double_until_sorted(std::uint64_t h) {
    int rounds = 0;
    while (m_ > 0) {
      STRIX_REQUIRE(rounds < 64);  // h doubles: every group is a singleton once h >= n
      doubling_round(h);
      timer_->progress(1.0 - double(m_) / double(n_));
      h *= 2;
      ++rounds;
    }
    return rounds;
  }

  // Sorts (keys, vals) on bits [begin, end); swaps each view with its *_alt partner when
  // the result ended there.
  template <class KeyView>
  void sort_pairs(KeyView& keys, KeyView& keys_alt, index_view& vals, index_view& vals_alt,
                  int begin_bit, int end_bit) {
    if (primitives::radix_sort_pairs(space_, ws_, keys, keys_alt, vals, vals_alt, begin_bit, end_bit)) {
      std::swap(keys, keys_alt);
      std::swap(vals, vals_alt);
    }
  }

  // The two index arrays of pair p, and the pair seen as one array of 64-bit keys.
  index_view first_of(int p) const { return index_view(pair_base(p), capacity_); }
  index_view second_of(int p) const { return index_view(pair_base(p) + capacity_, capacity_); }
  wide_view wide_of(int p, std::size_t len) const {
    return wide_view(reinterpret_cast<std::uint64_t*>(pair_base(p)), len);
  }
  I* pair_base(int p) const { return pairs_.data() + 2 * capacity_ * static_cast<std::size_t>(p); }

  ExecSpace space_;
  memory_tracker mem_;
  primitives::workspace<ExecSpace> ws_;
  std::size_t capacity_ = 0;
  Kokkos::View<I*, memory_space> pairs_, suf_buf_, isa_buf_, offsets_buf_;
  Kokkos::View<std::uint32_t*, memory_space> alphabet_;  // 1 for the bytes the text has
  Kokkos::View<std::uint16_t*, memory_space> rank_of_;

  // Per-run state.
  phase_timer<ExecSpace>* timer_ = nullptr;
  std::size_t n_ = 0, m_ = 0, num_segments_ = 0, largest_segment_ = 0;
  int chars_per_key_ = 0;
  int slot_pair_ = 0;  // the pair holding the active suffixes' slots and segments
  index_view sa_, isa_, offsets_;
  index_view suf_, suf_alt_;  // active suffixes and their sort double buffer
};

template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::release() {
  // Drop the old buffers first so that growing does not need both at once.
  detail::release(pairs_, &mem_);
  detail::release(suf_buf_, &mem_);
  detail::release(isa_buf_, &mem_);
  detail::release(offsets_buf_, &mem_);
  detail::release(alphabet_, &mem_);
  detail::release(rank_of_, &mem_);
  ws_.release();
  capacity_ = 0;
}

template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::reserve(std::uint64_t n) {
  if (n <= capacity_ && pairs_.data()) return;
  require_sa_length<I>(n);
  const std::size_t cap = std::max<std::size_t>(n, 2);
  release();
  pairs_ = allocate<I, memory_space>("strix::pairs", 6 * cap, &mem_);
  suf_buf_ = allocate<I, memory_space>("strix::suffixes", cap, &mem_);
  isa_buf_ = allocate<I, memory_space>("strix::isa", cap, &mem_);
  offsets_buf_ = allocate<I, memory_space>("strix::segment_offsets", cap / 2 + 2, &mem_);
  alphabet_ = allocate<std::uint32_t, memory_space>("strix::alphabet", 256, &mem_);
  rank_of_ = allocate<std::uint16_t, memory_space>("strix::char_rank", 256, &mem_);
  capacity_ = cap;
  // Size the scratch once for the largest sorts and scans a run can ask for.
  using primitives::radix_sort_pairs_scratch_bytes;
  ws_.reserve(radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space_, cap));
  ws_.reserve(radix_sort_pairs_scratch_bytes<I, I>(space_, cap));
  ws_.reserve(primitives::segmented_sort_pairs_scratch_bytes<I, I, I>(space_, cap, max_segmented_segments(cap)));
  ws_.reserve(primitives::scan_scratch_bytes<round_scan<wide_view, index_view, segment_marks<index_view>>>(space_, cap));
  ws_.reserve(primitives::scan_scratch_bytes<round_scan<index_view, index_view, segment_marks<index_view>>>(space_, cap));
  ws_.result(64);
}

template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::build(const text_view<ExecSpace>& text, const index_view& sa,
                                          run_stats* stats) {
  n_ = text.extent(0);
  reserve(n_);
  phase_timer<ExecSpace> timer(space_, stats);
  timer_ = &timer;
  const std::size_t caller_bytes = n_ + n_ * sizeof(I);  // the caller's text and SA
  if (n_ <= 1) {
    if (n_ == 1) Kokkos::deep_copy(space_, sa, I(0));
  } else {
    sa_ = sa;
    initial_sort(text);
    timer.progress(1.0 - double(m_) / double(n_));  // suffixes already in their final place
    const int rounds = double_until_sorted(chars_per_key_);
    write_suffix_array();
    if (stats) stats->set_counter("rounds", rounds);
  }
  timer.end();
  if (stats) stats->peak_bytes = mem_.peak() + caller_bytes;
  timer_ = nullptr;
}

template <class ExecSpace, class I>
int prefix_doubling<ExecSpace, I>::rank_presorted(std::size_t m, std::uint64_t h0, const index_view& scratch,
                                                  phase_timer<ExecSpace>& timer) {
  STRIX_REQUIRE(m <= capacity_ && scratch.extent(0) >= m);
  n_ = m;
  if (m == 0) return 0;
  timer_ = &timer;
  timer.begin("sample ranks");
  suf_ = index_view(suf_buf_.data(), m);
  suf_alt_ = index_view(scratch.data(), m);
  isa_ = index_view(isa_buf_.data(), m);
  offsets_ = index_view(offsets_buf_.data(), offsets_buf_.extent(0));
  m_ = m;
  refine(wide_of(0, m), 2, true);
  const int rounds = double_until_sorted(h0);
  timer_ = nullptr;
  return rounds;
}

// Initial round: radix sort of the first k characters of every suffix packed into
// 64-bit keys, k as large as the text's alphabet allows.
template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::initial_sort(const text_view<ExecSpace>& text) {
  timer_->begin("initial keys");
  const std::size_t n = n_;
  const device_view<std::uint16_t, ExecSpace> rank_of(rank_of_.data(), 256);
  const unsigned sigma = map_alphabet(space_, text, device_view<std::uint32_t, ExecSpace>(alphabet_.data(), 256), rank_of);
  const int b = bits_for(sigma);  // codes 0 (end) .. sigma
  const int k = 64 / b;
  chars_per_key_ = k;

  wide_view wide = wide_of(0, n), wide_alt = wide_of(1, n);
  index_view suf(suf_buf_.data(), n);
  index_view suf_alt = sa_;
  pack_prefix_keys<ExecSpace, I>(space_, text, rank_of, k, b, wide, suf);
  timer_->begin("initial sort");
  sort_pairs(wide, wide_alt, suf, suf_alt, 0, k * b);
  timer_->begin("initial ranks");

  // All n suffixes form one segment, slots are the identity. The scan reads the sorted
  // keys in pair 0 or 1; the surviving slots and segments go to pair 2.
  suf_ = suf;
  suf_alt_ = suf_alt;
  isa_ = index_view(isa_buf_.data(), n);
  offsets_ = index_view(offsets_buf_.data(), offsets_buf_.extent(0));
  m_ = n;
  refine(wide, 2, true);
}

// One doubling round: key = ISA[s + h] (with the segment number above it when the
// pair fits the index type, so one radix sort does all segments), sort inside
// segments, then refine.
template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::doubling_round(std::uint64_t h) {
  const std::size_t m = m_, n = n_;
  const int rank_bits = bits_for(n_);  // keys are 0..n
  const int segment_bits = bits_for(num_segments_ - 1);
  const int key_bits = rank_bits + segment_bits;
  // Sort strategy: one radix sort of (segment, rank) keys, in the index type when
  // they fit, else in 64 bits; CUB's segmented sort only when every segment is small
  // (it gives large segments a single thread block).
  enum class strategy { composite_narrow, composite_wide, segmented };
  const bool segmented_fits =
      is_host_space_v<ExecSpace> || num_segments_ <= max_segmented_segments(capacity_);
  const strategy how = key_bits <= int(8 * sizeof(I)) ? strategy::composite_narrow
                       : ((largest_segment_ <= 2048 && segmented_fits) || key_bits > 64)
                           ? strategy::segmented
                           : strategy::composite_wide;
  const int free_a = (slot_pair_ + 1) % 3, free_b = (slot_pair_ + 2) % 3;
  const int shift = how == strategy::segmented ? 0 : rank_bits;
  index_view suf(suf_.data(), m), suf_alt(suf_alt_.data(), m);
  index_view seg = second_of(slot_pair_);
  auto isa = isa_;
  int out_pair = free_b;
  if (how == strategy::composite_wide) {
    wide_view wide = wide_of(free_a, m), wide_alt = wide_of(free_b, m);
    timer_->begin("gather");
    Kokkos::parallel_for(
        "strix::gather_ranks_wide", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
          // A suffix of length exactly h reaches the end: the empty suffix ranks lowest.
          const std::size_t p = static_cast<std::size_t>(suf(k)) + h;
          const std::uint64_t rank = p < n ? static_cast<std::uint64_t>(isa(p)) + 1 : 0;
          wide(k) = (static_cast<std::uint64_t>(seg(k)) << shift) | rank;
        });
    timer_->begin("sort");
    sort_pairs(wide, wide_alt, suf, suf_alt, 0, key_bits);
    if (suf.data() != suf_.data()) std::swap(suf_, suf_alt_);
    timer_->begin("rank update");
    out_pair = wide.data() == wide_of(free_a, 0).data() ? free_b : free_a;
    refine(wide, out_pair, false);
  } else {
    index_view key = first_of(free_a), key_alt = second_of(free_a);
    key = index_view(key.data(), m);
    key_alt = index_view(key_alt.data(), m);
    const bool composite = how == strategy::composite_narrow;
    timer_->begin("gather");
    Kokkos::parallel_for(
        "strix::gather_ranks", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
          const std::size_t p = static_cast<std::size_t>(suf(k)) + h;
          const I rank = p < n ? static_cast<I>(isa(p) + 1) : I(0);
          key(k) = composite ? static_cast<I>((seg(k) << shift) | rank) : rank;
        });
    timer_->begin("sort");
    if (composite) {
      sort_pairs(key, key_alt, suf, suf_alt, 0, key_bits);
    } else {
      const device_view<const I, ExecSpace> offsets(offsets_.data(), num_segments_ + 1);
      if (primitives::segmented_sort_pairs(space_, ws_, key, key_alt, suf, suf_alt, offsets,
                                           num_segments_, rank_bits)) {
        std::swap(key, key_alt);
        std::swap(suf, suf_alt);
      }
    }
    if (suf.data() != suf_.data()) std::swap(suf_, suf_alt_);
    timer_->begin("rank update");
    refine(key, free_b, false);
  }
}

// One scan over the m active suffixes, sorted inside their segments by `keys`:
// new group heads into ISA, singletons dropped, surviving groups renumbered as
// segments (see round_scan.hpp). Survivors go to the double buffers, then swap in.
template <class ExecSpace, class I>
template <class KeyView>
void prefix_doubling<ExecSpace, I>::refine(const KeyView& keys, int out_pair, bool initial) {
  const std::size_t m = m_;
  round_scan<KeyView, index_view, segment_marks<index_view>> scan{
      keys,     {second_of(slot_pair_), second_of(out_pair)},
      first_of(slot_pair_), suf_, isa_, first_of(out_pair), suf_alt_, offsets_,
      static_cast<std::int64_t>(m), initial};
  typename decltype(scan)::value_type totals{};
  primitives::scan(space_, ws_, "strix::refine", scan, static_cast<std::int64_t>(m), totals);
  m_ = totals.kept;
  num_segments_ = totals.segments;
  slot_pair_ = out_pair;
  std::swap(suf_, suf_alt_);
  // The largest segment only matters when the next keys do not fit the index type.
  if (m_ > 0 && bits_for(n_) + bits_for(num_segments_ - 1) > int(8 * sizeof(I)))
    find_largest_segment();
}

template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::find_largest_segment() {
  auto offsets = offsets_;
  std::size_t largest = 0;
  Kokkos::parallel_reduce(
      "strix::largest_segment", policy(space_, 0, static_cast<std::int64_t>(num_segments_)),
      KOKKOS_LAMBDA(const std::int64_t s, std::size_t& mx) {
        const std::size_t len = offsets(s + 1) - offsets(s);
        if (len > mx) mx = len;
      },
      Kokkos::Max<std::size_t>(largest));
  largest_segment_ = largest;
}

// Every group is a singleton: ISA is the inverse suffix array.
template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::write_suffix_array() {
  timer_->begin("write SA");
  auto sa = sa_;
  auto isa = isa_;
  Kokkos::parallel_for(
      "strix::write_sa", policy(space_, 0, n_),
      KOKKOS_LAMBDA(const std::int64_t s) { sa(isa(s)) = static_cast<I>(s); });
}

}  // namespace strix::detail
