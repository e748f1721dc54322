// SPDX-License-Identifier: BSD-3-Clause
// Kernels over 2^31 and 2^32 items or more, which GPU texts beyond 4 GiB need: Kokkos before 4.6
// took a CUDA parallel_for's grid stride and first items in 32 bits, so a range of 2^32 - 2 items
// never ended (a 2^32 - 2-byte text hung an H200) and longer ones skipped items
// (kokkos/kokkos#7892), and Kokkos 3.x sized a parallel_scan's grid in int, which fails from 2^31
// items. The bootstrap's Kokkos carries both fixes (cmake/kokkos-patches/08 and 09). Host
// backends are left out: their loops were never wrong, and 2^32 items take seconds on two cores.
#include <doctest/doctest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <strix/core/device_length.hpp>
#include <strix/error.hpp>

#include "test_support.hpp"

TEST_SUITE_BEGIN("core");

namespace {

// Every item of [0, n) with i % 64 == 0 adds itself and 1 into one of 256 buckets: the totals
// are exact only if each such item ran once.
template <class Space>
void check_wide_for(std::uint64_t n) {
  using M = typename Space::memory_space;
  Kokkos::View<std::uint64_t*, M> sums("strix_test::range_sums", 256), counts("strix_test::range_counts", 256);
  Kokkos::parallel_for(
      "strix_test::wide_range", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>(0, std::int64_t(n)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        if (i % 64 != 0) return;
        const std::uint64_t b = std::uint64_t(i) / 64 % 256;
        Kokkos::atomic_add(&sums(b), std::uint64_t(i));
        Kokkos::atomic_add(&counts(b), std::uint64_t(1));
      });
  const auto s = strix_test::to_vector(sums), c = strix_test::to_vector(counts);
  std::uint64_t sum = 0, count = 0;
  for (int b = 0; b < 256; ++b) sum += s[b], count += c[b];
  const std::uint64_t items = (n + 63) / 64;  // 0, 64, ..., 64 (items - 1)
  const std::uint64_t want_sum = 64 * (items % 2 == 0 ? items / 2 * (items - 1) : (items - 1) / 2 * items);
  CHECK(count == items);
  CHECK(sum == want_sum);
}

// A scan with its total and a reduction over the same range: every 64th item counts 1, and the
// final pass leaves the exclusive prefix at every 2^24-th item.
template <class Space>
void check_wide_scan_and_reduce(std::uint64_t n) {
  using M = typename Space::memory_space;
  const std::uint64_t marks = (n >> 24) + 1;
  Kokkos::View<std::uint64_t*, M> prefix("strix_test::range_prefix", marks);
  using policy = Kokkos::RangePolicy<Space, Kokkos::IndexType<std::int64_t>>;
  std::uint64_t total = 0, reduced = 0;
  Kokkos::parallel_scan(
      "strix_test::wide_scan", policy(0, std::int64_t(n)),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& running, const bool final) {
        if (final && (i & ((std::int64_t(1) << 24) - 1)) == 0) prefix(std::uint64_t(i) >> 24) = running;
        running += i % 64 == 0 ? 1 : 0;
      },
      total);
  Kokkos::parallel_reduce(
      "strix_test::wide_reduce", policy(0, std::int64_t(n)),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& sum) { sum += i % 64 == 0 ? 1 : 0; }, reduced);
  CHECK(total == (n + 63) / 64);
  CHECK(reduced == (n + 63) / 64);
  const auto p = strix_test::to_vector(prefix);
  for (std::uint64_t k = 0; k < marks && (k << 24) < n; ++k) CHECK(p[k] == ((k << 24) + 63) / 64);
}

}  // namespace

TEST_CASE("kernels over 2^31 and 2^32 items or more visit each item once on a GPU") {
#if STRIX_ETI_HAS_CUDA
  if (strix::max_device_length() < (std::uint64_t(1) << 32)) {
    MESSAGE("this Kokkos limits GPU texts to " << strix::max_device_length() << " bytes: wide ranges not run");
  } else {
    for (const std::uint64_t n : {(std::uint64_t(1) << 31) + (std::uint64_t(1) << 30), (std::uint64_t(1) << 32) - 2,
                                  (std::uint64_t(1) << 32) + 4097, std::uint64_t(8000000000)}) {
      check_wide_for<Kokkos::Cuda>(n);
      check_wide_scan_and_reduce<Kokkos::Cuda>(n);
    }
  }
#endif
  // Below the limit a GPU length passes; above, a clear invalid_input that names the fix.
  CHECK_NOTHROW(strix::check_device_length(1u << 20, "text"));
  if (strix::max_device_length() != std::uint64_t(-1)) {
    try {
      strix::check_device_length(strix::max_device_length() + 1, "text of many bytes");
      FAIL("no error past the limit");
    } catch (const strix::error& e) {
      CHECK(std::string(e.what()).find("Kokkos 4.6") != std::string::npos);
    }
  }
}
