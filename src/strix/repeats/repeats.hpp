// SPDX-License-Identifier: BSD-3-Clause
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
// Compiled into libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include <strix/core/device_length.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/repeats/repeat.hpp>

namespace strix {

struct repeat_options {
  repeat_method method = repeat_method::compact;
};

namespace detail {

template <class ExecSpace, class I>
void left_bounded_repeat_lengths(const ExecSpace& space, const device_view<const I, ExecSpace>& rank,
                                 const device_view<const I, ExecSpace>& lcp,
                                 const device_view<I, ExecSpace>& llr);
template <class ExecSpace, class I>
void leftmost_longest_repeats(const ExecSpace& space, const device_view<const I, ExecSpace>& rank,
                              const device_view<const I, ExecSpace>& lcp,
                              const device_view<repeat<I>, ExecSpace>& out,
                              const repeat_options& options, run_stats* stats);
template <class ExecSpace, class I>
all_repeats_result<I, typename ExecSpace::memory_space> all_longest_repeats(
    const ExecSpace& space, const device_view<const I, ExecSpace>& rank,
    const device_view<const I, ExecSpace>& lcp, const repeat_options& options, run_stats* stats);

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
  check_length_on<typename RankView::non_const_value_type, ExecutionSpace>(
      rank.extent(0), "rank array of " + std::to_string(rank.extent(0)) + " entries");
}

}  // namespace detail

// llr(i) = length of the longest repeat starting at i (0: T[i] is a singleton), from the
// rank (inverse suffix array) and LCP arrays.
template <class ExecutionSpace, class RankView, class LCPView, class LLRView>
void left_bounded_repeat_lengths(const ExecutionSpace& space, const RankView& rank,
                                 const LCPView& lcp, const LLRView& llr) {
  detail::check_repeat_inputs<ExecutionSpace>(rank, lcp);
  detail::check_index_view<ExecutionSpace, LLRView>();
  using I = typename RankView::non_const_value_type;
  STRIX_USER_REQUIRE(llr.extent(0) == rank.extent(0), "longest repeats: LLR array size differs");
  detail::left_bounded_repeat_lengths<ExecutionSpace, I>(
      space, detail::as_device_view<const I, ExecutionSpace>(rank, "rank"),
      detail::as_device_view<const I, ExecutionSpace>(lcp, "LCP"),
      detail::as_device_view<I, ExecutionSpace>(llr, "LLR"));
}

// out(k) = the leftmost longest repeat covering k, (0, 0) if none; out is a view of
// n strix::repeat<I>, I the index type of rank and lcp.
template <class ExecutionSpace, class RankView, class LCPView, class OutView>
void leftmost_longest_repeats(const ExecutionSpace& space, const RankView& rank,
                              const LCPView& lcp, const OutView& out,
                              const repeat_options& options = {}, run_stats* stats = nullptr) {
  detail::check_repeat_inputs<ExecutionSpace>(rank, lcp);
  using I = typename RankView::non_const_value_type;
  static_assert(std::is_same<typename OutView::value_type, repeat<I>>::value,
                "strix: the output must be a writable view of strix::repeat<I>");
  STRIX_USER_REQUIRE(out.extent(0) == rank.extent(0),
                     "longest repeats: output has " + std::to_string(out.extent(0)) +
                         " entries, not " + std::to_string(rank.extent(0)));
  detail::leftmost_longest_repeats<ExecutionSpace, I>(
      space, detail::as_device_view<const I, ExecutionSpace>(rank, "rank"),
      detail::as_device_view<const I, ExecutionSpace>(lcp, "LCP"),
      detail::as_device_view<repeat<I>, ExecutionSpace>(out, "output"), options, stats);
}

// Every longest repeat covering every position (see the definitions above).
template <class ExecutionSpace, class RankView, class LCPView>
all_repeats_result<typename RankView::non_const_value_type, typename ExecutionSpace::memory_space>
all_longest_repeats(const ExecutionSpace& space, const RankView& rank, const LCPView& lcp,
                    const repeat_options& options = {}, run_stats* stats = nullptr) {
  detail::check_repeat_inputs<ExecutionSpace>(rank, lcp);
  using I = typename RankView::non_const_value_type;
  return detail::all_longest_repeats<ExecutionSpace, I>(
      space, detail::as_device_view<const I, ExecutionSpace>(rank, "rank"),
      detail::as_device_view<const I, ExecutionSpace>(lcp, "LCP"), options, stats);
}

}  // namespace strix

#define STRIX_REPEATS_EXTERN(SPACE, I)                                                          \
  extern template void strix::detail::left_bounded_repeat_lengths<SPACE, I>(                    \
      const SPACE&, const strix::device_view<const I, SPACE>&,                                  \
      const strix::device_view<const I, SPACE>&, const strix::device_view<I, SPACE>&);          \
  extern template void strix::detail::leftmost_longest_repeats<SPACE, I>(                       \
      const SPACE&, const strix::device_view<const I, SPACE>&,                                  \
      const strix::device_view<const I, SPACE>&, const strix::device_view<strix::repeat<I>, SPACE>&, \
      const strix::repeat_options&, strix::run_stats*);                                         \
  extern template strix::all_repeats_result<I, typename SPACE::memory_space>                    \
  strix::detail::all_longest_repeats<SPACE, I>(const SPACE&, const strix::device_view<const I, SPACE>&, \
                                               const strix::device_view<const I, SPACE>&,       \
                                               const strix::repeat_options&, strix::run_stats*);
STRIX_FOR_EACH_ETI(STRIX_REPEATS_EXTERN)
#undef STRIX_REPEATS_EXTERN
