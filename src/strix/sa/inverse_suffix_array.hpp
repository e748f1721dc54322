// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Inverse suffix array: isa[sa[i]] = i. Compiled into libstrix (see strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <strix/core/device_length.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/views.hpp>
#include <strix/core/stats.hpp>
#include <strix/error.hpp>

namespace strix {
namespace detail {
template <class ExecSpace, class I>
void inverse_suffix_array(const ExecSpace& space, const device_view<const I, ExecSpace>& sa,
                          const device_view<I, ExecSpace>& isa, run_stats* stats);
}  // namespace detail

// `sa` must be a permutation of 0..n-1 (see check_suffix_array); isa has n entries of the
// same index type. `stats` receives its phase and peak.
template <class ExecutionSpace, class SAView, class ISAView>
void inverse_suffix_array(const ExecutionSpace& space, const SAView& sa, const ISAView& isa,
                          run_stats* stats = nullptr) {
  detail::check_index_view<ExecutionSpace, SAView>();
  detail::check_index_view<ExecutionSpace, ISAView>();
  using I = typename ISAView::non_const_value_type;
  static_assert(std::is_same<typename SAView::non_const_value_type, I>::value,
                "strix: the suffix array and its inverse have one index type");
  STRIX_USER_REQUIRE(isa.extent(0) == sa.extent(0),
                     "inverse suffix array has " + std::to_string(isa.extent(0)) +
                         " entries for a suffix array of " + std::to_string(sa.extent(0)));
  check_length_on<I, ExecutionSpace>(sa.extent(0), "suffix array of " + std::to_string(sa.extent(0)) + " entries");
  detail::inverse_suffix_array<ExecutionSpace, I>(
      space, detail::as_device_view<const I, ExecutionSpace>(sa, "suffix array"),
      detail::as_device_view<I, ExecutionSpace>(isa, "inverse suffix array"), stats);
}

}  // namespace strix

#define STRIX_ISA_EXTERN(SPACE, I)                                        \
  extern template void strix::detail::inverse_suffix_array<SPACE, I>(     \
      const SPACE&, const strix::device_view<const I, SPACE>&, const strix::device_view<I, SPACE>&, strix::run_stats*);
STRIX_FOR_EACH_ETI(STRIX_ISA_EXTERN)
#undef STRIX_ISA_EXTERN
