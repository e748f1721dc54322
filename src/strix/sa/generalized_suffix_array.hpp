// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The generalized suffix array of a collection of strings, each ended by a 0x00 byte (the
// convention of libsais' gsa): suffixes are ordered as in the plain suffix array except that a
// 0x00 byte ends every comparison that reaches it. It sorts below every other byte, and two
// suffixes that reach a 0x00 at the same offset with the same bytes before it are ordered by
// where that 0x00 is (the earlier string first), not by what follows it. A text whose last
// byte is not 0x00 ends its last string with the end of the text, which sorts below any 0x00
// (as in the plain suffix array). A text without 0x00 has its plain suffix array.
//
// Built by any suffix-array algorithm on any backend: each 0x00 is followed, in a copy of the
// text, by its number among the separators as a fixed-width big-endian code, so that two
// comparisons reaching separators at the same offset end within the codes, in the order of
// the separators; the codes' suffixes are then dropped. Memory beyond the text and `sa`: the
// copy's suffix array (n + w d entries for d separators, w = 1..8 bytes a code: the fewest
// that number them), a bit vector over it, and the algorithm's own; the copy itself (n + w d
// bytes) is held in sa's bytes while it is needed (in memory of its own only with 32-bit
// entries and codes longer than 3n bytes).
// Declarations only: compiled into libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include <strix/core/eti.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix {
namespace detail {
// `copy_apart`: the copy in memory of its own even where sa's bytes hold it (for tests, which
// reach that case no other way short of 2^24 separators).
template <class ExecSpace, class I>
void generalized_suffix_array(const ExecSpace& space, const text_view<ExecSpace>& text,
                              const device_view<I, ExecSpace>& sa, suffix_array_handle<ExecSpace, I>& handle,
                              run_stats* stats, bool copy_apart = false);
template <class ExecSpace, class I>
sa_check_result check_generalized_suffix_array(const ExecSpace& space, const text_view<ExecSpace>& text,
                                               const device_view<const I, ExecSpace>& sa);
}  // namespace detail

// Builds the generalized suffix array of `text` into `sa` (n entries of the index type) with
// the handle's algorithm and memory. Throws strix::error: invalid_input when sizes disagree
// or when n plus the separators' codes does not fit the index type (use 64-bit entries),
// host/device_out_of_memory when memory runs out.
template <class ExecutionSpace, class TextView, class SAView>
void generalized_suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                              suffix_array_handle<ExecutionSpace, typename SAView::non_const_value_type>& handle,
                              run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::non_const_value_type;
  static_assert(std::is_same<typename SAView::value_type, I>::value, "strix: the suffix array view must be writable");
  detail::check_sa_sizes<I, ExecutionSpace>(text.extent(0), sa.extent(0));
  detail::generalized_suffix_array<ExecutionSpace, I>(
      space, detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text"),
      detail::as_device_view<I, ExecutionSpace>(sa, "suffix array"), handle, stats);
}

// The same with a handle made for this call only.
template <class ExecutionSpace, class TextView, class SAView>
void generalized_suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                              const sa_options& options = {}, run_stats* stats = nullptr) {
  detail::check_index_view<ExecutionSpace, SAView>();
  suffix_array_handle<ExecutionSpace, typename SAView::non_const_value_type> handle(space, options);
  generalized_suffix_array(space, text, sa, handle, stats);
}

// check_suffix_array's test with the generalized order: neighbours that both start with 0x00
// must be in text order.
template <class ExecutionSpace, class TextView, class SAView>
sa_check_result check_generalized_suffix_array(const ExecutionSpace& space, const TextView& text, const SAView& sa) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::non_const_value_type;
  return detail::check_generalized_suffix_array<ExecutionSpace, I>(
      space, detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text"),
      detail::as_device_view<const I, ExecutionSpace>(sa, "suffix array"));
}

}  // namespace strix

#define STRIX_GSA_EXTERN(SPACE, I)                                                                            \
  extern template void strix::detail::generalized_suffix_array<SPACE, I>(                                    \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<I, SPACE>&,                     \
      strix::suffix_array_handle<SPACE, I>&, strix::run_stats*, bool);                                       \
  extern template strix::sa_check_result strix::detail::check_generalized_suffix_array<SPACE, I>(            \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&);
STRIX_FOR_EACH_ETI(STRIX_GSA_EXTERN)
#undef STRIX_GSA_EXTERN
