#pragma once
// Suffix array by prefix doubling with Larsson-Sadakane filtering.
//
// Ranks are "group heads": ISA[s] is the SA index of the first suffix of s's group
// (suffixes sharing their first h characters). Each round re-sorts only the suffixes
// of unsorted (non-singleton) groups by ISA[s + h] inside their group, then drops the
// suffixes that became singletons, so later rounds touch only what is still unsorted.
//
// End of text: characters are mapped to their rank 1..sigma in the text's alphabet and
// 0 stands for "past the end", so the initial keys order a suffix before any longer
// suffix it is a prefix of. A suffix shorter than h is then alone in its group, so an
// active suffix has s + h <= n; s + h == n (the empty suffix) gets the lowest key.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include <strix/detail/bits.hpp>
#include <strix/detail/memory.hpp>
#include <strix/detail/scans.hpp>
#include <strix/detail/sort.hpp>
#include <strix/detail/timer.hpp>
#include <strix/error.hpp>
#include <strix/options.hpp>

namespace strix::detail {

// Compaction of the active suffixes after a round: drops singletons, renumbers the
// surviving groups as segments and records where each segment begins.
template <class I, class MemorySpace>
struct compact_active {
  using view = Kokkos::View<I*, MemorySpace>;
  using value_type = two_counts<I>;
  Kokkos::View<const std::uint8_t*, MemorySpace> flag;  // first of a (new) group
  view pos, suf;               // in: SA slot and suffix of each active element
  view pos_out, suf_out, seg_out, offsets;
  std::int64_t m;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& upd,
                                         const bool final) const {
    const bool head = flag(k);
    const bool single = head && (k + 1 == m || flag(k + 1));
    if (single) return;
    if (final) {
      const I dst = upd.kept;
      pos_out(dst) = pos(k);
      suf_out(dst) = suf(k);
      seg_out(dst) = head ? upd.segments : I(upd.segments - 1);
      if (head) offsets(upd.segments) = dst;
    }
    upd.kept += 1;
    if (head) upd.segments += 1;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v.kept = 0; v.segments = 0; }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    dst.kept += src.kept;
    dst.segments += src.segments;
  }
};

template <class ExecSpace, class I>
class prefix_doubling {
  using memory_space = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index_view = Kokkos::View<I*, memory_space>;
  using key_view = Kokkos::View<std::uint64_t*, memory_space>;
  using flag_view = Kokkos::View<std::uint8_t*, memory_space>;
  using sa_view = Kokkos::View<I*, memory_space, Kokkos::MemoryUnmanaged>;

 public:
  prefix_doubling(const ExecSpace& space, run_stats* stats, bool progress)
      : space_(space), stats_(stats), timer_(space, stats, progress) {
    ws_.tracker = &mem_;
  }

  template <class TextView>
  void run(const TextView& text, const sa_view& sa) {
    n_ = text.extent(0);
    mem_.acquire(n_ + n_ * sizeof(I));  // the caller's text and suffix array
    if (n_ <= 1) {
      if (n_ == 1) Kokkos::deep_copy(space_, sa, I(0));
      finish();
      return;
    }
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
    if (stats_) stats_->rounds = rounds;
    finish();
  }

  // The memory accounting of the run, for callers that report it.
  const memory_tracker& memory() const { return mem_; }

  // Public only because CUDA lambdas may not live in private member functions.
  template <class TextView>
  void initial_sort(const TextView& text);
  void doubling_round(std::uint64_t h);
  void refine();

 private:
  void finish() {
    release(isa_, &mem_);
    release(pos_, &mem_); release(suf_, &mem_); release(seg_, &mem_);
    release(key_, &mem_); release(key_alt_, &mem_); release(suf_alt_, &mem_);
    release(head_, &mem_); release(flag_, &mem_); release(offsets_, &mem_);
    release(wide_, &mem_); release(wide_alt_, &mem_); release(ws_.bytes, &mem_);
    if (stats_) stats_->peak_bytes = mem_.peak();
  }

  ExecSpace space_;
  run_stats* stats_;
  phase_timer<ExecSpace> timer_;
  memory_tracker mem_;
  sort_workspace<ExecSpace> ws_;
  std::size_t n_ = 0, m_ = 0, num_segments_ = 0, max_segment_ = 0;
  int chars_per_key_ = 0;
  sa_view sa_;
  index_view isa_;
  // Active (unsorted) suffixes: SA slot, suffix, segment number, sort key.
  index_view pos_, suf_, seg_, key_, key_alt_, suf_alt_, head_, offsets_;
  flag_view flag_;
  key_view wide_, wide_alt_;  // composite (segment, key) keys for the composite sort
};

