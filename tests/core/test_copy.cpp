// SPDX-License-Identifier: BSD-3-Clause
// strix::copy, strix::fill, to_host and to_device (compiled once into libstrix) on every
// backend: every direction, ranks 0 and 1, every element width, sizes 0 and 1, and mismatched
// sizes refused.
#include <doctest/doctest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/error.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("core");

namespace {

template <class T, class Space>
void check_round_trip(const Space& space, std::size_t n) {
  using M = typename Space::memory_space;
  std::vector<T> h(n);
  for (std::size_t i = 0; i < n; ++i) h[i] = static_cast<T>(0x9E3779B97F4A7C15ull * (i + 1) >> 7);
  auto d = strix::to_device(space, h.data(), n, "copy_test");
  Kokkos::View<T*, M> d2(Kokkos::view_alloc(Kokkos::WithoutInitializing, "copy_test2"), n);
  strix::copy(space, d2, d);  // device to device
  const auto back = strix::to_host(space, d2);
  REQUIRE(back.extent(0) == n);
  for (std::size_t i = 0; i < n; ++i) REQUIRE(back(i) == h[i]);
  std::vector<T> again(n);
  strix::copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(again.data(), n), d2);
  CHECK(again == h);
}

template <class T, class Space>
void check_fill(const Space& space, std::size_t n, T value) {
  using M = typename Space::memory_space;
  Kokkos::View<T*, M> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "fill_test"), n + 2);
  strix::fill(space, d, T(0));
  strix::fill(space, Kokkos::subview(d, std::make_pair(std::size_t(1), n + 1)), value);
  const auto back = to_vector(d);
  CHECK(back.front() == T(0));
  CHECK(back.back() == T(0));
  for (std::size_t i = 1; i <= n; ++i) REQUIRE(back[i] == value);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("copy and fill", C, copy_and_fill) {
  using space = typename C::space;
  using M = typename C::memory_space;
  const space s;
  for (std::size_t n : {std::size_t(0), std::size_t(1), std::size_t(7), std::size_t(1000), std::size_t(65537)}) {
    CAPTURE(n);
    check_round_trip<std::uint8_t>(s, n);
    check_round_trip<std::uint16_t>(s, n);
    check_round_trip<std::uint32_t>(s, n);
    check_round_trip<std::uint64_t>(s, n);
    check_fill<std::uint8_t>(s, n, 0xA5);
    check_fill<std::uint16_t>(s, n, 0xBEEF);
    check_fill<std::uint32_t>(s, n, 0xDEADBEEFu);
    check_fill<std::uint64_t>(s, n, 0x0123456789ABCDEFull);
    check_fill<double>(s, n, -2.5);
    check_fill<std::int32_t>(s, n, -7);
  }
  // Rank 0: one element each way.
  Kokkos::View<std::uint64_t, M> one("one");
  std::uint64_t x = 0xFEEDFACECAFEBEEFull, y = 0;
  strix::copy(s, one, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&x));
  strix::copy(s, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&y), one);
  s.fence();
  CHECK(y == x);
  // The synchronous forms.
  Kokkos::View<std::uint32_t*, M> d("d", 5);
  strix::fill(d, 42u);
  CHECK(to_vector(d) == std::vector<std::uint32_t>(5, 42u));
  // Sizes must match.
  Kokkos::View<std::uint32_t*, M> e("e", 4);
  CHECK_THROWS_AS(strix::copy(s, e, d), strix::error);
}

TEST_CASE_TEMPLATE_APPLY(copy_and_fill, all_configs);
