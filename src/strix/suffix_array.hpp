#pragma once
// Suffix array construction.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>

#include <strix/detail/prefix_doubling.hpp>
#include <strix/detail/view_checks.hpp>
#include <strix/error.hpp>
#include <strix/options.hpp>

namespace strix {

// Largest text length whose suffix array fits the index type I.
template <class I>
constexpr std::uint64_t max_text_length() {
  return std::numeric_limits<I>::max();
}

// Builds the suffix array of `text` into `sa` (n entries of std::uint32_t or
// std::uint64_t, the index type). Both views live where `space` can access them.
// Throws strix::error: invalid_input when sizes disagree or n does not fit the index
// type; host/device_out_of_memory when working memory cannot be allocated.
template <class ExecutionSpace, class TextView, class SAView>
void suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  const sa_options& options = {}, run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::value_type;
  static_assert(!std::is_const<I>::value, "strix: the suffix array view must be writable");
  const std::uint64_t n = text.extent(0);
  STRIX_USER_REQUIRE(sa.extent(0) == n, "suffix array has " + std::to_string(sa.extent(0)) +
                                            " entries for a text of " + std::to_string(n) +
                                            " bytes");
  STRIX_USER_REQUIRE(n <= max_text_length<I>(),
                     "text of " + std::to_string(n) + " bytes is too long for a " +
                         std::to_string(8 * sizeof(I)) + "-bit suffix array");
  switch (options.algorithm) {
    case sa_algorithm::prefix_doubling:
      detail::prefix_doubling_sa(space, text, sa, options, stats);
      return;
  }
  STRIX_USER_REQUIRE(false, "unknown suffix array algorithm");
}

}  // namespace strix
