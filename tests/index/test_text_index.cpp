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

TEST_CASE_TEMPLATE_DEFINE("text_index: every build records its phases and peak; a const device text", C, index_stats) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  const auto text = random_text(30000, 3, 7);
  const std::uint64_t n = text.size();
  // The one way a host text goes to the device, then shared as a const view.
  const auto copied = strix::copy_text_to_device(typename C::space(), text.data(), n);
  CHECK(to_vector(copied) == text);
  const Kokkos::View<const std::uint8_t*, mem> text_d = copied;
  strix::text_index<typename C::space, I> index(typename C::space(), text_d);
  CHECK(index.text().data() == text_d.data());
  auto phases = [](const strix::run_stats& s) {
    std::vector<std::string> names;
    for (const auto& p : s.phases) names.push_back(p.first);
    return names;
  };
  auto has_phase = [&](const strix::run_stats& s, const std::string& name) {
    const auto names = phases(s);
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  index.suffix_array();
  strix::run_stats isa_stats, bwt_stats, lcp_stats;
  index.inverse_suffix_array(&isa_stats);
  CHECK(has_phase(isa_stats, "inverse_suffix_array"));
  CHECK(isa_stats.peak_bytes >= n + 2 * n * sizeof(I));  // the text, SA and ISA at least
  index.bwt(&bwt_stats);
  CHECK(has_phase(bwt_stats, "bwt"));
  CHECK(bwt_stats.peak_bytes >= 2 * n + 2 * n * sizeof(I));  // text, SA, ISA (still held), BWT
  index.lcp(&lcp_stats);
  CHECK_FALSE(lcp_stats.phases.empty());
  CHECK(lcp_stats.peak_bytes >= index.bytes() - index.bytes(strix::index_part::sa_workspace));
  CHECK(index.peak_bytes() >= lcp_stats.peak_bytes);
  // Each part's bytes, from the parts table.
  std::size_t sum = 0;
  for (const auto& row : strix::index_parts) sum += index.bytes(row.part);
  CHECK(sum == index.bytes());
  // A built part is not built again: no phases the second time.
  strix::run_stats again;
  index.bwt(&again);
  CHECK(again.phases.empty());
}
TEST_CASE_TEMPLATE_APPLY(index_stats, all_configs);

