#pragma once
// Longest repeat queries (Tian and Xu, "On Longest Repeat Queries Using GPU"), 0-based.
//
// Definitions. A repeat is a substring occurring at least twice in T (occurrences may
// overlap); an occurrence T[s, s + l) of one covers positions s .. s + l - 1. For a
// position k, the longest repeats covering k are the occurrences (s, l) of repeats with
// s <= k < s + l and l as large as possible; they exist unless T[k] is a singleton.
// Each is a distinct start s (and, by Lemma 3, l is the left-bounded longest repeat at s).
//   - leftmost: the one with the smallest start, the paper's "leftmost LR"; (0, 0) when
//     none covers k.
//   - all: every one, in increasing start order; none gives an empty list.
// Example: for "mississippi", position 4 ('i') is covered by "issi" at 1 and at 4:
// leftmost gives (1, 4), all gives (1, 4), (4, 4); position 0 ('m') gives (0, 0) and [].
//
// Both methods give the same results: `raw` walks the raw LLR array leftwards (O(alpha)
// per position, alpha = LLRs covering it: large on long repeats); `compact` keeps only
// the useful LLRs and binary-searches them (O(log n + beta)).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include <strix/detail/longest_repeat_llr.hpp>
#include <strix/detail/longest_repeat_query.hpp>
#include <strix/detail/memory.hpp>
#include <strix/detail/repeats_sequential.hpp>
#include <strix/detail/repeats_types.hpp>
#include <strix/detail/timer.hpp>
#include <strix/detail/view_checks.hpp>
#include <strix/error.hpp>
#include <strix/options.hpp>

namespace strix {

struct repeat_options {
  repeat_method method = repeat_method::compact;
  bool progress = false;  // print one line per phase on stderr
};

// Results of all_longest_repeats: the records of position k are
// records(offsets(k)) .. records(offsets(k + 1) - 1); offsets has n + 1 entries.
template <class I, class MemorySpace>
using all_repeats_result = detail::all_repeats_views<I, MemorySpace>;

namespace detail {

template <class ExecutionSpace, class RankView, class LCPView>
void check_repeat_inputs(const RankView& rank, const LCPView& lcp) {
  check_index_view<ExecutionSpace, RankView>();
  check_index_view<ExecutionSpace, LCPView>();
  static_assert(std::is_same<typename RankView::non_const_value_type,
                             typename LCPView::non_const_value_type>::value,
                "strix: rank and LCP arrays must have the same index type");
  STRIX_USER_REQUIRE(rank.extent(0) == lcp.extent(0),
                     "longest repeats: rank array of " + std::to_string(rank.extent(0)) +
                         " entries and LCP array of " + std::to_string(lcp.extent(0)));
}

}  // namespace detail

// llr(i) = length of the longest repeat starting at i (0: T[i] is a singleton), from the
// rank (inverse suffix array) and LCP arrays.
template <class ExecutionSpace, class RankView, class LCPView, class LLRView>
void left_bounded_repeat_lengths(const ExecutionSpace& space, const RankView& rank,
                                 const LCPView& lcp, const LLRView& llr) {
  detail::check_repeat_inputs<ExecutionSpace>(rank, lcp);
  detail::check_index_view<ExecutionSpace, LLRView>();
  STRIX_USER_REQUIRE(llr.extent(0) == rank.extent(0), "longest repeats: LLR array size differs");
  detail::llr_lengths(space, rank, lcp, llr);
}

// out(k) = the leftmost longest repeat covering k, (0, 0) if none; out is a view of
// n strix::repeat<I>, I the index type of rank and lcp.
template <class ExecutionSpace, class RankView, class LCPView, class OutView>
void leftmost_longest_repeats(const ExecutionSpace& space, const RankView& rank,
                              const LCPView& lcp, const OutView& out,
                              const repeat_options& options = {}, run_stats* stats = nullptr) {
  detail::check_repeat_inputs<ExecutionSpace>(rank, lcp);
  using I = typename RankView::non_const_value_type;
  using mem = typename ExecutionSpace::memory_space;
  static_assert(std::is_same<typename OutView::value_type, repeat<I>>::value,
                "strix: the output must be a writable view of strix::repeat<I>");
  static_assert(detail::accessible_from_v<ExecutionSpace, OutView>,
                "strix: the output must be accessible from the execution space");
  const std::uint64_t n = rank.extent(0);
  STRIX_USER_REQUIRE(out.extent(0) == n, "longest repeats: output has " +
                                             std::to_string(out.extent(0)) + " entries, not " +
                                             std::to_string(n));
  detail::memory_tracker tracker;
  tracker.acquire(2 * n * sizeof(I) + n * sizeof(repeat<I>));  // the caller's views
  detail::phase_timer<ExecutionSpace> timer(space, stats, options.progress);
  auto llr = detail::allocate<I, mem>("strix::llr", n, &tracker);
  detail::llr_lengths(space, rank, lcp, llr);
  timer.lap("llr");
  if (options.method == repeat_method::raw) {
    detail::leftmost_raw(space, llr, out);
  } else {
    auto llrc = detail::compact_llr(space, llr, &tracker);
    detail::release(llr, &tracker);
    timer.lap("llr compaction");
    detail::leftmost_compact(space, llrc, out);
  }
  timer.lap("longest repeats");
  if (stats) stats->peak_bytes = tracker.peak();
}

// Every longest repeat covering every position (see the definitions above).
template <class ExecutionSpace, class RankView, class LCPView>
all_repeats_result<typename RankView::non_const_value_type, typename ExecutionSpace::memory_space>
all_longest_repeats(const ExecutionSpace& space, const RankView& rank, const LCPView& lcp,
                    const repeat_options& options = {}, run_stats* stats = nullptr) {
  detail::check_repeat_inputs<ExecutionSpace>(rank, lcp);
  using I = typename RankView::non_const_value_type;
  using mem = typename ExecutionSpace::memory_space;
  const std::uint64_t n = rank.extent(0);
  detail::memory_tracker tracker;
  tracker.acquire(2 * n * sizeof(I));  // the caller's views
  detail::phase_timer<ExecutionSpace> timer(space, stats, options.progress);
  auto llr = detail::allocate<I, mem>("strix::llr", n, &tracker);
  detail::llr_lengths(space, rank, lcp, llr);
  timer.lap("llr");
  all_repeats_result<I, mem> result;
  if (options.method == repeat_method::raw) {
    result = detail::all_raw(space, llr, &tracker);
  } else {
    auto llrc = detail::compact_llr(space, llr, &tracker);
    detail::release(llr, &tracker);
    timer.lap("llr compaction");
    result = detail::all_compact(space, llrc, n, &tracker);
  }
  timer.lap("longest repeats");
  if (stats) stats->peak_bytes = tracker.peak();
  return result;
}

}  // namespace strix
