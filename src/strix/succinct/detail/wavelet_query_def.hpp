// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Batched wavelet tree and matrix queries (see wavelet.hpp), one kernel per kind,
// included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/memory.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix::detail {

template <class ExecSpace, class Symbol, class I, wavelet_shape Shape>
void wavelet_queries(const ExecSpace& space, const wavelet_ref<Symbol, I, Shape>& w, wavelet_query op,
                     const device_view<const Symbol, ExecSpace>& symbols, const device_view<const I, ExecSpace>& args,
                     const device_view<I, ExecSpace>& positions, const device_view<Symbol, ExecSpace>& found,
                     const device_view<std::uint64_t, ExecSpace>& status) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using P = std::uint64_t;
  const std::int64_t m = args.extent(0);
  switch (op) {
    case wavelet_query::access:
      Kokkos::parallel_for("strix::wavelet_access", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P i = args(q);
        if (i >= w.n) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); found(q) = 0; return; }
        found(q) = w.access(i);
      });
      break;
    case wavelet_query::rank:
      Kokkos::parallel_for("strix::wavelet_rank", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P i = args(q);
        if (i > w.n) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); positions(q) = 0; return; }
        P c = 0;
        positions(q) = w.minimal(symbols(q), c) ? static_cast<I>(w.rank(c, i)) : I(0);
      });
      break;
    case wavelet_query::select:
      Kokkos::parallel_for("strix::wavelet_select", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
        const P k = args(q);
        if (k == 0) { Kokkos::atomic_add(&status(0), std::uint64_t(1)); positions(q) = 0; return; }
        P c = 0;
        positions(q) = w.minimal(symbols(q), c) && k <= w.count(c) ? static_cast<I>(w.select(c, k))
                                                                 : static_cast<I>(w.n);
      });
      break;
  }
}

// Rank or select with the batch sorted by symbol first (a stable radix sort of (symbol,
// query index)), so that neighbouring threads walk the same nodes; answers are scattered
// back to query order.
template <class ExecSpace, class Symbol, class I, wavelet_shape Shape>
void wavelet_sorted_queries(const ExecSpace& space, const wavelet_ref<Symbol, I, Shape>& w, wavelet_query op,
                            const device_view<const Symbol, ExecSpace>& symbols,
                            const device_view<const I, ExecSpace>& args, const device_view<I, ExecSpace>& positions,
                            const device_view<std::uint64_t, ExecSpace>& status) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::size_t m = args.extent(0);
  auto keys = allocate<std::uint32_t, memory_space>("strix::wavelet::sort_keys", m);
  auto keys_alt = allocate<std::uint32_t, memory_space>("strix::wavelet::sort_keys_alt", m);
  auto vals = allocate<std::uint64_t, memory_space>("strix::wavelet::sort_vals", m);
  auto vals_alt = allocate<std::uint64_t, memory_space>("strix::wavelet::sort_vals_alt", m);
  Kokkos::parallel_for("strix::wavelet_sort_fill", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t q) {
    keys(q) = symbols(q);
    vals(q) = q;
  });
  primitives::workspace<ExecSpace> ws;
  ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint32_t, std::uint64_t>(space, m));
  const bool alt = primitives::radix_sort_pairs(
      space, ws, device_view<std::uint32_t, ExecSpace>(keys.data(), m), device_view<std::uint32_t, ExecSpace>(keys_alt.data(), m),
      device_view<std::uint64_t, ExecSpace>(vals.data(), m), device_view<std::uint64_t, ExecSpace>(vals_alt.data(), m), 0,
      int(8 * sizeof(Symbol)));
  const std::uint32_t* sk = alt ? keys_alt.data() : keys.data();
  const std::uint64_t* sv = alt ? vals_alt.data() : vals.data();
  auto sorted_symbols = allocate<Symbol, memory_space>("strix::wavelet::sorted_symbols", m);
  auto sorted_args = allocate<I, memory_space>("strix::wavelet::sorted_args", m);
  auto sorted_out = allocate<I, memory_space>("strix::wavelet::sorted_answers", m);
  Kokkos::parallel_for("strix::wavelet_sort_gather", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t j) {
    sorted_symbols(j) = static_cast<Symbol>(sk[j]);
    sorted_args(j) = args(sv[j]);
  });
  wavelet_queries<ExecSpace, Symbol, I, Shape>(space, w, op, sorted_symbols, sorted_args,
                                               device_view<I, ExecSpace>(sorted_out.data(), m),
                                               device_view<Symbol, ExecSpace>(), status);
  Kokkos::parallel_for("strix::wavelet_sort_scatter", range(space, 0, m), KOKKOS_LAMBDA(const std::int64_t j) {
    positions(sv[j]) = sorted_out(j);
  });
  space.fence();
}

}  // namespace strix::detail
