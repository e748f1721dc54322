// SPDX-License-Identifier: BSD-3-Clause
// Wavelet trees and matrices on every backend and index width, over 8-, 16- and 32-bit
// symbols: access, rank and select from device views and from host arrays against naive
// scans, on the alphabets and lengths where the layout has its edges.
#include <doctest/doctest.h>

#include <strix/succinct/wavelet_matrix.hpp>
#include <strix/succinct/wavelet_tree.hpp>

#include "test_support.hpp"
#include "wavelet_oracle.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("succinct");

namespace {

template <class S>
std::vector<S> random_symbols(std::size_t n, std::uint64_t sigma, std::uint64_t seed, S first = 0, S step = 1) {
  std::mt19937_64 rng(seed);
  std::vector<S> t(n);
  for (auto& c : t) c = static_cast<S>(first + step * (rng() % sigma));
  return t;
}

template <class W, class S, class I, class M>
void check_wavelet(const std::vector<S>& t, const std::string& name) {
  INFO(name << " n=" << t.size());
  using space = typename W::execution_space;
  auto t_d = to_view<M>(t);
  strix::wavelet_options options;
  options.host_chunk = 1000;  // several chunks on every stream
  W w(space(), t_d, options);
  REQUIRE(w.size() == t.size());
  const auto q = naive_wavelet_queries<S, I>(t, t.size() + 11);
  // From device views.
  {
    Kokkos::View<S*, M> found("found", q.access_i.size());
    w.access(to_view<M>(q.access_i), found);
    CHECK(to_vector(found) == q.access_want);
    Kokkos::View<I*, M> out("out", q.rank_i.size());
    w.rank(to_view<M>(q.rank_c), to_view<M>(q.rank_i), out);
    CHECK(to_vector(out) == q.rank_want);
    Kokkos::View<I*, M> sel("sel", q.select_k.size());
    w.select(to_view<M>(q.select_c), to_view<M>(q.select_k), sel);
    CHECK(to_vector(sel) == q.select_want);
  }
  // Sorted by symbol first: the same answers in query order.
  {
    strix::wavelet_options sorted = options;
    sorted.sort_by_symbol = true;
    W ws(space(), t_d, sorted);
    Kokkos::View<I*, M> out("out", q.rank_i.size());
    ws.rank(to_view<M>(q.rank_c), to_view<M>(q.rank_i), out);
    CHECK(to_vector(out) == q.rank_want);
    Kokkos::View<I*, M> sel("sel", q.select_k.size());
    ws.select(to_view<M>(q.select_c), to_view<M>(q.select_k), sel);
    CHECK(to_vector(sel) == q.select_want);
  }
  // From host arrays.
  {
    std::vector<S> found(q.access_i.size());
    w.access(q.access_i.data(), q.access_i.size(), found.data());
    CHECK(found == q.access_want);
    std::vector<I> out(q.rank_i.size());
    w.rank(q.rank_c.data(), q.rank_i.data(), out.size(), out.data());
    CHECK(out == q.rank_want);
    std::vector<I> sel(q.select_k.size());
    w.select(q.select_c.data(), q.select_k.data(), sel.size(), sel.data());
    CHECK(sel == q.select_want);
  }
  // One query at a time (the first few of each kind).
  for (std::size_t j = 0; j < std::min<std::size_t>(q.access_i.size(), 40); ++j)
    REQUIRE(w.access(q.access_i[j]) == q.access_want[j]);
  for (std::size_t j = 0; j < std::min<std::size_t>(q.rank_i.size(), 40); ++j)
    REQUIRE(w.rank(q.rank_c[j], q.rank_i[j]) == q.rank_want[j]);
  for (std::size_t j = 0; j < std::min<std::size_t>(q.select_k.size(), 40); ++j)
    REQUIRE(w.select(q.select_c[j], q.select_k[j]) == q.select_want[j]);
}

template <class C, class S>
void check_both(const std::vector<S>& t, const std::string& name) {
  using I = typename C::index;
  using sp = typename C::space;
  check_wavelet<strix::wavelet_tree<sp, S, I>, S, I, typename C::memory_space>(t, "tree, " + name);
  check_wavelet<strix::wavelet_matrix<sp, S, I>, S, I, typename C::memory_space>(t, "matrix, " + name);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("wavelet: byte alphabets from 1 to 256 symbols", C, wt_bytes) {
  using S = std::uint8_t;
  for (std::uint64_t sigma : {1, 2, 3, 4, 5, 6, 7, 26, 255, 256}) {
    for (std::size_t n : {1ul, 511ul, 512ul, 513ul, 3000ul}) check_both<C>(random_symbols<S>(n, sigma, sigma * n), "sigma " + std::to_string(sigma));
  }
  check_both<C>(std::vector<S>(), "empty");
  check_both<C>(std::vector<S>(1000, S(77)), "all equal");
  check_both<C>(random_symbols<S>(2000, 2, 5, 0, 255), "only 0 and 255");
  check_both<C>(random_symbols<S>(2000, 5, 6, 100, 3), "sigma 5, spread out");
}
TEST_CASE_TEMPLATE_APPLY(wt_bytes, all_configs);

TEST_CASE_TEMPLATE_DEFINE("wavelet: lengths around the L1 block and the select samples", C, wt_long) {
  using S = std::uint8_t;
  for (std::size_t n : {65535ul, 65536ul, 65537ul, 140000ul})
    for (std::uint64_t sigma : {3, 26}) check_both<C>(random_symbols<S>(n, sigma, n + sigma), "sigma " + std::to_string(sigma));
}
TEST_CASE_TEMPLATE_APPLY(wt_long, all_configs);

TEST_CASE_TEMPLATE_DEFINE("wavelet: 16- and 32-bit alphabets", C, wt_wide) {
  using S16 = std::uint16_t;
  using S32 = std::uint32_t;
  for (std::uint64_t sigma : {2, 257, 1000, 4097})
    check_both<C>(random_symbols<S16>(6000, sigma, sigma, 3, 13), "16-bit, sigma " + std::to_string(sigma));
  // All 65536 values, each at least once.
  std::vector<S16> full(70000);
  for (std::size_t i = 0; i < full.size(); ++i) full[i] = static_cast<S16>(i * 40503u);
  check_both<C>(full, "16-bit, sigma 65536");
  check_both<C>(random_symbols<S16>(3000, 2, 8, 0, 65535), "16-bit, only 0 and 65535");
  for (std::uint64_t sigma : {1, 3, 1000, 5000})
    check_both<C>(random_symbols<S32>(8000, sigma, sigma + 1, 17, 987654u), "32-bit, sigma " + std::to_string(sigma));
  check_both<C>(random_symbols<S32>(3000, 2, 9, 0, 0xffffffffu), "32-bit, only 0 and 2^32-1");
}
TEST_CASE_TEMPLATE_APPLY(wt_wide, all_configs);

TEST_CASE_TEMPLATE_DEFINE("wavelet: out-of-range queries are an error for the batch", C, wt_errors) {
  using I = typename C::index;
  using M = typename C::memory_space;
  using S = std::uint8_t;
  const auto t = random_symbols<S>(100, 4, 1);
  strix::wavelet_tree<typename C::space, S, I> w(typename C::space(), to_view<M>(t));
  auto expect_invalid = [](auto&& f) {
    try {
      f();
      FAIL("no error");
    } catch (const strix::error& e) {
      CHECK(e.code() == strix::error_code::invalid_input);
    }
  };
  Kokkos::View<S*, M> found("found", 2);
  Kokkos::View<I*, M> out("out", 2);
  expect_invalid([&] { w.access(to_view<M>(std::vector<I>{0, 100}), found); });
  expect_invalid([&] { w.rank(to_view<M>(std::vector<S>{0, 1}), to_view<M>(std::vector<I>{100, 101}), out); });
  expect_invalid([&] { w.select(to_view<M>(std::vector<S>{0, 1}), to_view<M>(std::vector<I>{1, 0}), out); });
  std::vector<I> host_out(2);
  std::vector<I> bad_k = {0, 1};
  std::vector<S> cs = {0, 1};
  expect_invalid([&] { w.select(cs.data(), bad_k.data(), 2, host_out.data()); });
}
TEST_CASE_TEMPLATE_APPLY(wt_errors, all_configs);

TEST_SUITE_END();
