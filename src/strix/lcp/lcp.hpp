// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// LCP array: lcp[0] = 0 and lcp[r] = the length of the longest common prefix of the
// suffixes sa[r-1] and sa[r]; one entry per suffix, in the suffix array's index type.
// Compiled into libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <strix/core/eti.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/core/device_length.hpp>
#include <strix/error.hpp>

namespace strix {
namespace detail {

// Bytes one thread compares at a time before a position's comparison is split over
// threads; a power of two.
constexpr std::uint64_t lcp_chunk_bytes = 64;
template <class ExecSpace, class I>
void lcp_array(const ExecSpace& space, const text_view<ExecSpace>& text,
               const device_view<const I, ExecSpace>& sa, const device_view<I, ExecSpace>& lcp,
               run_stats* stats);
}  // namespace detail

// Builds the LCP array of `text` given its suffix array `sa` (see check_suffix_array:
// a wrong suffix array gives a wrong LCP array, or worse). Work is O(n log n) at
// most on GPUs, whatever the text (extra memory: n entries and a few lists of indices);
// on host backends O(n) plus at most n / 8 word compares a thread (extra memory: n entries).
// `lcp` may be `sa` itself: the LCP array then replaces the suffix array (on host backends in
// no more memory than that; elsewhere through a temporary of n entries).
// Throws strix::error: invalid_input when sizes disagree, *_out_of_memory.
template <class ExecutionSpace, class TextView, class SAView, class LCPView>
void lcp_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
               const LCPView& lcp, run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  detail::check_index_view<ExecutionSpace, LCPView>();
  using I = typename LCPView::value_type;
  static_assert(!std::is_const<I>::value, "strix: the LCP view must be writable");
  static_assert(std::is_same<typename SAView::non_const_value_type, I>::value,
                "strix: the LCP array has the suffix array's index type");
  const std::uint64_t n = text.extent(0);
  STRIX_USER_REQUIRE(sa.extent(0) == n && lcp.extent(0) == n,
                     "lcp_array: text of " + std::to_string(n) + " bytes, suffix array of " +
                         std::to_string(sa.extent(0)) + " and LCP array of " +
                         std::to_string(lcp.extent(0)) + " entries");
  check_length_on<I, ExecutionSpace>(n, "text of " + std::to_string(n) + " bytes");
  detail::lcp_array<ExecutionSpace, I>(
      space, detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text"),
      detail::as_device_view<const I, ExecutionSpace>(sa, "suffix array"),
      detail::as_device_view<I, ExecutionSpace>(lcp, "LCP"), stats);
}

}  // namespace strix

#define STRIX_LCP_EXTERN(SPACE, I)                                                            \
  extern template void strix::detail::lcp_array<SPACE, I>(                                    \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&, \
      const strix::device_view<I, SPACE>&, strix::run_stats*);
STRIX_FOR_EACH_ETI(STRIX_LCP_EXTERN)
#undef STRIX_LCP_EXTERN
