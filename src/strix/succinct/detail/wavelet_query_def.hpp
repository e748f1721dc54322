#pragma once
// Batched wavelet tree and matrix queries (see wavelet.hpp), one kernel per kind,
// included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <cstdint>

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

}  // namespace strix::detail
