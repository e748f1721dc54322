// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Portable functor scan and index selection on any Kokkos execution space.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/device_view.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::primitives::portable {

// Runs a Kokkos scan functor -- operator()(i, value&, bool final), init, join -- over
// [0, n) and leaves its total in `total`.
template <class ExecSpace, class Functor>
void scan(const ExecSpace& space, workspace<ExecSpace>&, const char* label, const Functor& functor,
          std::int64_t n, typename Functor::value_type& total) {
  functor.init(total);  // Kokkos' CUDA scan leaves the total untouched on an empty range
  if (n <= 0) return;
  Kokkos::parallel_scan(label, Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
                        functor, total);
}

// Writes the indices i in [0, n) with pred(i), in increasing order, to out (which has room
// for all of them) and returns how many there are.
template <class ExecSpace, class Predicate, class I>
std::uint64_t select_indices(const ExecSpace& space, workspace<ExecSpace>&, std::int64_t n,
                             const Predicate& pred, const device_view<I, ExecSpace>& out) {
  std::uint64_t count = 0;
  if (n <= 0) return 0;
  Kokkos::parallel_scan(
      "strix::portable_select", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& upd, const bool final) {
        if (!pred(i)) return;
        if (final) out(upd) = static_cast<I>(i);
        ++upd;
      },
      count);
  return count;
}

}  // namespace strix::primitives::portable
