#pragma once
// Compile-time checks on the views callers pass to the public API.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

namespace strix::detail {

template <class I>
constexpr bool is_index_type_v =
    std::is_same<I, std::uint32_t>::value || std::is_same<I, std::uint64_t>::value;

template <class ExecSpace, class View>
constexpr bool accessible_from_v =
    Kokkos::SpaceAccessibility<ExecSpace, typename View::memory_space>::accessible;

template <class ExecSpace, class TextView>
constexpr void check_text_view() {
  static_assert(Kokkos::is_view<TextView>::value, "strix: the text must be a Kokkos::View");
  static_assert(TextView::rank == 1, "strix: the text must be a rank-1 view");
  static_assert(std::is_same<std::remove_const_t<typename TextView::value_type>,
                             std::uint8_t>::value,
                "strix: the text must be a view of std::uint8_t");
  static_assert(accessible_from_v<ExecSpace, TextView>,
                "strix: the text must be accessible from the execution space");
}

template <class ExecSpace, class IndexView>
constexpr void check_index_view() {
  static_assert(Kokkos::is_view<IndexView>::value, "strix: index arrays must be Kokkos::Views");
  static_assert(IndexView::rank == 1, "strix: index arrays must be rank-1 views");
  static_assert(is_index_type_v<std::remove_const_t<typename IndexView::value_type>>,
                "strix: the index type must be std::uint32_t or std::uint64_t");
  static_assert(accessible_from_v<ExecSpace, IndexView>,
                "strix: index arrays must be accessible from the execution space");
}

}  // namespace strix::detail