// Initial round: radix sort of the first k characters of every suffix packed into
// 64-bit keys, k as large as the text's alphabet allows.
template <class ExecSpace, class I>
template <class TextView>
void prefix_doubling<ExecSpace, I>::initial_sort(const TextView& text) {
  const std::size_t n = n_;
  auto present = allocate<std::uint32_t, memory_space>("strix::alphabet", 256, &mem_);
  Kokkos::deep_copy(space_, present, 0u);
  Kokkos::parallel_for(
      "strix::alphabet", policy(space_, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i) { present(text(i)) = 1u; });
  auto present_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), present);
  auto rank_of = allocate<std::uint16_t, memory_space>("strix::char_rank", 256, &mem_);
  auto rank_h = Kokkos::create_mirror_view(rank_of);
  unsigned sigma = 0;
  for (int c = 0; c < 256; ++c) rank_h(c) = present_h(c) ? static_cast<std::uint16_t>(++sigma) : 0;
  Kokkos::deep_copy(space_, rank_of, rank_h);
  const int b = bits_for(sigma);  // codes 0 (end) .. sigma
  const int k = 64 / b;
  chars_per_key_ = k;

  wide_ = allocate<std::uint64_t, memory_space>("strix::keys", n, &mem_);
  wide_alt_ = allocate<std::uint64_t, memory_space>("strix::keys_alt", n, &mem_);
  suf_ = allocate<I, memory_space>("strix::suffixes", n, &mem_);
  suf_alt_ = allocate<I, memory_space>("strix::suffixes_alt", n, &mem_);
  auto wide = wide_;
  auto suf = suf_;
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
  release(present, &mem_);
  release(rank_of, &mem_);
  timer_.lap("initial keys");
  sort_pairs(space_, ws_, wide_, wide_alt_, suf_, suf_alt_, n, 0, k * b);
  timer_.lap("initial sort");

  // All n suffixes form one segment; pos is the identity.
  isa_ = allocate<I, memory_space>("strix::isa", n, &mem_);
  pos_ = allocate<I, memory_space>("strix::slots", n, &mem_);
  seg_ = allocate<I, memory_space>("strix::segments", n, &mem_);
  head_ = allocate<I, memory_space>("strix::heads", n, &mem_);
  key_alt_ = allocate<I, memory_space>("strix::rank_keys_alt", n, &mem_);
  flag_ = allocate<std::uint8_t, memory_space>("strix::group_flags", n, &mem_);
  offsets_ = allocate<I, memory_space>("strix::offsets", n / 2 + 2, &mem_);
  auto pos = pos_;
  auto seg = seg_;
  auto flag = flag_;
  wide = wide_;
  Kokkos::parallel_for(
      "strix::initial_groups", policy(space_, 0, n), KOKKOS_LAMBDA(const std::int64_t j) {
        pos(j) = static_cast<I>(j);
        seg(j) = 0;
        flag(j) = (j == 0 || wide(j) != wide(j - 1)) ? 1 : 0;
      });
  release(wide_, &mem_);
  release(wide_alt_, &mem_);
  m_ = n;
  refine();
  // The rank keys of the doubling rounds need their own buffer from here on.
  key_ = allocate<I, memory_space>("strix::rank_keys", n, &mem_);
  timer_.lap("initial ranks");
}

