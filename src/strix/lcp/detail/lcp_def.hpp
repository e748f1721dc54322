// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the LCP array (see strix/lcp/lcp.hpp), included by libstrix's
// instantiation files only; STRIX_LCP_INSTANTIATE(SPACE, I) instantiates it.
#include <strix/lcp/detail/phi.hpp>
#include <strix/lcp/lcp.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
void lcp_array(const ExecSpace& space, const text_view<ExecSpace>& text,
               const device_view<const I, ExecSpace>& sa, const device_view<I, ExecSpace>& lcp,
               run_stats* stats) {
  phi_lcp<ExecSpace, I>(space, text, sa, lcp, stats);
}

}  // namespace strix::detail

#define STRIX_LCP_INSTANTIATE(SPACE, I)                                                       \
  template void strix::detail::lcp_array<SPACE, I>(                                           \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&, \
      const strix::device_view<I, SPACE>&, strix::run_stats*);
