// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Linear-time suffix array checker (Burkhardt and Kaerkkaeinen): SA is the suffix
// array of T iff SA is a permutation of 0..n-1 and, for every neighbour pair
// a = SA[i-1], b = SA[i]: T[a] < T[b], or T[a] == T[b] and suffix a+1 precedes
// suffix b+1 (ISA[a+1] < ISA[b+1], the empty suffix first). Compiled into libstrix.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <strix/core/device_length.hpp>
#include <strix/core/eti.hpp>
#include <strix/core/views.hpp>

namespace strix {

struct sa_check_result {
  bool ok = true;
  std::string message;          // empty when ok
  std::uint64_t position = 0;   // SA index of the first problem found
  explicit operator bool() const { return ok; }
};

namespace detail {
template <class ExecSpace, class I>
sa_check_result check_suffix_array(const ExecSpace& space, const text_view<ExecSpace>& text,
                                   const device_view<const I, ExecSpace>& sa);
}  // namespace detail

template <class ExecutionSpace, class TextView, class SAView>
sa_check_result check_suffix_array(const ExecutionSpace& space, const TextView& text,
                                   const SAView& sa) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::non_const_value_type;
  check_length_on<I, ExecutionSpace>(text.extent(0), "text of " + std::to_string(text.extent(0)) + " bytes");
  return detail::check_suffix_array<ExecutionSpace, I>(
      space, detail::as_device_view<const std::uint8_t, ExecutionSpace>(text, "text"),
      detail::as_device_view<const I, ExecutionSpace>(sa, "suffix array"));
}

}  // namespace strix

#define STRIX_CHECK_EXTERN(SPACE, I)                                                          \
  extern template strix::sa_check_result strix::detail::check_suffix_array<SPACE, I>(         \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&);
STRIX_FOR_EACH_ETI(STRIX_CHECK_EXTERN)
#undef STRIX_CHECK_EXTERN
