#pragma once
// Inverse suffix array: isa[sa[i]] = i.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <strix/detail/view_checks.hpp>
#include <strix/error.hpp>

namespace strix {

// `sa` must be a permutation of 0..n-1 (see check_suffix_array).
template <class ExecutionSpace, class SAView, class ISAView>
void inverse_suffix_array(const ExecutionSpace& space, const SAView& sa, const ISAView& isa) {
  detail::check_index_view<ExecutionSpace, SAView>();
  detail::check_index_view<ExecutionSpace, ISAView>();
  using I = typename ISAView::value_type;
  STRIX_USER_REQUIRE(isa.extent(0) == sa.extent(0),
                     "inverse suffix array has " + std::to_string(isa.extent(0)) +
                         " entries for a suffix array of " + std::to_string(sa.extent(0)));
  Kokkos::parallel_for(
      "strix::inverse_suffix_array",
      Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>(space, 0, sa.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) { isa(sa(i)) = static_cast<I>(i); });
}

}  // namespace strix
