// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Host overloads of strix::primitives::byte_histogram (OpenMP and Serial). The portable
// version keeps one counter per (byte, piece) side by side, so host threads counting their
// pieces write into each other's cache lines; here each piece counts into four tables of its
// own on its thread's stack (a run of one byte then does not wait on one counter) and writes
// its 256 totals once.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::backend::host {

template <class HostSpace>
void byte_histogram(const HostSpace& space, const std::uint8_t* values, std::size_t n, std::uint64_t* counts) {
  const std::size_t pieces = std::max<std::size_t>(1, std::min<std::size_t>(n / (1 << 16) + 1, 4 * space.concurrency()));
  const std::size_t piece = (n + pieces - 1) / pieces;
  std::vector<std::uint64_t> totals(pieces * 256, 0);
  std::uint64_t* t = totals.data();
  // (A parallel_for: Kokkos 3's OpenMP refuses reductions from threads it did not start.)
  Kokkos::parallel_for("strix::host_byte_histogram", Kokkos::RangePolicy<HostSpace, Kokkos::IndexType<std::int64_t>>(
                                                         space, 0, std::int64_t(pieces)),
                       [=](const std::int64_t k) {
                         std::uint64_t c[4][256] = {};
                         const std::size_t lo = std::size_t(k) * piece, hi = std::min(n, lo + piece);
                         std::size_t i = lo;
                         for (; i + 4 <= hi; i += 4) {
                           ++c[0][values[i]];
                           ++c[1][values[i + 1]];
                           ++c[2][values[i + 2]];
                           ++c[3][values[i + 3]];
                         }
                         for (; i < hi; ++i) ++c[0][values[i]];
                         for (int b = 0; b < 256; ++b) t[std::size_t(k) * 256 + b] = c[0][b] + c[1][b] + c[2][b] + c[3][b];
                       });
  space.fence();
  for (int b = 0; b < 256; ++b) {
    std::uint64_t sum = 0;
    for (std::size_t k = 0; k < pieces; ++k) sum += t[k * 256 + b];
    counts[b] = sum;
  }
}

}  // namespace strix::backend::host

#define STRIX_HOST_HISTOGRAM_OVERLOAD(SPACE)                                                              \
  inline void byte_histogram(const SPACE& space, workspace<SPACE>&,                                       \
                             const device_view<const std::uint8_t, SPACE>& values,                        \
                             const device_view<std::uint64_t, SPACE>& counts) {                           \
    backend::host::byte_histogram(space, values.data(), values.extent(0), counts.data());                  \
  }

namespace strix::primitives {
#ifdef KOKKOS_ENABLE_OPENMP
STRIX_HOST_HISTOGRAM_OVERLOAD(Kokkos::OpenMP)
#endif
#ifdef KOKKOS_ENABLE_SERIAL
STRIX_HOST_HISTOGRAM_OVERLOAD(Kokkos::Serial)
#endif
}  // namespace strix::primitives
#undef STRIX_HOST_HISTOGRAM_OVERLOAD
