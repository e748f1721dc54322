// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of the suffix-array feature's common part (the algorithm dispatch and
// `auto`, the inverse, the checker), included by libstrix's instantiation files only;
// STRIX_SA_INSTANTIATE(SPACE, I) instantiates them. Each construction family has its folder
// with its factory (prefix_doubling/, larsson_sadakane/, difference_cover/, divsufsort/,
// sais/;
// engine_factories.hpp declares them).
#include <Kokkos_Core.hpp>
#include <memory>

#include <strix/core/phase_timer.hpp>
#include <strix/sa/check.hpp>
#include <strix/sa/detail/auto_engine.hpp>
#include <strix/sa/detail/check_def.hpp>
#include <strix/sa/detail/engine_factories.hpp>
#include <strix/sa/inverse_suffix_array.hpp>
#include <strix/sa/suffix_array.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
std::unique_ptr<sa_engine<ExecSpace, I>> make_sa_engine(const ExecSpace& space, const sa_options& options) {
  switch (options.algorithm) {
    case sa_algorithm::automatic: return std::make_unique<auto_engine<ExecSpace, I>>(space, options);
    case sa_algorithm::prefix_doubling: return make_prefix_doubling_engine<ExecSpace, I>(space, options);
    case sa_algorithm::larsson_sadakane: return make_larsson_sadakane_engine<ExecSpace, I>(space, options);
    case sa_algorithm::skew:
    case sa_algorithm::hybrid:
    case sa_algorithm::dcx: return make_difference_cover_engine<ExecSpace, I>(space, options);
    case sa_algorithm::divsufsort: return make_divsufsort_engine<ExecSpace, I>(space, options);
    case sa_algorithm::sais: return make_sais_engine<ExecSpace, I>(space, options);
  }
  throw error(error_code::invalid_input, "unknown suffix array algorithm");
}

template <class ExecSpace, class I>
void inverse_suffix_array(const ExecSpace& space, const device_view<const I, ExecSpace>& sa,
                          const device_view<I, ExecSpace>& isa, run_stats* stats) {
  phase_timer<ExecSpace> timer(space, stats);
  timer.begin("inverse_suffix_array");
  Kokkos::parallel_for(
      "strix::inverse_suffix_array",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, sa.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { isa(sa(i)) = static_cast<I>(i); });
  timer.end();
  if (stats) stats->peak_bytes = 2 * sa.extent(0) * sizeof(I);  // SA and ISA; nothing else
}

}  // namespace strix::detail

#define STRIX_SA_INSTANTIATE(SPACE, I)                                                           \
  template std::unique_ptr<strix::detail::sa_engine<SPACE, I>>                                   \
  strix::detail::make_sa_engine<SPACE, I>(const SPACE&, const strix::sa_options&);               \
  template void strix::detail::inverse_suffix_array<SPACE, I>(                                   \
      const SPACE&, const strix::device_view<const I, SPACE>&, const strix::device_view<I, SPACE>&,  \
      strix::run_stats*);                                                                         \
  template strix::sa_check_result strix::detail::check_suffix_array<SPACE, I>(                   \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&);