// One doubling round: key = ISA[s + h], sort inside groups, then refine.
template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::doubling_round(std::uint64_t h) {
  const std::size_t m = m_, n = n_;
  auto key = key_;
  auto suf = suf_;
  auto isa = isa_;
  Kokkos::parallel_for(
      "strix::gather_ranks", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
        // A suffix of length exactly h reaches the end: the empty suffix ranks lowest.
        const std::size_t p = static_cast<std::size_t>(suf(k)) + h;
        key(k) = p < n ? static_cast<I>(isa(p) + 1) : I(0);
      });
  timer_.lap("gather");

  const int rank_bits = bits_for(n_);  // keys are 0..n
  const int segment_bits = bits_for(num_segments_ - 1);
  const bool composite = prefers_composite_sort<ExecSpace>() &&
                         rank_bits + segment_bits <= 64 && max_segment_ > 4096;
  if (composite) {
    // One radix sort of (segment << rank_bits | key): fast where segments are large.
    if (wide_.extent(0) < m) {
      release(wide_, &mem_);
      release(wide_alt_, &mem_);
      wide_ = allocate<std::uint64_t, memory_space>("strix::composite_keys", m, &mem_);
      wide_alt_ = allocate<std::uint64_t, memory_space>("strix::composite_keys_alt", m, &mem_);
    }
    auto wide = wide_;
    auto seg = seg_;
    Kokkos::parallel_for(
        "strix::composite_keys", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
          wide(k) = (static_cast<std::uint64_t>(seg(k)) << rank_bits) | key(k);
        });
    sort_pairs(space_, ws_, wide_, wide_alt_, suf_, suf_alt_, m, 0, rank_bits + segment_bits);
    auto wide_sorted = wide_;
    const std::uint64_t mask = (rank_bits >= 64) ? ~0ull : ((1ull << rank_bits) - 1);
    Kokkos::parallel_for(
        "strix::composite_unpack", policy(space_, 0, m),
        KOKKOS_LAMBDA(const std::int64_t k) { key(k) = static_cast<I>(wide_sorted(k) & mask); });
  } else {
    auto offsets = Kokkos::subview(offsets_, Kokkos::make_pair(std::size_t(0), num_segments_ + 1));
    segmented_sort_pairs(space_, ws_, key_, key_alt_, suf_, suf_alt_, m, offsets, num_segments_,
                         rank_bits);
  }
  timer_.lap("sort");

  key = key_;
  auto seg = seg_;
  auto flag = flag_;
  Kokkos::parallel_for(
      "strix::group_flags", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
        flag(k) = (k == 0 || seg(k) != seg(k - 1) || key(k) != key(k - 1)) ? 1 : 0;
      });
  refine();
  timer_.lap("rank update");
}

// From group flags over the m active elements (sorted within their segments):
// write SA and ISA, drop singletons, renumber the remaining groups as segments.
template <class ExecSpace, class I>
void prefix_doubling<ExecSpace, I>::refine() {
  const std::size_t m = m_;
  auto flag = flag_;
  auto pos = pos_;
  auto suf = suf_;
  auto head = head_;
  auto sa = sa_;
  auto isa = isa_;
  Kokkos::parallel_scan("strix::group_heads", policy(space_, 0, m),
                        group_head_scan<I, flag_view, index_view, index_view>{flag, pos, head});
  Kokkos::parallel_for(
      "strix::write_ranks", policy(space_, 0, m), KOKKOS_LAMBDA(const std::int64_t k) {
        const I s = suf(k);
        sa(pos(k)) = s;
        isa(s) = head(k);
      });
  // Survivors go to key_alt_ (slots), suf_alt_ (suffixes) and head_ (segments).
  compact_active<I, memory_space> compact{flag, pos, suf, key_alt_, suf_alt_, head_, offsets_,
                                          static_cast<std::int64_t>(m)};
  two_counts<I> totals{0, 0};
  Kokkos::parallel_scan("strix::compact", policy(space_, 0, m), compact, totals);
  m_ = totals.kept;
  num_segments_ = totals.segments;
  std::swap(pos_, key_alt_);
  std::swap(suf_, suf_alt_);
  std::swap(seg_, head_);
  if (m_ == 0) return;
  auto offsets = offsets_;
  const I kept = totals.kept;
  const std::size_t last = num_segments_;
  Kokkos::parallel_for(
      "strix::close_offsets", policy(space_, 0, 1),
      KOKKOS_LAMBDA(const std::int64_t) { offsets(last) = kept; });
  std::size_t largest = 0;
  Kokkos::parallel_reduce(
      "strix::largest_segment", policy(space_, 0, static_cast<std::int64_t>(last)),
      KOKKOS_LAMBDA(const std::int64_t s, std::size_t& mx) {
        const std::size_t len = offsets(s + 1) - offsets(s);
        if (len > mx) mx = len;
      },
      Kokkos::Max<std::size_t>(largest));
  max_segment_ = largest;
}

// Entry point used by strix::suffix_array.
template <class ExecSpace, class TextView, class SAView>
void prefix_doubling_sa(const ExecSpace& space, const TextView& text, const SAView& sa,
                        const sa_options& options, run_stats* stats) {
  using I = typename SAView::value_type;
  STRIX_USER_REQUIRE(sa.span_is_contiguous(), "the suffix array view must be contiguous");
  prefix_doubling<ExecSpace, I> algo(space, stats, options.progress);
  algo.run(text, Kokkos::View<I*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>(
                     sa.data(), sa.extent(0)));
}

}  // namespace strix::detail
