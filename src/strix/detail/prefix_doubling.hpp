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

#include <strix/detail/bits.hpp>
#include <strix/detail/memory.hpp>
#include <strix/detail/round_scan.hpp>
#include <strix/detail/primitives.hpp>
#include <strix/detail/timer.hpp>
#include <strix/error.hpp>
#include <strix/options.hpp>

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
class prefix_doubling {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index_view = Kokkos::View<I*, memory_space, Kokkos::MemoryUnmanaged>;
  using wide_view = Kokkos::View<std::uint64_t*, memory_space, Kokkos::MemoryUnmanaged>;

  prefix_doubling(const ExecSpace& space, std::size_t capacity) : space_(space) {
    ws_.tracker = &mem_;
    reserve(capacity);
  }

  std::size_t capacity() const { return capacity_; }
  std::size_t bytes() const { return mem_.current(); }

  // Grows the working memory to texts of n bytes (never shrinks).
  void reserve(std::size_t n);

  template <class TextView>
  void run(const TextView& text, const index_view& sa, const sa_options& options,
           run_stats* stats);

  // Public only because CUDA lambdas may not live in private member functions.
  template <class TextView>
  void initial_sort(const TextView& text);
  void doubling_round(std::uint64_t h);
  void write_suffix_array();
  template <class KeyView>
  void refine(const KeyView& keys, int out_pair, bool initial);
  void find_largest_segment();

 private:
  // The two index arrays of pair p, and the pair seen as one array of 64-bit keys.
  index_view first_of(int p) const { return index_view(pair_base(p), capacity_); }
  index_view second_of(int p) const { return index_view(pair_base(p) + capacity_, capacity_); }
  wide_view wide_of(int p, std::size_t len) const {
    return wide_view(reinterpret_cast<std::uint64_t*>(pair_base(p)), len);
  }
  I* pair_base(int p) const { return pairs_.data() + 2 * capacity_ * static_cast<std::size_t>(p); }

