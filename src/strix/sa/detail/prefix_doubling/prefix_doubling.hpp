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

#include <strix/primitives/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>
// The shared part (memory, skeleton, initial sort; its includes): doubling_engine.hpp.
#include <strix/sa/detail/doubling/bucketed_store.hpp>
#include <strix/sa/detail/doubling/doubling_engine.hpp>
#include <strix/sa/detail/doubling/round_scan.hpp>

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
class prefix_doubling final : public doubling_engine<prefix_doubling<ExecSpace, I>, ExecSpace, I> {
  using base = doubling_engine<prefix_doubling<ExecSpace, I>, ExecSpace, I>;
  using base::capacity_, base::isa_, base::isa_buf_, base::m_, base::mem_, base::n_, base::space_, base::suf_,
      base::singles_, base::suf_alt_, base::suf_buf_, base::timer_, base::ws_;

 public:
  using typename base::index_view, typename base::memory_space, typename base::policy, typename base::wide_view;

  explicit prefix_doubling(const ExecSpace& space) : base(space) {}

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
  // After rank_presorted, the rounds' pairs are free until the next run (the ranks are kept
  // apart): 6 entries a unit of capacity, for the caller's later steps.
  unsigned char* spare_bytes() const { return reinterpret_cast<unsigned char*>(pairs_.data()); }
  std::size_t spare_size() const { return pairs_.extent(0) * sizeof(I); }

  // The family's part of doubling_engine (public: the base calls them, and CUDA lambdas may
  // not live in private member functions).
  void reserve_family(std::size_t cap);
  void release_family() {
    detail::release(pairs_, &mem_);
    detail::release(offsets_buf_, &mem_);
  }
  std::pair<wide_view, wide_view> initial_key_buffers(std::size_t n) const { return {wide_of(0, n), wide_of(1, n)}; }
  // All n suffixes form one segment, slots are the identity. The scan reads the sorted
  // keys in pair 0 or 1; the surviving slots and segments go to pair 2.
  void first_refine(const wide_view& keys) {
    offsets_ = index_view(offsets_buf_.data(), offsets_buf_.extent(0));
    refine(keys, 2, true, keys_pair_store(keys.data() == wide_of(0, 0).data() ? 0 : 1));
  }
  void round(std::uint64_t h);
  void begin_run() { bucketed_stores_ = 0; }
  // How many refines stored their ranks grouped by target (bucketed_store.hpp).
  void add_counters(run_stats& stats) const { stats.set_counter("bucketed_rank_stores", bucketed_stores_); }
  // Where refine leaves the new ranks for a bucketed store into ISA (bucketed_store.hpp):
  // heads free during the scan, the other two free after it (m entries each). Empty: the
  // scan stores every rank itself.
  struct rank_store {
    index_view heads, targets_alt, values_alt;
  };
  template <class KeyView>
  void refine(const KeyView& keys, int out_pair, bool initial, const rank_store& store = {});
  void find_largest_segment();

