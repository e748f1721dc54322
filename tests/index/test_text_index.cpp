// SPDX-License-Identifier: BSD-3-Clause
// strix::text_index on every backend: parts built on request against the oracles, reuse,
// release, adoption of a suffix array, and memory accounting.
#include <algorithm>
#include <doctest/doctest.h>

#include <strix/index/text_index.hpp>
#include <strix/lcp/sequential.hpp>

#include "../sa/sa_algorithms.hpp"
#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("index");

TEST_CASE_TEMPLATE_DEFINE("text_index builds every part on request", C, index_parts) {
  using I = typename C::index;
  auto inputs = hard_inputs();
  inputs.push_back({"random 100 kB", random_text(100000, 4, 21)});
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const std::uint64_t n = text.size();
    strix::text_index<typename C::space, I> index(typename C::space(), text.data(), n);
    CHECK(index.size() == n);
    CHECK_FALSE(index.has(strix::index_part::suffix_array));
    const auto sa = naive_suffix_array<I>(text);
    // The LCP first: it builds the suffix array it needs on the way.
    std::vector<I> lcp(n);
    strix::sequential::lcp_array(text.data(), sa.data(), n, lcp.data());
    CHECK(to_vector(index.lcp()) == lcp);
    CHECK(index.has(strix::index_part::suffix_array));
    CHECK(to_vector(index.suffix_array()) == sa);
    const auto isa = to_vector(index.inverse_suffix_array());
    for (std::size_t r = 0; r < n; ++r) REQUIRE(isa[sa[r]] == r);
    const auto [bwt, primary] = divbwt_of(text);
    CHECK(to_vector(index.bwt()) == bwt);
    CHECK(index.bwt_primary() == primary);
    CHECK(to_vector(index.text()) == text);
  }
}
TEST_CASE_TEMPLATE_APPLY(index_parts, all_configs);

TEST_CASE_TEMPLATE_DEFINE("text_index accounts, releases and rebuilds its parts", C, index_memory) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  const auto text = long_runs(50000, 5);  // long runs: doubling rounds after the first sort
  const std::uint64_t n = text.size();
  // Prefix doubling: an algorithm with rounds to report and a workspace to account.
  strix::sa_options prefix_doubling;
  prefix_doubling.algorithm = strix::sa_algorithm::prefix_doubling;
  strix::text_index<typename C::space, I> index(typename C::space(), text.data(), n, prefix_doubling);
  CHECK(index.bytes() == n);
  strix::run_stats stats;
  std::vector<std::string> seen;
  std::vector<double> done;  // the fractions of suffixes in place, as the build reports them
  stats.on_progress = [&done](const std::string&, double fraction) {
    if (fraction >= 0) done.push_back(fraction);
  };
  stats.on_phase = [&seen](const std::string& phase, double) { seen.push_back(phase); };
  const auto sa = to_vector(index.suffix_array(&stats));
  CHECK(sa == divsufsort_suffix_array<I>(text));
  CHECK_FALSE(seen.empty());
  REQUIRE_FALSE(done.empty());
  CHECK(std::is_sorted(done.begin(), done.end()));
  CHECK(done.back() == 1.0);
  CHECK(stats.counter("rounds") > 0);
  CHECK(index.bytes(strix::index_part::suffix_array) == n * sizeof(I));
  CHECK(index.bytes(strix::index_part::sa_workspace) > 0);
  CHECK(index.bytes() == n + n * sizeof(I) + index.bytes(strix::index_part::sa_workspace));
  CHECK(stats.peak_bytes >= index.bytes());
  CHECK(index.peak_bytes() >= stats.peak_bytes);

  index.release(strix::index_part::sa_workspace);
  CHECK(index.bytes(strix::index_part::sa_workspace) == 0);
  index.lcp();
  CHECK(index.bytes(strix::index_part::lcp) == n * sizeof(I));
  index.release(strix::index_part::suffix_array);
  CHECK_FALSE(index.has(strix::index_part::suffix_array));
  CHECK(index.bytes(strix::index_part::suffix_array) == 0);
  CHECK(to_vector(index.suffix_array()) == sa);  // rebuilt, the workspace allocated again
  CHECK_THROWS_AS(index.release(strix::index_part::text), strix::error);

  // A suffix array from elsewhere: checked, and the parts built from the old one dropped.
  auto good = to_view<mem>(sa);
  index.set_suffix_array(good);
  CHECK_FALSE(index.has(strix::index_part::lcp));
  auto wrong_values = sa;
  std::swap(wrong_values[10], wrong_values[20]);
  auto wrong = to_view<mem>(wrong_values);
  try {
    index.set_suffix_array(wrong);
    FAIL("a wrong suffix array was accepted");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
  }
  CHECK(to_vector(index.suffix_array()) == sa);
}
TEST_CASE_TEMPLATE_APPLY(index_memory, all_configs);

TEST_CASE_TEMPLATE_DEFINE("text_index shares a device text and reserves before building", C, index_adopt) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  const auto text = fibonacci_word(20000);
  auto text_d = to_view<mem>(text);
  strix::sa_options prefix_doubling;  // an algorithm with a workspace to reserve
  prefix_doubling.algorithm = strix::sa_algorithm::prefix_doubling;
  strix::text_index<typename C::space, I> index(typename C::space(), text_d, prefix_doubling);
  CHECK(index.text().data() == text_d.data());
  index.reserve_suffix_array();
  CHECK_FALSE(index.has(strix::index_part::suffix_array));
  CHECK(index.bytes(strix::index_part::sa_workspace) > 0);
  CHECK(to_vector(index.suffix_array()) == naive_suffix_array<I>(text));
}
TEST_CASE_TEMPLATE_APPLY(index_adopt, all_configs);

TEST_CASE_TEMPLATE_DEFINE("text_index builds with the algorithm it is given", C, index_algorithm) {
  using I = typename C::index;
  const auto text = random_text(50000, 3, 77);
  const auto sa = naive_suffix_array<I>(text);
  for (const auto& options : sa_algorithms_under_test<typename C::space>()) {
    const auto algorithm = strix::algorithm_name(options);
    CAPTURE(algorithm);
    strix::text_index<typename C::space, I> index(typename C::space(), text.data(), text.size(), options);
    strix::run_stats stats;
    CHECK(to_vector(index.suffix_array(&stats)) == sa);
    const auto picked = stats.note("algorithm");
    if (options.algorithm == strix::sa_algorithm::automatic) CHECK((!picked.empty() && picked != "auto"));
    else CHECK(picked == algorithm);
    CHECK(index.peak_bytes() >= text.size() * (1 + sizeof(I)));
  }
}
TEST_CASE_TEMPLATE_APPLY(index_algorithm, all_configs);

TEST_SUITE_END();