TEST_CASE_TEMPLATE_DEFINE("text_index makes the BWT without a suffix array where the construction can", C, index_bwt) {
  // bwt_without_suffix_array() where it can, then bwt() (from a suffix array it keeps where not).
  using I = typename C::index;
  auto inputs = hard_inputs();
  inputs.push_back({"random 100 kB", random_text(100000, 4, 22)});
  for (auto algorithm : {strix::sa_algorithm::automatic, strix::sa_algorithm::sais, strix::sa_algorithm::divsufsort,
                         strix::sa_algorithm::prefix_doubling, strix::sa_algorithm::larsson_sadakane,
                         strix::sa_algorithm::skew}) {
    if (!strix::sa_algorithm_available<typename C::space>(algorithm)) continue;
    CAPTURE(strix::algorithm_name(strix::sa_options{algorithm}));
    // sais, divsufsort, prefix doubling and Larsson–Sadakane (auto's picks for these short
    // texts: sais or divsufsort on hosts, prefix doubling on GPUs) make it as they sort; skew
    // from a suffix array, which is then kept.
    const bool direct = algorithm != strix::sa_algorithm::skew;
    for (const auto& input : inputs) {
      const auto& name = input.first;
      const auto& text = input.second;
      CAPTURE(name);
      const std::uint64_t n = text.size();
      strix::sa_options options;
      options.algorithm = algorithm;
      strix::text_index<typename C::space, I> index(typename C::space(), text.data(), n, options);
      strix::run_stats stats;
      const auto [bwt, primary] = divbwt_of(text);
      CHECK(index.bwt_without_suffix_array(&stats) == direct);
      const std::size_t direct_peak = stats.peak_bytes;
      CHECK(to_vector(index.bwt(&stats)) == bwt);
      CHECK(index.bwt_primary() == primary);
      CHECK(index.has(strix::index_part::suffix_array) == !direct);
      CHECK(stats.peak_bytes >= 2 * n + n * sizeof(I));  // text, BWT and the suffix array or its place
      CHECK(index.peak_bytes() >= 2 * n + n * sizeof(I));
      // With a suffix array held, the BWT comes from it.
      strix::text_index<typename C::space, I> held(typename C::space(), text.data(), n, options);
      strix::run_stats held_stats;
      held.suffix_array(&held_stats);
      // Made as the construction sorts, the BWT costs its own n bytes beyond a suffix array's build.
      if (direct) CHECK(direct_peak <= held_stats.peak_bytes + n);
      CHECK_FALSE(held.bwt_without_suffix_array());
      CHECK(to_vector(held.bwt()) == bwt);
      CHECK(held.bwt_without_suffix_array());  // built now
      // Reserved first (as the tool does before its clock), the same answers either way.
      strix::text_index<typename C::space, I> reserved(typename C::space(), text.data(), n, options);
      reserved.reserve_bwt();
      CHECK(reserved.bwt_without_suffix_array() == direct);
      CHECK(to_vector(reserved.bwt()) == bwt);
      CHECK(reserved.bwt_primary() == primary);
      CHECK(reserved.has(strix::index_part::suffix_array) == !direct);
      // A suffix array asked for after is built then, and the BWT is unchanged.
      CHECK(to_vector(index.suffix_array()) == divsufsort_suffix_array<I>(text));
      CHECK(to_vector(index.bwt()) == bwt);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(index_bwt, all_configs);

TEST_CASE_TEMPLATE_DEFINE("text_index turns its suffix array into the LCP array", C, index_lcp_in_place) {
  using I = typename C::index;
  auto inputs = hard_inputs();
  inputs.push_back({"random 100 kB", random_text(100000, 26, 23, 'a')});
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const std::uint64_t n = text.size();
    const auto sa = divsufsort_suffix_array<I>(text);
    std::vector<I> want(n);
    strix::sequential::lcp_array(text.data(), sa.data(), n, want.data());
    strix::text_index<typename C::space, I> index(typename C::space(), text.data(), n);
    index.suffix_array();
    index.release(strix::index_part::sa_workspace);
    strix::run_stats stats;
    CHECK(to_vector(index.lcp_replacing_suffix_array(&stats)) == want);
    CHECK_FALSE(index.has(strix::index_part::suffix_array));
    CHECK(index.has(strix::index_part::lcp));
    CHECK(index.bytes() == n + n * sizeof(I));
    CHECK(stats.peak_bytes >= n + 2 * n * sizeof(I));  // text, suffix array / LCP, PLCP
    // Asked again: the same array; the suffix array comes back on request.
    CHECK(to_vector(index.lcp_replacing_suffix_array()) == want);
    CHECK(to_vector(index.suffix_array()) == sa);
    CHECK(to_vector(index.lcp()) == want);
  }
}
TEST_CASE_TEMPLATE_APPLY(index_lcp_in_place, all_configs);

TEST_CASE("one length limit for 32-bit indexes") {
  CHECK(strix::max_length<std::uint32_t>() == 4294967294ull);
  CHECK(strix::index_width_for(4294967294ull) == 32);
  CHECK(strix::index_width_for(4294967295ull) == 64);
  CHECK_NOTHROW(strix::check_length<std::uint32_t>(4294967294ull, "text"));
  try {
    strix::check_length<std::uint32_t>(4294967295ull, "text of 4294967295 bytes");
    FAIL("no error");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
    CHECK(std::string(e.what()).find("too long") != std::string::npos);
  }
}

TEST_SUITE_END();
