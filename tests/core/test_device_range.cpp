// SPDX-License-Identifier: BSD-3-Clause
// Kernels over 2^32 items or more, which GPU texts beyond 4 GiB need: Kokkos before 4.6 took a
// CUDA parallel_for's grid stride and first items in 32 bits, so a range of 2^32 - 2 items never
// ended (a 2^32 - 2-byte text hung an H200) and longer ones skipped items (kokkos/kokkos#7892;
// the bootstrap's Kokkos carries the fix, cmake/kokkos-patches/08). Host backends are left out:
// their loops were never wrong, and 2^32 items take seconds on two cores.
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
void check_wide_range(std::uint64_t n) {
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
  std::uint64_t sum = 0, count = 0, want_sum = 0;
  for (int b = 0; b < 256; ++b) sum += s[b], count += c[b];
  const std::uint64_t items = (n + 63) / 64;  // 0, 64, ..., 64 (items - 1)
  want_sum = 64 * (items % 2 == 0 ? items / 2 * (items - 1) : (items - 1) / 2 * items);
  CHECK(count == items);
  CHECK(sum == want_sum);
}

}  // namespace

TEST_CASE("kernels over 2^32 items or more visit each item once on a GPU") {
#if STRIX_ETI_HAS_CUDA
  if (strix::max_device_length() < (std::uint64_t(1) << 32)) {
    MESSAGE("this Kokkos limits GPU texts to " << strix::max_device_length() << " bytes: wide ranges not run");
  } else {
    for (const std::uint64_t n : {(std::uint64_t(1) << 32) - 2, (std::uint64_t(1) << 32) + 4097,
                                  std::uint64_t(8000000000)})
      check_wide_range<Kokkos::Cuda>(n);
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
