// SPDX-License-Identifier: BSD-3-Clause
// LCP arrays on every backend and index width: against a naive LCP on small inputs and
// against Kasai over libdivsufsort's suffix array on large inputs (oracle.hpp, large_text_bytes).
#include <doctest/doctest.h>

#include <map>

#include <strix/backend/host/phi_lcp.hpp>
#include <strix/strix.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("lcp");

namespace {

// lcp[r] by direct comparison of neighbouring suffixes.
template <class I>
std::vector<I> naive_lcp(const bytes& t, const std::vector<I>& sa) {
  std::vector<I> lcp(sa.size(), 0);
  for (std::size_t r = 1; r < sa.size(); ++r) {
    std::size_t a = sa[r - 1], b = sa[r], l = 0;
    while (a + l < t.size() && b + l < t.size() && t[a + l] == t[b + l]) ++l;
    lcp[r] = static_cast<I>(l);
  }
  return lcp;
}

// Kasai et al. (2001): text order, with the rank array; independent of strix's method.
template <class I>
std::vector<I> kasai_lcp(const bytes& t, const std::vector<I>& sa) {
  const std::size_t n = t.size();
  std::vector<I> rank(n), lcp(n, 0);
  for (std::size_t r = 0; r < n; ++r) rank[sa[r]] = static_cast<I>(r);
  std::size_t h = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (rank[i] == 0) { h = 0; continue; }
    const std::size_t j = sa[rank[i] - 1];
    while (i + h < n && j + h < n && t[i + h] == t[j + h]) ++h;
    lcp[rank[i]] = static_cast<I>(h);
    if (h > 0) --h;
  }
  return lcp;
}

template <class C>
std::vector<typename C::index> strix_lcp(const bytes& text, const std::vector<typename C::index>& sa) {
  using I = typename C::index;
  auto text_d = to_view<typename C::memory_space>(text);
  auto sa_d = to_view<typename C::memory_space>(sa);
  Kokkos::View<I*, typename C::memory_space> lcp("lcp", text.size());
  strix::fill(lcp, I(12345));  // poison: every entry must be written
  strix::lcp_array(typename C::space(), text_d, sa_d, lcp);
  return to_vector(lcp);
}

// Texts whose longest comparisons end around the per-thread chunk and its doublings.
std::vector<std::pair<std::string, bytes>> chunk_edge_inputs() {
  std::vector<std::pair<std::string, bytes>> v;
  const std::size_t K = strix::detail::lcp_chunk_bytes;
  for (std::size_t n : {K - 1, K, K + 1, K + 2, 2 * K - 1, 2 * K, 2 * K + 1, 2 * K + 2,
                        4 * K + 1, 8 * K + 3, 64 * K + 1}) {
    v.push_back({"all-equal " + std::to_string(n), bytes(n, 'z')});
    v.push_back({"abab " + std::to_string(n), periodic(n, "ab")});
    bytes twice = random_text(n / 2, 4, n, 'a');  // x x: one long irreducible lcp
    bytes t = twice;
    t.insert(t.end(), twice.begin(), twice.end());
    t.push_back('a');
    v.push_back({"square " + std::to_string(n), t});
  }
  return v;
}

// The host Phi passes called directly (strix::lcp_array takes its thread count from the
// execution space).
template <class I>
std::vector<I> host_passes_lcp(const bytes& text, const std::vector<I>& sa, int threads) {
  const std::size_t n = text.size();
  std::vector<I> plcp(n, I(777)), lcp(n, I(12345));  // poison: every entry must be written
  strix::backend::host::phi_from_suffix_array(sa.data(), plcp.data(), n, threads);
  strix::backend::host::plcp_in_place(text.data(), plcp.data(), n, threads);
  strix::backend::host::lcp_from_plcp(sa.data(), plcp.data(), lcp.data(), n, threads);
  return lcp;
}

// Around the host passes' thresholds: the 64-entry prefetch distance, the 8-byte compare
// step, the 2^16-entry parallel cut-off; long matches that cross the threads' parts.
std::vector<std::pair<std::string, bytes>> host_pass_inputs() {
  auto v = hard_inputs();
  for (std::size_t n : {7, 8, 9, 15, 16, 17, 63, 64, 65, 129, 65535, 65536, 65537, 200003}) {
    const std::string size = " " + std::to_string(n);
    v.push_back({"random bytes" + size, random_text(n, 256, n)});
    v.push_back({"random DNA" + size, random_text(n, 4, n + 1, 'A')});
    v.push_back({"all 0x00" + size, bytes(n, 0x00)});
    v.push_back({"all 0xFF" + size, bytes(n, 0xFF)});
    v.push_back({"fibonacci" + size, fibonacci_word(n)});
    v.push_back({"long runs" + size, long_runs(n, n + 3)});
    v.push_back({"period 0x00 0xFF" + size, periodic(n, std::string("\0\xff\xff", 3))});
    bytes square = random_text(n / 2, 4, n + 2, 'a');  // x x: one match of n / 2 bytes
    square.insert(square.end(), square.begin(), square.end());
    v.push_back({"square" + size, square});
  }
  return v;
}

}  // namespace