  ExecSpace space_;
  memory_tracker mem_;
  sort_workspace<ExecSpace> ws_;
  std::size_t capacity_ = 0;
  Kokkos::View<I*, memory_space> pairs_, suf_buf_, isa_buf_, offsets_buf_;
  Kokkos::View<std::uint32_t*, memory_space> alphabet_;
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
void prefix_doubling<ExecSpace, I>::reserve(std::size_t n) {
  if (n <= capacity_ && pairs_.data()) return;
  const std::size_t cap = std::max<std::size_t>(n, 2);
  // Drop the old buffers first so that growing does not need both at once.
  release(pairs_, &mem_);
  release(suf_buf_, &mem_); release(isa_buf_, &mem_); release(offsets_buf_, &mem_);
  release(ws_.bytes, &mem_);
  pairs_ = allocate<I, memory_space>("strix::pairs", 6 * cap, &mem_);
  suf_buf_ = allocate<I, memory_space>("strix::suffixes", cap, &mem_);
  isa_buf_ = allocate<I, memory_space>("strix::isa", cap, &mem_);
  offsets_buf_ = allocate<I, memory_space>("strix::segment_offsets", cap / 2 + 2, &mem_);
  if (!alphabet_.data()) {
    alphabet_ = allocate<std::uint32_t, memory_space>("strix::alphabet", 256, &mem_);
    rank_of_ = allocate<std::uint16_t, memory_space>("strix::char_rank", 256, &mem_);
  }
  capacity_ = cap;
  // Size the sort scratch once for the largest sorts a run can ask for.
  ws_.reserve(sort_scratch_bytes<ExecSpace, std::uint64_t, I>(cap));
  ws_.reserve(sort_scratch_bytes<ExecSpace, I, I>(cap));
  ws_.reserve(segmented_sort_scratch_bytes<ExecSpace, I, I, I>(cap, max_segmented_segments(cap)));
  ws_.reserve(scan_scratch<ExecSpace, round_scan<wide_view, index_view>>::bytes(cap));
  ws_.reserve(scan_scratch<ExecSpace, round_scan<index_view, index_view>>::bytes(cap));
}

template <class ExecSpace, class I>
template <class TextView>
void prefix_doubling<ExecSpace, I>::run(const TextView& text, const index_view& sa,
                                        const sa_options& options, run_stats* stats) {
  n_ = text.extent(0);
  reserve(n_);
  phase_timer<ExecSpace> timer(space_, stats, options.progress);
  timer_ = &timer;
  const std::size_t caller_bytes = n_ + n_ * sizeof(I);  // the caller's text and SA
  if (n_ <= 1) {
    if (n_ == 1) Kokkos::deep_copy(space_, sa, I(0));
  } else {
    sa_ = sa;
    initial_sort(text);
    std::uint64_t h = chars_per_key_;
    int rounds = 0;
    while (m_ > 0) {
      STRIX_REQUIRE(h < n_);  // every group is a singleton once h >= n
      doubling_round(h);
      h *= 2;
      ++rounds;
    }
    write_suffix_array();
    if (stats) stats->rounds = rounds;
  }
  if (stats) stats->peak_bytes = mem_.peak() + caller_bytes;
  timer_ = nullptr;
}

// Initial round: radix sort of the first k characters of every suffix packed into
// 64-bit keys, k as large as the text's alphabet allows.
template <class ExecSpace, class I>
template <class TextView>
void prefix_doubling<ExecSpace, I>::initial_sort(const TextView& text) {
  const std::size_t n = n_;
  auto present = alphabet_;
  auto rank_of = rank_of_;
  Kokkos::deep_copy(space_, present, 0u);
  Kokkos::parallel_for(
      "strix::alphabet", policy(space_, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        // Read first: stores from every thread into the same few words would serialise.
        const auto c = text(i);
        if (!present(c)) present(c) = 1u;
      });
  auto present_h = Kokkos::create_mirror_view(present);
  Kokkos::deep_copy(space_, present_h, present);
  space_.fence();
  auto rank_h = Kokkos::create_mirror_view(rank_of);
  unsigned sigma = 0;
  for (int c = 0; c < 256; ++c) rank_h(c) = present_h(c) ? static_cast<std::uint16_t>(++sigma) : 0;
  Kokkos::deep_copy(space_, rank_of, rank_h);
  const int b = bits_for(sigma);  // codes 0 (end) .. sigma
  const int k = 64 / b;
  chars_per_key_ = k;

  wide_view wide = wide_of(0, n), wide_alt = wide_of(1, n);
  index_view suf(suf_buf_.data(), n);
  index_view suf_alt = sa_;
  Kokkos::parallel_for(
      "strix::pack_keys", policy(space_, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        std::uint64_t key = 0;
        for (int t = 0; t < k; ++t) {
          const std::size_t p = static_cast<std::size_t>(i) + t;
          key = (key << b) | (p < n ? rank_of(text(p)) : 0u);
        }
        wide(i) = key;
        suf(i) = static_cast<I>(i);
      });
  timer_->lap("initial keys");
  sort_pairs(space_, ws_, wide, wide_alt, suf, suf_alt, n, 0, k * b);
  timer_->lap("initial sort");

  // All n suffixes form one segment, slots are the identity. The scan reads the sorted
  // keys in pair 0 or 1; the surviving slots and segments go to pair 2.
  suf_ = suf;
  suf_alt_ = suf_alt;
  isa_ = index_view(isa_buf_.data(), n);
  offsets_ = index_view(offsets_buf_.data(), offsets_buf_.extent(0));
  m_ = n;
  refine(wide, 2, true);
  timer_->lap("initial ranks");
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
      host_backend_v<ExecSpace> || num_segments_ <= max_segmented_segments(capacity_);
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
    Kokkos::parallel_for(
        "strix::gather_ranks_wide", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
          // A suffix of length exactly h reaches the end: the empty suffix ranks lowest.
          const std::size_t p = static_cast<std::size_t>(suf(k)) + h;
          const std::uint64_t rank = p < n ? static_cast<std::uint64_t>(isa(p)) + 1 : 0;
          wide(k) = (static_cast<std::uint64_t>(seg(k)) << shift) | rank;
        });
    timer_->lap("gather");
    sort_pairs(space_, ws_, wide, wide_alt, suf, suf_alt, m, 0, key_bits);
    if (suf.data() != suf_.data()) std::swap(suf_, suf_alt_);
    timer_->lap("sort");
    out_pair = wide.data() == wide_of(free_a, 0).data() ? free_b : free_a;
    refine(wide, out_pair, false);
  } else {
    index_view key = first_of(free_a), key_alt = second_of(free_a);
    key = index_view(key.data(), m);
    key_alt = index_view(key_alt.data(), m);
    const bool composite = how == strategy::composite_narrow;
    Kokkos::parallel_for(
        "strix::gather_ranks", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
          const std::size_t p = static_cast<std::size_t>(suf(k)) + h;
          const I rank = p < n ? static_cast<I>(isa(p) + 1) : I(0);
          key(k) = composite ? static_cast<I>((seg(k) << shift) | rank) : rank;
        });
    timer_->lap("gather");
    if (composite) {
      sort_pairs(space_, ws_, key, key_alt, suf, suf_alt, m, 0, key_bits);
    } else {
      auto offsets = Kokkos::subview(offsets_, Kokkos::make_pair(std::size_t(0), num_segments_ + 1));
      segmented_sort_pairs(space_, ws_, key, key_alt, suf, suf_alt, m, offsets, num_segments_,
                           rank_bits);
    }
    if (suf.data() != suf_.data()) std::swap(suf_, suf_alt_);
    timer_->lap("sort");
    refine(key, free_b, false);
  }
  timer_->lap("rank update");
}

// One scan over the m active suffixes, sorted inside their segments by `keys`:
// new group heads into ISA, singletons dropped, surviving groups renumbered as
// segments (see round_scan.hpp). Survivors go to the double buffers, then swap in.
template <class ExecSpace, class I>
template <class KeyView>
void prefix_doubling<ExecSpace, I>::refine(const KeyView& keys, int out_pair, bool initial) {
  const std::size_t m = m_;
  round_scan<KeyView, index_view> scan{keys,
                                       second_of(slot_pair_),
                                       first_of(slot_pair_),
                                       suf_,
                                       isa_,
                                       first_of(out_pair),
                                       second_of(out_pair),
                                       suf_alt_,
                                       offsets_,
                                       static_cast<std::int64_t>(m),
                                       initial};
  typename round_scan<KeyView, index_view>::value_type totals{};
  scan_functor(space_, ws_, "strix::refine", scan, static_cast<std::int64_t>(m), totals);
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
  auto sa = sa_;
  auto isa = isa_;
  Kokkos::parallel_for(
      "strix::write_sa", policy(space_, 0, n_),
      KOKKOS_LAMBDA(const std::int64_t s) { sa(isa(s)) = static_cast<I>(s); });
  timer_->lap("write SA");
}

// Entry point used by strix::suffix_array.
template <class ExecSpace, class I, class TextView, class SAView>
void prefix_doubling_sa(prefix_doubling<ExecSpace, I>& algo, const TextView& text,
                        const SAView& sa, const sa_options& options, run_stats* stats) {
  STRIX_USER_REQUIRE(sa.span_is_contiguous(), "the suffix array view must be contiguous");
  algo.run(text, Kokkos::View<I*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>(
                     sa.data(), sa.extent(0)),
           options, stats);
}

}  // namespace strix::detail
