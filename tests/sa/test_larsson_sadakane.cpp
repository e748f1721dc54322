// SPDX-License-Identifier: BSD-3-Clause
// GPU-LS: every size class (S, M, L) and the groups on either side of its bounds, against
// naive sorting and libdivsufsort, with the counters proving which classes ran.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <strix/strix.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("sa");

namespace {

strix::sa_options ls_options(std::uint32_t small, std::uint32_t medium) {
  strix::sa_options o;
  o.algorithm = strix::sa_algorithm::larsson_sadakane;
  o.ls_small_group = small;
  o.ls_medium_group = medium;
  return o;
}

template <class C>
std::vector<typename C::index> ls_sa(const bytes& text, const strix::sa_options& options, strix::run_stats& stats) {
  using I = typename C::index;
  auto text_d = to_view<typename C::memory_space>(text);
  Kokkos::View<I*, typename C::memory_space> sa("sa", text.size());
  strix::fill(sa, I(12345));  // poison: every entry must be written
  strix::suffix_array(typename C::space(), text_d, sa, options, &stats);
  return to_vector(sa);
}

// For each g in `copies`: a random block of 40 bytes (never 0xFF), repeated g times, each
// copy followed by a separator unique among that block's copies (0xFF and the copy number,
// big-endian, in `sep_bytes` bytes). A key holds at most 32 characters, so the suffixes
// starting early in a block form groups of exactly g suffixes, which keep that size until
// the doubling reaches the separators and then fall apart into singletons.
bytes repeated_blocks(const std::vector<std::size_t>& copies, int sep_bytes, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  bytes t;
  for (const std::size_t g : copies) {
    bytes block(40);
    for (auto& c : block) c = static_cast<std::uint8_t>(rng() % 255);
    for (std::size_t i = 0; i < g; ++i) {
      t.insert(t.end(), block.begin(), block.end());
      t.push_back(0xFF);
      for (int b = sep_bytes - 1; b >= 0; --b) t.push_back(static_cast<std::uint8_t>(i >> (8 * b)));
    }
  }
  return t;
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("larsson-sadakane: groups on either side of R1 and R2 go to their class", C, ls_bounds) {
  using I = typename C::index;
  const std::uint32_t r1 = 4, r2 = 64;
  const auto options = ls_options(r1, r2);
  // g suffixes a group: S up to R1, M up to R2, L beyond (and no other groups of note).
  for (const std::size_t g : {std::size_t(2), std::size_t(r1 - 1), std::size_t(r1), std::size_t(r1 + 1),
                              std::size_t(r2 - 1), std::size_t(r2), std::size_t(r2 + 1), std::size_t(3 * r2)}) {
    CAPTURE(g);
    const auto text = repeated_blocks({g}, 1, g);
    strix::run_stats stats;
    CHECK(ls_sa<C>(text, options, stats) == naive_suffix_array<I>(text));
    CHECK(stats.counter("rounds") >= 1);
    if (g <= r1) CHECK(stats.counter("small_groups") > 0);
    CHECK((stats.counter("medium_groups") > 0) == (g > r1 && g <= r2));
    CHECK((stats.counter("large_groups") > 0) == (g > r2));
  }
}
TEST_CASE_TEMPLATE_APPLY(ls_bounds, all_configs);

TEST_CASE_TEMPLATE_DEFINE("larsson-sadakane: default bounds, groups around 1024 and 65536, vs libdivsufsort", C,
                          ls_default_bounds) {
  using I = typename C::index;
  const strix::sa_options defaults = ls_options(1024, 65536);
  const strix::sa_options options = [] {
    strix::sa_options o;
    o.algorithm = strix::sa_algorithm::larsson_sadakane;
    return o;
  }();
  CHECK(options.ls_small_group == defaults.ls_small_group);
  CHECK(options.ls_medium_group == defaults.ls_medium_group);
  const auto text = repeated_blocks({1023, 1024, 1025, 65535, 65536, 65537}, 3, 99);
  strix::run_stats stats;
  CHECK(ls_sa<C>(text, defaults, stats) == divsufsort_suffix_array<I>(text));
  CHECK(stats.counter("small_groups") > 0);
  CHECK(stats.counter("medium_groups") > 0);
  CHECK(stats.counter("large_groups") > 0);
}
TEST_CASE_TEMPLATE_APPLY(ls_default_bounds, all_configs);

TEST_CASE_TEMPLATE_DEFINE("larsson-sadakane: hard and random inputs with every class in play", C, ls_small_bounds) {
  using I = typename C::index;
  // R1 = 1: no S class; R1 = R2: no M class; the smallest bounds put most groups in M and L.
  for (const auto& bound : {std::make_pair(4u, 64u), std::make_pair(1u, 8u), std::make_pair(16u, 16u),
                            std::make_pair(2048u, 2048u)}) {
    const auto options = ls_options(bound.first, bound.second);
    CAPTURE(bound.first);
    CAPTURE(bound.second);
    std::uint64_t small = 0, medium = 0, large = 0;
    for (const auto& input : hard_inputs()) {
      CAPTURE(input.first);
      strix::run_stats stats;
      CHECK(ls_sa<C>(input.second, options, stats) == naive_suffix_array<I>(input.second));
      small += stats.counter("small_groups");
      medium += stats.counter("medium_groups");
      large += stats.counter("large_groups");
    }
    for (unsigned sigma : {1u, 2u, 4u, 256u}) {
      for (std::size_t n : {2, 3, 100, 1000, 4097}) {
        const auto text = random_text(n, sigma, n * 7 + sigma);
        CAPTURE(sigma);
        CAPTURE(n);
        strix::run_stats stats;
        CHECK(ls_sa<C>(text, options, stats) == naive_suffix_array<I>(text));
      }
    }
    CHECK((small > 0) == (bound.first > 1));
    CHECK((medium > 0) == (bound.second > bound.first));
    CHECK(large > 0);
  }
}
TEST_CASE_TEMPLATE_APPLY(ls_small_bounds, all_configs);

TEST_CASE_TEMPLATE_DEFINE("larsson-sadakane: 1 MB periodic and run-heavy texts with small bounds vs libdivsufsort",
                          C, ls_large_small_bounds) {
  using I = typename C::index;
  const std::size_t n = 1'000'003;
  const auto unit = random_text(300, 26, 3, 'a');
  const char* classes[] = {"small_groups", "medium_groups", "large_groups"};
  std::uint64_t sorted[3] = {};
  for (const auto& input : {std::make_pair(std::string("period 300"), periodic(n, std::string(unit.begin(), unit.end()))),
                            std::make_pair(std::string("long runs"), long_runs(n, 4)),
                            std::make_pair(std::string("random DNA"), random_text(n, 4, 5, 'A'))}) {
    CAPTURE(input.first);
    strix::run_stats stats;
    CHECK(ls_sa<C>(input.second, ls_options(32, 1024), stats) == divsufsort_suffix_array<I>(input.second));
    for (int c = 0; c < 3; ++c) sorted[c] += stats.counter(classes[c]);
  }
  // R1 = R2 = 1: every group is large; 20000 random blocks, each twice, give ~6 * 10^5
  // groups in the first round, so that 32-bit (group, key) composites do not fit and the
  // 64-bit composite sort runs.
  {
    const auto text = repeated_blocks(std::vector<std::size_t>(20000, 2), 1, 6);
    strix::run_stats stats;
    CHECK(ls_sa<C>(text, ls_options(1, 1), stats) == divsufsort_suffix_array<I>(text));
    CHECK(stats.counter("small_groups") == 0);
    CHECK(stats.counter("medium_groups") == 0);
    CHECK(stats.counter("large_groups") > 100000);
  }
  // The period's groups start large, DNA's small: between them every class ran.
  for (int c = 0; c < 3; ++c) {
    CAPTURE(classes[c]);
    CHECK(sorted[c] > 0);
  }
}
TEST_CASE_TEMPLATE_APPLY(ls_large_small_bounds, all_configs);

TEST_CASE("larsson-sadakane: bounds it cannot take are typed errors") {
  using space = first_space;
  Kokkos::View<std::uint8_t*, space::memory_space> text("t", 4);
  Kokkos::View<std::uint32_t*, space::memory_space> sa("sa", 4);
  for (const auto& bound : {std::make_pair(4096u, 65536u), std::make_pair(256u, 100u)}) {
    CAPTURE(bound.first);
    CHECK_THROWS_AS(strix::suffix_array(space(), text, sa, ls_options(bound.first, bound.second)), strix::error);
  }
}

TEST_SUITE_END();
