// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the LCP array (see strix/lcp/lcp.hpp), included by libstrix's
// instantiation files only; STRIX_LCP_INSTANTIATE(SPACE, I) instantiates it.
//
// Host backends run the Phi passes of backends/host (prefetched scans, a carried match
// length) unless the build asks for the portable code everywhere (STRIX_VENDOR_PRIMITIVES=OFF,
// which CI tests); other backends run the portable Kokkos version (detail/phi.hpp). Both take
// the text, the suffix array, the output and n entries of scratch.
#include <strix/backend/host/phi_lcp.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/lcp/detail/phi.hpp>
#include <strix/lcp/lcp.hpp>
#include <strix/primitives/vendor.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
void host_phi_lcp(const ExecSpace& space, const text_view<ExecSpace>& text,
                  const device_view<const I, ExecSpace>& sa, const device_view<I, ExecSpace>& lcp,
                  run_stats* stats) {
  const std::uint64_t n = text.extent(0);
  const int threads = space.concurrency();
  memory_tracker tracker;
  // The caller's text, suffix array and output (which may be the suffix array itself: the
  // last pass reads sa[r] before it writes lcp[r], and each thread stays in its own rows).
  const bool in_place = lcp.data() == sa.data();
  tracker.acquire(n + (in_place ? 1 : 2) * n * sizeof(I));
  phase_timer<ExecSpace> timer(space, stats);
  // PLCP (phi first) in scratch, the output written last: lcp may not hold it, since
  // lcp[r] = plcp[sa[r]] reads it in another order.
  auto plcp = allocate<I, typename ExecSpace::memory_space>("strix::lcp_plcp", n, &tracker);
  space.fence();  // the text and suffix array may still be in flight
  timer.begin("lcp phi");
  backend::host::phi_from_suffix_array(sa.data(), plcp.data(), n, threads);
  timer.begin("lcp plcp");
  backend::host::plcp_in_place(text.data(), plcp.data(), n, threads);
  timer.begin("lcp gather");
  backend::host::lcp_from_plcp(sa.data(), plcp.data(), lcp.data(), n, threads);
  timer.end();
  release(plcp, &tracker);
  if (stats) stats->peak_bytes = tracker.peak();
}

template <class ExecSpace, class I>
void lcp_array(const ExecSpace& space, const text_view<ExecSpace>& text,
               const device_view<const I, ExecSpace>& sa, const device_view<I, ExecSpace>& lcp,
               run_stats* stats) {
  if constexpr (STRIX_VENDOR_HOST && is_host_space_v<ExecSpace>) {
    host_phi_lcp<ExecSpace, I>(space, text, sa, lcp, stats);
  } else if (lcp.data() == sa.data() && text.extent(0) > 0) {
    // The portable passes use the output for Phi while they read the suffix array: into a
    // temporary, copied over the suffix array after.
    auto out = allocate<I, typename ExecSpace::memory_space>("strix::lcp_out", text.extent(0));
    phi_lcp<ExecSpace, I>(space, text, sa, device_view<I, ExecSpace>(out.data(), out.extent(0)), stats);
    strix::copy(space, lcp, out);
    space.fence();  // (phi_lcp counted the temporary as its output)
  } else {
    phi_lcp<ExecSpace, I>(space, text, sa, lcp, stats);
  }
}

}  // namespace strix::detail

#define STRIX_LCP_INSTANTIATE(SPACE, I)                                                       \
  template void strix::detail::lcp_array<SPACE, I>(                                           \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&, \
      const strix::device_view<I, SPACE>&, strix::run_stats*);
