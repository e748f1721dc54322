// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the two prefix-doubling families share (prefix_doubling/, larsson_sadakane/): the
// common working memory (suffixes, ISA, the alphabet map, the primitives' scratch), the
// reserve / release / build skeleton, the initial sort of packed prefix keys, the rounds loop
// and the final scatter of SA from ISA (or, for build_bwt, the BWT written as the rounds go).
// Ranks are group heads in both (round_scan.hpp).
//
// A family derives from doubling_engine<Family, ExecSpace, I> and provides, publicly:
//   void reserve_family(std::size_t cap);  its own buffers (allocated on mem_) and scratch sizes
//   void release_family();
//   std::pair<wide_view, wide_view> initial_key_buffers(std::size_t n);  two n-key arrays
//   void first_refine(const wide_view& sorted_keys);  after the initial sort: suf_, suf_alt_,
//                                                     isa_ set, m_ = n
//   void round(std::uint64_t h);        one doubling round with offset h
//   void begin_run();                   per-run counters reset
//   void add_counters(run_stats& stats) const;
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <utility>

#include <strix/core/copy.hpp>
#include <strix/core/bits.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/workspace.hpp>
#include <strix/sa/detail/alphabet.hpp>
#include <strix/sa/detail/doubling/round_scan.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

template <class Family, class ExecSpace, class I>
class doubling_engine : public sa_engine<ExecSpace, I> {
 public:
  using memory_space = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using index_view = Kokkos::View<I*, memory_space, Kokkos::MemoryUnmanaged>;
  using wide_view = Kokkos::View<std::uint64_t*, memory_space, Kokkos::MemoryUnmanaged>;

  explicit doubling_engine(const ExecSpace& space) : space_(space), ws_(&mem_) {}

  std::uint64_t capacity() const override { return capacity_; }
  std::size_t bytes() const override { return mem_.current(); }
  std::size_t peak_bytes() const { return mem_.peak(); }

