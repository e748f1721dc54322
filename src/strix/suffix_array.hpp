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

// Working memory of the suffix-array construction, sized once for texts of up to
// `capacity` bytes and reused across calls (grown on demand). Building it allocates
// everything a construction needs, so timed constructions allocate nothing.
template <class ExecutionSpace, class I>
class suffix_array_workspace {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");

 public:
  suffix_array_workspace(const ExecutionSpace& space, std::uint64_t capacity)
      : impl_(space, static_cast<std::size_t>(capacity)) {}
  std::uint64_t capacity() const { return impl_.capacity(); }
  // Bytes held in the execution space's memory.
  std::size_t bytes() const { return impl_.bytes(); }
  detail::prefix_doubling<ExecutionSpace, I>& impl() { return impl_; }

 private:
  detail::prefix_doubling<ExecutionSpace, I> impl_;
};

// Builds the suffix array of `text` into `sa` (n entries of std::uint32_t or
// std::uint64_t, the index type) with a reusable workspace. Both views live where
// `space` can access them. Throws strix::error: invalid_input when sizes disagree or n
// does not fit the index type; host/device_out_of_memory when memory runs out.
template <class ExecutionSpace, class TextView, class SAView>
void suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  suffix_array_workspace<ExecutionSpace, typename SAView::value_type>& workspace,
                  const sa_options& options = {}, run_stats* stats = nullptr) {
  (void)space;
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
      detail::prefix_doubling_sa(workspace.impl(), text, sa, options, stats);
      return;
  }
  STRIX_USER_REQUIRE(false, "unknown suffix array algorithm");
}

// The same with a workspace made for this call only.
template <class ExecutionSpace, class TextView, class SAView>
void suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  const sa_options& options = {}, run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  using I = std::remove_const_t<typename SAView::value_type>;
  STRIX_USER_REQUIRE(sa.extent(0) == text.extent(0),
                     "suffix array has " + std::to_string(sa.extent(0)) + " entries for a text of " +
                         std::to_string(text.extent(0)) + " bytes");
  STRIX_USER_REQUIRE(text.extent(0) <= max_text_length<I>(),
                     "text of " + std::to_string(text.extent(0)) + " bytes is too long for a " +
                         std::to_string(8 * sizeof(I)) + "-bit suffix array");
  suffix_array_workspace<ExecutionSpace, I> workspace(space, text.extent(0));
  suffix_array(space, text, sa, workspace, options, stats);
}

}  // namespace strix