 private:
  // The three buffers when the bucketed store pays for m_ ranks, else none. A doubling round
  // (`in_round`) takes it only while at least half the suffixes are active: measured on an H200
  // (bench/RESULTS.md §69), the sparser rounds' stores gain nothing (English) or lose (chrX,
  // whose active suffixes lie in repeats: their targets come in runs that L2 catches anyway).
  rank_store deferred_store(I* heads, I* targets_alt, I* values_alt, bool in_round = false) const {
    if (!bucketed_store_pays<ExecSpace>(n_ * sizeof(I), m_, in_round ? 2 * m_ >= n_ : true)) return {};
    return {index_view(heads, m_), index_view(targets_alt, m_), index_view(values_alt, m_)};
  }
  // The first refine of a run (or of a sample): the sorted 64-bit keys fill pair `key_pair` (0
  // or 1), the other of the two was the sort's double buffer.
  rank_store keys_pair_store(int key_pair) const {
    return deferred_store(first_of(1 - key_pair).data(), second_of(1 - key_pair).data(), first_of(key_pair).data());
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

  Kokkos::View<I*, memory_space> pairs_, offsets_buf_;

  // Per-run state.
  std::size_t num_segments_ = 0, largest_segment_ = 0, bucketed_stores_ = 0;
  int slot_pair_ = 0;  // the pair holding the active suffixes' slots and segments
  index_view offsets_;
};

template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::reserve_family(std::size_t cap) {
  pairs_ = allocate<I, memory_space>("strix::pairs", 6 * cap, &mem_);
  offsets_buf_ = allocate<I, memory_space>("strix::segment_offsets", cap / 2 + 2, &mem_);
  using primitives::radix_sort_pairs_scratch_bytes;
  ws_.reserve(radix_sort_pairs_scratch_bytes<I, I>(space_, cap));
  ws_.reserve(primitives::segmented_sort_pairs_scratch_bytes<I, I, I>(space_, cap, max_segmented_segments(cap)));
  ws_.reserve(primitives::scan_scratch_bytes<round_scan<wide_view, index_view, segment_marks<index_view>>>(space_, cap));
  ws_.reserve(primitives::scan_scratch_bytes<round_scan<index_view, index_view, segment_marks<index_view>>>(space_, cap));
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
  refine(wide_of(0, m), 2, true, keys_pair_store(0));
  const int rounds = this->double_until_sorted(h0);
  timer_ = nullptr;
  return rounds;
}

// One doubling round: key = ISA[s + h] (with the segment number above it when the
// pair fits the index type, so one radix sort does all segments), sort inside
// segments, then refine.
template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::round(std::uint64_t h) {
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
    const int key_pair = wide.data() == wide_of(free_a, 0).data() ? free_a : free_b;
    out_pair = key_pair == free_a ? free_b : free_a;
    // The keys fill the first 2m entries of their pair; the ranks may go after them where
    // they fit. The old slots and segments are free once the scan has read them.
    const bool heads_fit = 3 * m <= 2 * capacity_;
    refine(wide, out_pair, false,
           heads_fit ? deferred_store(pair_base(key_pair) + 2 * m, first_of(slot_pair_).data(),
                                      second_of(slot_pair_).data(), true)
                     : rank_store{});
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
    // The sort's other buffer takes the ranks; the keys and the old slots are free after the scan.
    I* const other = key.data() == first_of(free_a).data() ? second_of(free_a).data() : first_of(free_a).data();
    refine(key, free_b, false, deferred_store(other, key.data(), first_of(slot_pair_).data(), true));
  }
}

// One scan over the m active suffixes, sorted inside their segments by `keys`:
// new group heads into ISA, singletons dropped, surviving groups renumbered as
// segments (see round_scan.hpp). Survivors go to the double buffers, then swap in.
template <class ExecSpace, class I>
template <class KeyView>
void prefix_doubling<ExecSpace, I>::refine(const KeyView& keys, int out_pair, bool initial, const rank_store& store) {
  const std::size_t m = m_;
  round_scan<KeyView, index_view, segment_marks<index_view>> scan{
      keys,     {second_of(slot_pair_), second_of(out_pair)},
      first_of(slot_pair_), suf_, isa_, first_of(out_pair), suf_alt_, offsets_,
      static_cast<std::int64_t>(m), initial};
  scan.singles = singles_;
  scan.heads = store.heads;
  typename decltype(scan)::value_type totals{};
  primitives::scan(space_, ws_, "strix::refine", scan, static_cast<std::int64_t>(m), totals);
  // The scan left suf_ (every active suffix, sorted) in place and each one's rank in heads.
  if (store.heads.data() != nullptr) {
    ++bucketed_stores_;
    bucketed_store(space_, ws_, isa_, index_view(suf_.data(), m), store.heads, store.targets_alt, store.values_alt);
  }
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

}  // namespace strix::detail
