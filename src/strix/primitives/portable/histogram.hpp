#pragma once
// Portable byte histogram on any Kokkos execution space, with Kokkos' ScatterView
// (per-thread copies on host spaces, atomics on devices).
#include <Kokkos_Core.hpp>
#include <Kokkos_ScatterView.hpp>
#include <cstdint>

#include <strix/core/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::primitives::portable {

// counts(c) = occurrences of byte c in `values`; counts has 256 entries.
template <class ExecSpace>
void byte_histogram(const ExecSpace& space, workspace<ExecSpace>&,
                    const device_view<const std::uint8_t, ExecSpace>& values,
                    const device_view<std::uint64_t, ExecSpace>& counts) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> bins("strix::histogram", 256);
  Kokkos::Experimental::ScatterView<std::uint64_t*, typename decltype(bins)::array_layout, ExecSpace>
      scatter(bins);
  Kokkos::parallel_for(
      "strix::portable_histogram", policy(space, 0, values.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        auto access = scatter.access();
        access(values(i)) += 1;
      });
  Kokkos::Experimental::contribute(bins, scatter);
  Kokkos::deep_copy(space, counts, bins);
}

}  // namespace strix::primitives::portable
