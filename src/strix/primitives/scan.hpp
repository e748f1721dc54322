// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Scan with a user functor, and selection (stream compaction) of indices by a predicate;
// portable defaults and vendor overloads (see radix_sort.hpp). The vendor versions are
// templates defined in their headers, instantiated with the algorithm's functor where the
// algorithm is compiled.
#include <cstdint>

#include <strix/primitives/vendor.hpp>
#include <strix/primitives/portable/scan.hpp>

namespace strix::primitives {

// Runs a Kokkos scan functor over [0, n): operator()(i, value_type& update, bool final)
// sees the exclusive prefix in its final pass; the total is left in `total`.
template <class ExecSpace, class Functor>
void scan(const ExecSpace& space, workspace<ExecSpace>& ws, const char* label,
          const Functor& functor, std::int64_t n, typename Functor::value_type& total) {
  portable::scan(space, ws, label, functor, n, total);
}

// Scratch bytes scan<Functor> needs for n elements.
template <class Functor, class ExecSpace>
std::size_t scan_scratch_bytes(const ExecSpace&, std::int64_t) {
  return 0;
}

// The indices i in [0, n) with pred(i), in order, into out; returns their number.
template <class ExecSpace, class Predicate, class I>
std::uint64_t select_indices(const ExecSpace& space, workspace<ExecSpace>& ws, std::int64_t n,
                             const Predicate& pred, const device_view<I, ExecSpace>& out) {
  return portable::select_indices(space, ws, n, pred, out);
}

}  // namespace strix::primitives

#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/scan.hpp>
#endif
