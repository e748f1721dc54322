// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The view types of strix's compiled-once interface, and the compile-time checks on the
// views callers pass to the public templates.
//
// Algorithms are compiled into libstrix for each (execution space, index type); their
// arguments are unmanaged contiguous views in the execution space's memory space, so one
// instantiation serves every View a caller may hold (any layout of a rank-1 view, managed
// or not, const or not, in any memory space the execution space can access).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>

#include <strix/error.hpp>
#include <strix/core/device_view.hpp>

namespace strix::detail {

template <class I>
constexpr bool is_index_type_v =
    std::is_same<I, std::uint32_t>::value || std::is_same<I, std::uint64_t>::value;

template <class ExecSpace, class View>
constexpr bool accessible_from_v =
    Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible;

template <class ExecSpace, class View>
constexpr void check_view() {
  static_assert(Kokkos::is_view<View>::value, "strix: arrays must be Kokkos::Views");
  static_assert(View::rank == 1, "strix: arrays must be rank-1 views");
  static_assert(accessible_from_v<ExecSpace, View>,
                "strix: views must be accessible from the execution space");
}

template <class ExecSpace, class TextView>
constexpr void check_text_view() {
  check_view<ExecSpace, TextView>();
  static_assert(std::is_same<std::remove_const_t<typename TextView::value_type>,
                             std::uint8_t>::value,
                "strix: the text must be a view of std::uint8_t");
}

template <class ExecSpace, class IndexView>
constexpr void check_index_view() {
  check_view<ExecSpace, IndexView>();
  static_assert(is_index_type_v<std::remove_const_t<typename IndexView::value_type>>,
                "strix: the index type must be std::uint32_t or std::uint64_t");
}

// `v` as the unmanaged contiguous view the compiled algorithms take (element type T:
// the view's own, with const added for inputs).
template <class T, class ExecSpace, class View>
device_view<T, ExecSpace> as_device_view(const View& v, const char* what) {
  check_view<ExecSpace, View>();
  STRIX_USER_REQUIRE(v.span_is_contiguous() || v.extent(0) <= 1,
                     std::string("strix: the ") + what + " view must be contiguous");
  return device_view<T, ExecSpace>(v.data(), v.extent(0));
}

}  // namespace strix::detail
