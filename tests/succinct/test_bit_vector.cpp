// SPDX-License-Identifier: BSD-3-Clause
// Bit vectors on every backend and index width: rank, select and access against naive
// scans, on uniform and adversarial fills (99% of the ones in the last k%), at lengths
// around the L2 (512), L1 (65536) and select-sample boundaries.
#include <doctest/doctest.h>

#include <random>

#include <strix/succinct/bit_vector.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("succinct");

namespace {

using bits = std::vector<bool>;

bits uniform_bits(std::size_t n, double fill, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution one(fill);
  bits b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = one(rng);
  return b;
}

// Kurpicz's adversarial fill: 99% of the ones in the last fill*n bits, 1% before.
bits adversarial_bits(std::size_t n, double fill, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::size_t tail = static_cast<std::size_t>(fill * n), head = n - tail;
  const double ones = fill * n;
  std::bernoulli_distribution in_tail(tail ? std::min(1.0, 0.99 * ones / tail) : 0.0);
  std::bernoulli_distribution in_head(head ? std::min(1.0, 0.01 * ones / head) : 0.0);
  bits b(n);
  for (std::size_t i = 0; i < n; ++i) b[i] = i < head ? in_head(rng) : in_tail(rng);
  return b;
}

std::vector<std::uint64_t> pack(const bits& b) {
  std::vector<std::uint64_t> w((b.size() + 63) / 64 + 1, ~std::uint64_t(0));  // junk past n
  for (std::size_t i = 0; i < (b.size() + 63) / 64 * 64; ++i) {
    if (i < b.size() && !b[i]) w[i / 64] &= ~(std::uint64_t(1) << (i % 64));
  }
  return w;
}

template <class C>
void check_bits(const bits& b, const strix::bit_vector_options& options, const std::string& name) {
  using I = typename C::index;
  using M = typename C::memory_space;
  const std::size_t n = b.size();
  const auto words = pack(b);
  auto words_d = to_view<M>(words);
  strix::bit_vector<typename C::space, I> bv(typename C::space(), words_d, n, options);
  std::vector<I> rank1(n + 1, 0), ones_at, zeros_at;
  for (std::size_t i = 0; i < n; ++i) {
    rank1[i + 1] = rank1[i] + (b[i] ? 1 : 0);
    (b[i] ? ones_at : zeros_at).push_back(I(i));
  }
  INFO(name << " n=" << n);
  REQUIRE(bv.size() == n);
  REQUIRE(bv.ones() == ones_at.size());
  // Every position for rank and access; every k, plus count + 1 and beyond, for select.
  std::vector<I> pos(n + 1);
  for (std::size_t i = 0; i <= n; ++i) pos[i] = I(i);
  auto pos_d = to_view<M>(pos);
  Kokkos::View<I*, M> out("out", n + 1);
  bv.rank1(pos_d, out);
  CHECK(to_vector(out) == rank1);
  bv.rank0(pos_d, out);
  auto r0 = to_vector(out);
  bool ok = true;
  for (std::size_t i = 0; i <= n; ++i) ok = ok && r0[i] == I(i) - rank1[i];
  CHECK(ok);
  if (n > 0) {
    auto acc_q = to_view<M>(std::vector<I>(pos.begin(), pos.end() - 1));
    Kokkos::View<I*, M> acc("acc", n);
    bv.access(acc_q, acc);
    auto a = to_vector(acc);
    ok = true;
    for (std::size_t i = 0; i < n; ++i) ok = ok && a[i] == (b[i] ? 1u : 0u);
    CHECK(ok);
  }
  for (int one = 0; one < 2; ++one) {
    const auto& at = one ? ones_at : zeros_at;
    std::vector<I> ks, want;
    for (std::size_t k = 1; k <= at.size() + 2; ++k) {
      ks.push_back(I(k));
      want.push_back(k <= at.size() ? at[k - 1] : I(n));
    }
    auto ks_d = to_view<M>(ks);
    Kokkos::View<I*, M> sel("sel", ks.size());
    if (one) bv.select1(ks_d, sel);
    else bv.select0(ks_d, sel);
    CHECK_MESSAGE(to_vector(sel) == want, (one ? "select1" : "select0"));
  }
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("bit vector: rank, select and access match naive scans", C, bv_naive) {
  strix::bit_vector_options small;
  small.select_sample = 64;  // many samples: every search path runs on small vectors
  for (std::size_t n : {0ul, 1ul, 63ul, 64ul, 65ul, 255ul, 256ul, 257ul, 511ul, 512ul, 513ul, 1024ul, 5000ul}) {
    for (double fill : {0.0, 0.1, 0.5, 0.9, 1.0}) {
      check_bits<C>(uniform_bits(n, fill, n + 7), small, "uniform");
      check_bits<C>(uniform_bits(n, fill, n + 7), {}, "uniform, default sampling");
    }
  }
  // Around one and two L1 blocks and the default sample interval.
  for (std::size_t n : {65535ul, 65536ul, 65537ul, 131072ul + 300}) {
    for (double fill : {0.1, 0.5, 0.9}) {
      check_bits<C>(uniform_bits(n, fill, n), {}, "uniform");
      check_bits<C>(adversarial_bits(n, fill, n + 1), {}, "adversarial");
      check_bits<C>(adversarial_bits(n, fill, n + 2), small, "adversarial, small sampling");
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(bv_naive, all_configs);

TEST_CASE_TEMPLATE_DEFINE("bit vector: out-of-range queries are an error for the batch", C, bv_errors) {
  using I = typename C::index;
  using M = typename C::memory_space;
  const auto b = uniform_bits(1000, 0.5, 3);
  auto words_d = to_view<M>(pack(b));
  strix::bit_vector<typename C::space, I> bv(typename C::space(), words_d, 1000);
  Kokkos::View<I*, M> out("out", 3);
  auto expect_invalid = [](auto&& f) {
    try {
      f();
      FAIL("no error");
    } catch (const strix::error& e) {
      CHECK(e.code() == strix::error_code::invalid_input);
    }
  };
  expect_invalid([&] { bv.rank1(to_view<M>(std::vector<I>{0, 1001, 5}), out); });
  expect_invalid([&] { bv.access(to_view<M>(std::vector<I>{999, 1000, 5}), out); });
  expect_invalid([&] { bv.select1(to_view<M>(std::vector<I>{1, 0, 5}), out); });
  expect_invalid([&] { bv.rank1(to_view<M>(std::vector<I>{0, 1}), out); });  // sizes differ
  strix::bit_vector_options odd;
  odd.select_sample = 1000;
  expect_invalid([&] { strix::bit_vector<typename C::space, I>(typename C::space(), words_d, 1000, odd); });
  // A valid batch after the errors still works.
  bv.rank1(to_view<M>(std::vector<I>{0, 1000, 1}), out);
  auto r = to_vector(out);
  CHECK(r[0] == 0);
  CHECK(r[1] == bv.ones());
}
TEST_CASE_TEMPLATE_APPLY(bv_errors, all_configs);

TEST_CASE("bit vector: the directory stays under 4% of the bits") {
  const std::size_t n = std::size_t(1) << 22;
  auto words_d = to_view<first_memory>(pack(uniform_bits(n, 0.5, 9)));
  strix::bit_vector<first_space, std::uint64_t> bv(first_space(), words_d, n);
  CHECK(double(bv.directory_bytes() * 8) / double(n) <= 0.04);
}

TEST_CASE("bit vector: its construction records its phase and memory") {
  const std::size_t n = 100000;
  strix::run_stats stats;
  const auto words = pack(uniform_bits(n, 0.3, 4));
  auto bv = strix::bit_vector<first_space, std::uint32_t>::from_host(first_space(), words.data(), n, {}, &stats);
  REQUIRE(stats.phases.size() == 1);
  CHECK(stats.phases.front().first == "rank_select");
  CHECK(stats.peak_bytes == bv.bytes());
}

TEST_SUITE_END();
