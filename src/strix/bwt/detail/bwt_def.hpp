// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the BWT (see strix/bwt/bwt.hpp), included by libstrix's instantiation
// files only; STRIX_BWT_INSTANTIATE(SPACE, I) instantiates it.
//
// Host backends gather through backends/host (the text prefetched ahead of the scan) unless
// the build asks for the portable code everywhere (STRIX_VENDOR_PRIMITIVES=OFF, which CI tests).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>

#include <strix/backend/host/bwt_gather.hpp>
#include <strix/bwt/bwt.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/vendor.hpp>

namespace strix::detail {

template <class ExecutionSpace, class I>
std::uint64_t bwt(const ExecutionSpace& space, const text_view<ExecutionSpace>& text,
                  const device_view<const I, ExecutionSpace>& sa,
                  const device_view<std::uint8_t, ExecutionSpace>& out, run_stats* stats) {
  const std::uint64_t n = text.extent(0);
  if (stats) stats->peak_bytes = n + n * sizeof(I) + n;  // text, SA and BWT; nothing else
  if (n == 0) return 0;
  phase_timer<ExecutionSpace> timer(space, stats);
  timer.begin("bwt");
  if constexpr (STRIX_VENDOR_HOST && is_host_space_v<ExecutionSpace>) {
    const int threads = space.concurrency();
    space.fence();  // the text and suffix array may still be in flight
    const std::uint64_t row = backend::host::row_of_suffix_zero(sa.data(), n, threads);
    STRIX_USER_REQUIRE(row < n, "bwt: the suffix array has no entry for suffix 0");
    backend::host::bwt_from_suffix_array(text.data(), sa.data(), out.data(), n, row, threads);
    timer.end();
    return row + 1;
  } else {
    using policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
    std::uint64_t r = std::numeric_limits<std::uint64_t>::max();
    Kokkos::parallel_reduce(
        "strix::bwt_find_primary", policy(space, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& found) {
          if (sa(i) == 0 && std::uint64_t(i) < found) found = i;
        },
        Kokkos::Min<std::uint64_t>(r));
    STRIX_USER_REQUIRE(r < n, "bwt: the suffix array has no entry for suffix 0");
    Kokkos::parallel_for(
        "strix::bwt", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
          const std::uint64_t s = sa(i);
          if (std::uint64_t(i) == r) {
            out(0) = text(n - 1);
          } else {
            out(std::uint64_t(i) < r ? i + 1 : i) = text(s - 1);
          }
        });
    timer.end();
    return r + 1;
  }
}

}  // namespace strix::detail

#define STRIX_BWT_INSTANTIATE(SPACE, I)                                                        \
  template std::uint64_t strix::detail::bwt<SPACE, I>(                                         \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&, \
      const strix::device_view<std::uint8_t, SPACE>&, strix::run_stats*);
