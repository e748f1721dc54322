#pragma once
// LCP array: lcp[0] = 0 and lcp[r] = the length of the longest common prefix of the
// suffixes sa[r-1] and sa[r]; one entry per suffix, in the suffix array's index type.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <strix/detail/lcp_phi.hpp>
#include <strix/detail/lcp_sequential.hpp>
#include <strix/detail/view_checks.hpp>
#include <strix/error.hpp>
#include <strix/options.hpp>

namespace strix {

struct lcp_options {
  bool progress = false;  // print one line per phase on stderr
};

// Builds the LCP array of `text` given its suffix array `sa` (see check_suffix_array:
// a wrong suffix array gives a wrong LCP array, or worse). Work is O(n log n) at
// most, whatever the text; extra memory is n + a few lists of indices.
// Throws strix::error: invalid_input when sizes disagree, *_out_of_memory.
template <class ExecutionSpace, class TextView, class SAView, class LCPView>
void lcp_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
               const LCPView& lcp, const lcp_options& options = {}, run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  detail::check_index_view<ExecutionSpace, LCPView>();
  using I = typename LCPView::value_type;
  static_assert(!std::is_const<I>::value, "strix: the LCP view must be writable");
  static_assert(std::is_same<std::remove_const_t<typename SAView::value_type>, I>::value,
                "strix: the LCP array has the suffix array's index type");
  const std::uint64_t n = text.extent(0);
  STRIX_USER_REQUIRE(sa.extent(0) == n && lcp.extent(0) == n,
                     "lcp_array: text of " + std::to_string(n) + " bytes, suffix array of " +
                         std::to_string(sa.extent(0)) + " and LCP array of " +
                         std::to_string(lcp.extent(0)) + " entries");
  STRIX_USER_REQUIRE(n <= std::numeric_limits<I>::max(),
                     "text of " + std::to_string(n) + " bytes is too long for a " +
                         std::to_string(8 * sizeof(I)) + "-bit LCP array");
  detail::phi_lcp(space, text, sa, lcp, stats, options.progress);
}

}  // namespace strix