TEST_CASE("lcp: the host Phi passes match Kasai at 1, 2 and 7 threads, 32- and 64-bit") {
  for (const auto& input : host_pass_inputs()) {
    const auto& text = input.second;
    CAPTURE(input.first);
    const auto sa = divsufsort_suffix_array<std::uint32_t>(text);
    const auto want = kasai_lcp(text, sa);
    for (int threads : {1, 2, 7}) {
      CAPTURE(threads);
      CHECK(host_passes_lcp(text, sa, threads) == want);
    }
    if (text.size() <= 65537) {
      const auto sa64 = divsufsort_suffix_array<std::uint64_t>(text);
      CHECK(host_passes_lcp(text, sa64, 7) == kasai_lcp(text, sa64));
    }
  }
}

TEST_CASE_TEMPLATE_DEFINE("lcp: hard and chunk-edge inputs match a naive LCP", C, lcp_hard) {
  using I = typename C::index;
  auto inputs = hard_inputs();
  for (auto& e : chunk_edge_inputs()) inputs.push_back(e);
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto sa = divsufsort_suffix_array<I>(text);
    CHECK(strix_lcp<C>(text, sa) == naive_lcp(text, sa));
  }
}
TEST_CASE_TEMPLATE_APPLY(lcp_hard, all_configs);

TEST_CASE_TEMPLATE_DEFINE("lcp: in the suffix array's place", C, lcp_in_place) {
  using I = typename C::index;
  auto inputs = hard_inputs();
  for (auto& e : chunk_edge_inputs()) inputs.push_back(e);
  inputs.push_back({"random 200 kB", random_text(200000, 4, 77)});
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto sa = divsufsort_suffix_array<I>(text);
    auto text_d = to_view<typename C::memory_space>(text);
    auto sa_d = to_view<typename C::memory_space>(sa);
    strix::run_stats stats;
    strix::lcp_array(typename C::space(), text_d, sa_d, sa_d, &stats);
    CHECK(to_vector(sa_d) == naive_lcp(text, sa));
  }
}
TEST_CASE_TEMPLATE_APPLY(lcp_in_place, all_configs);

TEST_CASE_TEMPLATE_DEFINE("lcp: random texts of many lengths and alphabets", C, lcp_random) {
  using I = typename C::index;
  std::uint64_t seed = 100;
  for (unsigned sigma : {1u, 2u, 4u, 26u, 256u}) {
    for (std::size_t n : {1, 2, 3, 5, 31, 64, 65, 127, 129, 1000, 2049}) {
      const auto text = random_text(n, sigma, seed++, sigma == 26 ? 'a' : 0);
      CAPTURE(sigma);
      CAPTURE(n);
      const auto sa = divsufsort_suffix_array<I>(text);
      CHECK(strix_lcp<C>(text, sa) == naive_lcp(text, sa));
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(lcp_random, all_configs);

TEST_CASE_TEMPLATE_DEFINE("lcp: large inputs match Kasai over libdivsufsort", C, lcp_large) {
  using I = typename C::index;
  const std::size_t n = large_text_bytes(strix::is_host_space_v<typename C::space>);
  // The 64-bit runs check two inputs to keep the suite short.
  const auto inputs = large_inputs(n, sizeof(I) == 4);
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto sa = divsufsort_suffix_array<I>(text);
    const auto got = strix_lcp<C>(text, sa);
    const auto want = kasai_lcp(text, sa);
    CHECK(got == want);
    if (got != want) {
      std::size_t r = 0;
      while (got[r] == want[r]) ++r;
      FAIL_CHECK("first difference at rank " << r << ": " << got[r] << " != " << want[r]);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(lcp_large, all_configs);

TEST_CASE("lcp: the sequential reference matches Kasai") {
  for (const auto& input : hard_inputs()) {
    const auto& text = input.second;
    CAPTURE(input.first);
    const auto sa = divsufsort_suffix_array<std::uint32_t>(text);
    std::vector<std::uint32_t> lcp(text.size());
    strix::sequential::lcp_array(text.data(), sa.data(), text.size(), lcp.data());
    CHECK(lcp == kasai_lcp(text, sa));
  }
}

TEST_CASE_TEMPLATE_DEFINE("lcp: mismatched sizes are invalid input", C, lcp_errors) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  Kokkos::View<std::uint8_t*, mem> text("text", 10);
  Kokkos::View<I*, mem> sa("sa", 10), short_lcp("lcp", 9), short_sa("sa", 9), lcp("lcp", 10);
  try {
    strix::lcp_array(typename C::space(), text, sa, short_lcp);
    FAIL("no error");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
  }
  CHECK_THROWS_AS(strix::lcp_array(typename C::space(), text, short_sa, lcp), strix::error);
}
TEST_CASE_TEMPLATE_APPLY(lcp_errors, all_configs);

TEST_SUITE_END();
