// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Portable byte histogram on any Kokkos execution space, without atomics: every chunk of
// the input counts its bytes into its own column (as the portable radix sort counts
// digits), then one thread per byte value sums its row. Atomics would serialise on a
// small alphabet (all threads adding to one or four bins), worst with 64-bit counters,
// which some devices implement as compare-and-swap loops.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/device_view.hpp>
#include <strix/primitives/portable/radix_sort.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::primitives::portable {

// counts(c) = occurrences of byte c in `values`; counts has 256 entries.
template <class ExecSpace>
void byte_histogram(const ExecSpace& space, workspace<ExecSpace>& ws,
                    const device_view<const std::uint8_t, ExecSpace>& values,
                    const device_view<std::uint64_t, ExecSpace>& counts) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::size_t n = values.extent(0);
  const std::size_t chunks = radix_chunks(space, n);
  const std::size_t chunk_len = (n + chunks - 1) / chunks;
  auto* base = static_cast<std::uint64_t*>(ws.reserve(chunks * 256 * sizeof(std::uint64_t)));
  device_view<std::uint64_t, ExecSpace> partial(base, chunks * 256);  // byte-major: c * chunks + chunk
  Kokkos::parallel_for(
      "strix::portable_histogram_chunks", policy(space, 0, chunks), KOKKOS_LAMBDA(const std::int64_t k) {
        for (std::size_t c = 0; c < 256; ++c) partial(c * chunks + k) = 0;
        const std::size_t lo = k * chunk_len, hi = lo + chunk_len < n ? lo + chunk_len : n;
        for (std::size_t i = lo; i < hi; ++i) ++partial(values(i) * chunks + k);
      });
  Kokkos::parallel_for(
      "strix::portable_histogram_sum", policy(space, 0, 256), KOKKOS_LAMBDA(const std::int64_t c) {
        std::uint64_t total = 0;
        for (std::size_t k = 0; k < chunks; ++k) total += partial(c * chunks + k);
        counts(c) = total;
      });
}

}  // namespace strix::primitives::portable