  // Grows the working memory to texts of n bytes (never shrinks).
  void reserve(std::uint64_t n) override {
    if (n <= capacity_ && capacity_ > 0) return;
    require_sa_length<I, ExecSpace>(n);
    const std::size_t cap = std::max<std::size_t>(n, 2);
    release();  // the old buffers first, so that growing does not need both at once
    suf_buf_ = allocate<I, memory_space>("strix::suffixes", cap, &mem_);
    isa_buf_ = allocate<I, memory_space>("strix::isa", cap, &mem_);
    alphabet_ = allocate<std::uint32_t, memory_space>("strix::alphabet", 256, &mem_);
    zero_slot_ = allocate<I, memory_space>("strix::bwt_zero_slot", 1, &mem_);
    rank_of_ = allocate<std::uint16_t, memory_space>("strix::char_rank", 256, &mem_);
    capacity_ = cap;
    // The scratch is sized once for the largest sorts and scans a run can ask for.
    ws_.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space_, cap));
    family().reserve_family(cap);
    ws_.result(64);
  }

  void release() override {
    family().release_family();
    detail::release(suf_buf_, &mem_);
    detail::release(isa_buf_, &mem_);
    detail::release(alphabet_, &mem_);
    detail::release(zero_slot_, &mem_);
    detail::release(rank_of_, &mem_);
    ws_.release();
    capacity_ = 0;
  }

  void build(const text_view<ExecSpace>& text, const index_view& sa, run_stats* stats) override {
    run(text, sa, nullptr, stats);
  }

  // The BWT as the rounds sort: each suffix writes its row's symbol when its group becomes a
  // singleton (round_scan's singleton_symbols), so neither the suffix array nor a pass over it
  // is needed; `workspace` serves as the sort's buffer, as the suffix array does in build().
  bool build_bwt(const text_view<ExecSpace>& text, const device_view<I, ExecSpace>& workspace,
                 const device_view<std::uint8_t, ExecSpace>& out, std::uint64_t& primary, run_stats* stats) override {
    primary = run(text, index_view(workspace.data(), workspace.extent(0)), out.data(), stats);
    return true;
  }

  bool makes_bwt(std::uint64_t) override { return true; }

  // build() when `bwt` is null; else the BWT into bwt[0, n), returning the primary index.
  std::uint64_t run(const text_view<ExecSpace>& text, const index_view& sa, std::uint8_t* bwt, run_stats* stats) {
    n_ = text.extent(0);
    reserve(n_);
    singles_ = {};  // (off: a run an exception ended must not leave the last BWT's views here)
    phase_timer<ExecSpace> timer(space_, stats);
    timer_ = &timer;
    // The caller's text and SA (or its place), and the BWT.
    const std::size_t caller_bytes = n_ + n_ * sizeof(I) + (bwt ? n_ : 0);
    family().begin_run();
    int rounds = 0;
    std::uint64_t primary = 0;
    if (n_ <= 1) {
      if (n_ == 1 && !bwt) strix::fill(space_, sa, I(0));
    } else {
      sa_ = sa;
      if (bwt) {
        singles_.text = decltype(singles_.text)(text.data(), n_);
        singles_.out = decltype(singles_.out)(bwt, n_);
        singles_.zero_slot = decltype(singles_.zero_slot)(zero_slot_.data(), 1);
      }
      initial_sort(text);
      timer.progress(1.0 - double(m_) / double(n_));  // suffixes already in their final place
      rounds = double_until_sorted(chars_per_key_);
      if (!bwt) write_suffix_array();
      singles_ = {};
    }
    if (bwt && n_ > 0) primary = finish_bwt(text, bwt, sa);
    timer.end();
    if (stats) {
      stats->set_counter("rounds", rounds);
      family().add_counters(*stats);
      stats->peak_bytes = mem_.peak() + caller_bytes;
    }
    timer_ = nullptr;
    return primary;
  }

  // Initial round: radix sort of the first k characters of every suffix packed into 64-bit
  // keys, k as large as the text's alphabet allows (alphabet.hpp), then the family's first
  // refine (one old group: the whole text).
  void initial_sort(const text_view<ExecSpace>& text) {
    timer_->begin("initial keys");
    const std::size_t n = n_;
    const device_view<std::uint16_t, ExecSpace> rank_of(rank_of_.data(), 256);
    const unsigned sigma =
        map_alphabet(space_, text, device_view<std::uint32_t, ExecSpace>(alphabet_.data(), 256), rank_of);
    const int b = bits_for(sigma);  // codes 0 (end) .. sigma
    const int k = 64 / b;
    chars_per_key_ = k;
    const auto buffers = family().initial_key_buffers(n);
    wide_view wide = buffers.first, wide_alt = buffers.second;
    index_view suf(suf_buf_.data(), n), suf_alt = sa_;
    pack_prefix_keys<ExecSpace, I>(space_, text, rank_of, k, b, wide, suf);
    timer_->begin("initial sort");
    if (primitives::radix_sort_pairs(space_, ws_, wide, wide_alt, suf, suf_alt, 0, k * b)) {
      std::swap(wide, wide_alt);
      std::swap(suf, suf_alt);
    }
    timer_->begin("initial ranks");
    suf_ = suf;
    suf_alt_ = suf_alt;
    isa_ = index_view(isa_buf_.data(), n);
    m_ = n;
    family().first_refine(wide);
  }

  // Rounds from prefix length h, doubling, until every group is a singleton; their number.
  int double_until_sorted(std::uint64_t h) {
    int rounds = 0;
    while (m_ > 0) {
      STRIX_REQUIRE(rounds < 64);  // h doubles: every group is a singleton once h >= n
      family().round(h);
      timer_->progress(1.0 - double(m_) / double(n_));
      h *= 2;
      ++rounds;
    }
    return rounds;
  }

  // Every group is a singleton: ISA is the inverse suffix array. (Public: CUDA lambdas may
  // not live in private or protected member functions.)
  void write_suffix_array() {
    timer_->begin("write SA");
    auto sa = sa_;
    auto isa = isa_;
    Kokkos::parallel_for(
        "strix::write_sa", policy(space_, 0, n_),
        KOKKOS_LAMBDA(const std::int64_t s) { sa(isa(s)) = static_cast<I>(s); });
  }

  // Every row holds its symbol at its slot but suffix 0's (row r; row 0 of a one-byte text):
  // divbwt's layout leaves that row out and puts T[n - 1] first, so rows 0..r - 1 move up by one
  // (through `scratch`, the suffix array's place, free now). Returns the primary index r + 1.
  std::uint64_t finish_bwt(const text_view<ExecSpace>& text, std::uint8_t* bwt, const index_view& scratch) {
    timer_->begin("write BWT");
    using bytes = Kokkos::View<std::uint8_t*, memory_space, Kokkos::MemoryUnmanaged>;
    using const_bytes = Kokkos::View<const std::uint8_t*, memory_space, Kokkos::MemoryUnmanaged>;
    const std::uint64_t r = n_ == 1 ? 0 : strix::to_host(space_, index_view(zero_slot_.data(), 1))(0);
    STRIX_REQUIRE(r < n_);
    const bytes before(reinterpret_cast<std::uint8_t*>(scratch.data()), r);
    strix::copy(space_, before, const_bytes(bwt, r));
    strix::copy(space_, bytes(bwt + 1, r), const_bytes(before.data(), r));
    strix::copy(space_, bytes(bwt, 1), const_bytes(text.data() + n_ - 1, 1));
    return r + 1;
  }

 protected:
  Family& family() { return static_cast<Family&>(*this); }

  ExecSpace space_;
  memory_tracker mem_;
  primitives::workspace<ExecSpace> ws_;
  std::size_t capacity_ = 0;
  Kokkos::View<I*, memory_space> suf_buf_, isa_buf_;
  Kokkos::View<std::uint32_t*, memory_space> alphabet_;  // 1 for the bytes the text has
  Kokkos::View<std::uint16_t*, memory_space> rank_of_;
  Kokkos::View<I*, memory_space> zero_slot_;  // suffix 0's row, when the BWT is made

  // Per-run state.
  phase_timer<ExecSpace>* timer_ = nullptr;
  std::size_t n_ = 0, m_ = 0;  // text length, active suffixes
  int chars_per_key_ = 0;
  index_view sa_, isa_;
  index_view suf_, suf_alt_;  // active suffixes and their sort double buffer
  singleton_symbols<index_view> singles_;  // on while build_bwt runs
};

}  // namespace strix::detail
