// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Burrows-Wheeler transform in libdivsufsort's divbwt layout, and its inverse.
//
// For the text T$ the BWT has n + 1 symbols, one of them the sentinel. Like divbwt,
// strix returns the n text symbols without the sentinel and the primary index p:
// out[0] = T[n-1]; the row of suffix 0 (SA[r] == 0) is left out; p = r + 1.
// Compiled into libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include <strix/bwt/inverse_bwt.hpp>
#include <strix/bwt/inverse_bwt_workspace.hpp>
#include <strix/core/device_length.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/views.hpp>
#include <strix/core/stats.hpp>
#include <strix/error.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix {
namespace detail {
template <class ExecSpace, class I>
std::uint64_t bwt(const ExecSpace& space, const text_view<ExecSpace>& text,
                  const device_view<const I, ExecSpace>& sa, const device_view<std::uint8_t, ExecSpace>& out,
                  run_stats* stats);
// ws: the caller's workspace, or nullptr (the call allocates and frees its own).
template <class ExecSpace>
void inverse_bwt(const ExecSpace& space, const text_view<ExecSpace>& bwt, std::uint64_t primary,
                 const device_view<std::uint8_t, ExecSpace>& text, inverse_bwt_workspace<ExecSpace>* ws,
                 run_stats* stats, bool wide_rows = false);
}  // namespace detail

// Writes the BWT of `text` given its suffix array `sa` into `out` (n bytes) and
// returns the primary index (0 for an empty text). `stats` receives its phase and peak.
template <class ExecutionSpace, class TextView, class SAView, class OutView>
std::uint64_t bwt(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  const OutView& out, run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  detail::check_text_view<ExecutionSpace, OutView>();
  using I = typename SAView::non_const_value_type;
  const std::uint64_t n = text.extent(0);
  STRIX_USER_REQUIRE(sa.extent(0) == n && out.extent(0) == n,
                     "bwt: text, suffix array and output sizes differ");
  check_length_on<I, ExecutionSpace>(n, "text of " + std::to_string(n) + " bytes");
  return detail::bwt<ExecutionSpace, I>(
      space, detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text"),
      detail::as_device_view<const I, ExecutionSpace>(sa, "suffix array"),
      detail::as_device_view<std::uint8_t, ExecutionSpace>(out, "BWT"), stats);
}

// The BWT of `text` into `out` (n bytes) without a suffix array given: straight from the
// construction when the handle's algorithm makes it on the way (sais and divsufsort on host
// backends, prefix doubling and Larsson–Sadakane on every backend), with `workspace` (n
// entries of the index type) as its working memory; else the suffix array is built into
// `workspace` and the BWT taken from it. `workspace` is left
// undefined either way. Returns the primary index.
template <class ExecutionSpace, class TextView, class WorkView, class OutView>
std::uint64_t bwt_from_text(const ExecutionSpace& space, const TextView& text, const WorkView& workspace,
                            const OutView& out,
                            suffix_array_handle<ExecutionSpace, typename WorkView::non_const_value_type>& handle,
                            run_stats* stats = nullptr) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, WorkView>();
  detail::check_text_view<ExecutionSpace, OutView>();
  using I = typename WorkView::non_const_value_type;
  const auto text_d = detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text");
  const auto work_d = detail::as_device_view<I, ExecutionSpace>(workspace, "workspace");
  const auto out_d = detail::as_device_view<std::uint8_t, ExecutionSpace>(out, "BWT");
  std::uint64_t primary = 0;
  if (handle.build_bwt(text_d, work_d, out_d, primary, stats)) return primary;
  handle.build(text_d, work_d, stats);
  run_stats gather = stats ? stats->observers() : run_stats{};
  primary = detail::bwt<ExecutionSpace, I>(space, text_d, device_view<const I, ExecutionSpace>(work_d.data(), work_d.extent(0)),
                                           out_d, stats ? &gather : nullptr);
  if (stats) stats->merge(gather);
  return primary;
}

// The text back from its BWT `bwt` (n bytes in the layout above) and primary index, into
// `text` (n bytes), on the execution space: psi walks over the rows, cut into pieces that run
// at once (strix/bwt/detail/inverse_bwt_def.hpp). Throws strix::error(invalid_input) for a
// primary index outside 1..n or a BWT inconsistent with it. Device memory besides the two
// views: about 16 bytes a row while the rows are sorted (24 from 2^32 rows), then 8.
// `stats` receives the phases and the peak. The host overload in strix/bwt/inverse_bwt.hpp is
// the faster one on the host. With a workspace (strix/bwt/inverse_bwt_workspace.hpp) reserved
// for n bytes the call allocates nothing; without one it allocates and frees its own memory.
// (Only for execution spaces: the host call's (pointer, n, primary, threads) must not match.)
namespace detail {
// The public calls' checks of the caller's views, then the compiled inverse.
template <class ExecutionSpace, class BwtView, class TextView>
void checked_inverse_bwt(const ExecutionSpace& space, const BwtView& bwt, std::uint64_t primary, const TextView& text,
                         inverse_bwt_workspace<ExecutionSpace>* ws, run_stats* stats) {
  check_text_view<ExecutionSpace, BwtView>();
  check_text_view<ExecutionSpace, TextView>();
  check_length_on<std::uint64_t, ExecutionSpace>(bwt.extent(0), "BWT of " + std::to_string(bwt.extent(0)) + " bytes");
  inverse_bwt<ExecutionSpace>(space, as_device_view<const std::uint8_t, ExecutionSpace>(bwt, "BWT"), primary,
                              as_device_view<std::uint8_t, ExecutionSpace>(text, "text"), ws, stats);
}
}  // namespace detail
template <class ExecutionSpace, class BwtView, class TextView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
void inverse_bwt(const ExecutionSpace& space, const BwtView& bwt, std::uint64_t primary, const TextView& text,
                 inverse_bwt_workspace<ExecutionSpace>& ws, run_stats* stats = nullptr) {
  detail::checked_inverse_bwt<ExecutionSpace>(space, bwt, primary, text, &ws, stats);
}
template <class ExecutionSpace, class BwtView, class TextView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
void inverse_bwt(const ExecutionSpace& space, const BwtView& bwt, std::uint64_t primary, const TextView& text,
                 run_stats* stats = nullptr) {
  detail::checked_inverse_bwt<ExecutionSpace>(space, bwt, primary, text, nullptr, stats);
}

}  // namespace strix

#define STRIX_INVERSE_BWT_EXTERN(SPACE)                                                          \
  extern template void strix::detail::inverse_bwt<SPACE>(const SPACE&, const strix::text_view<SPACE>&, \
                                                         std::uint64_t,                          \
                                                         const strix::device_view<std::uint8_t, SPACE>&, \
                                                         strix::inverse_bwt_workspace<SPACE>*, strix::run_stats*, bool);
STRIX_FOR_EACH_ETI_SPACE(STRIX_INVERSE_BWT_EXTERN)
#undef STRIX_INVERSE_BWT_EXTERN

#define STRIX_BWT_EXTERN(SPACE, I)                                                             \
  extern template std::uint64_t strix::detail::bwt<SPACE, I>(                                  \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&, \
      const strix::device_view<std::uint8_t, SPACE>&, strix::run_stats*);
STRIX_FOR_EACH_ETI(STRIX_BWT_EXTERN)
#undef STRIX_BWT_EXTERN
