// SPDX-License-Identifier: BSD-3-Clause
// Suffix arrays on every backend and index width, against naive sorting and libdivsufsort.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <strix/strix.hpp>

#include <strix/sa/detail/repetition_probe.hpp>

#include "sa_algorithms.hpp"
#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("sa");

namespace {

template <class C>
std::vector<typename C::index> strix_sa(const bytes& text, const strix::sa_options& options) {
  using I = typename C::index;
  auto text_d = to_view<typename C::memory_space>(text);
  Kokkos::View<I*, typename C::memory_space> sa("sa", text.size());
  strix::fill(sa, I(12345));  // poison: every entry must be written
  strix::run_stats stats;
  strix::suffix_array(typename C::space(), text_d, sa, options, &stats);
  CHECK(!stats.note("algorithm").empty());
  return to_vector(sa);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("suffix array: hard inputs match naive sorting", C, sa_hard) {
  for (const auto& options : sa_algorithms_under_test<typename C::space>()) {
    const auto algorithm = strix::algorithm_name(options);
    CAPTURE(algorithm);
    for (const auto& input : hard_inputs()) {
      const auto& name = input.first;
      const auto& text = input.second;
      CAPTURE(name);
      CHECK(strix_sa<C>(text, options) == naive_suffix_array<typename C::index>(text));
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(sa_hard, all_configs);

TEST_CASE_TEMPLATE_DEFINE("suffix array: random texts of many lengths and alphabets", C, sa_random) {
  for (const auto& options : sa_algorithms_under_test<typename C::space>()) {
    const auto algorithm = strix::algorithm_name(options);
    CAPTURE(algorithm);
    std::uint64_t seed = 1;
    for (unsigned sigma : {1u, 2u, 4u, 26u, 256u}) {
      for (std::size_t n : {1, 2, 3, 5, 8, 13, 31, 32, 33, 100, 127, 128, 129, 511, 512, 513, 2047,
                            2048, 2049}) {
        const auto text = random_text(n, sigma, seed++, sigma == 26 ? 'a' : 0);
        CAPTURE(sigma);
        CAPTURE(n);
        CHECK(strix_sa<C>(text, options) == naive_suffix_array<typename C::index>(text));
      }
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(sa_random, all_configs);

TEST_CASE_TEMPLATE_DEFINE("suffix array: large inputs match libdivsufsort", C, sa_large) {
  using I = typename C::index;
  const std::size_t n = large_text_bytes(strix::is_host_space_v<typename C::space>);
  // The 64-bit runs check two inputs to keep the suite short.
  const auto inputs = large_inputs(n, sizeof(I) == 4);
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto expected = divsufsort_suffix_array<I>(text);
    for (const auto& options : sa_algorithms_under_test<typename C::space>()) {
      const auto algorithm = strix::algorithm_name(options);
      CAPTURE(algorithm);
      // One thread merges slowly: on Serial the difference-cover family checks the first two
      // inputs (its code is the OpenMP backend's, checked on all of them).
      const bool difference_cover = options.algorithm == strix::sa_algorithm::skew ||
                                    options.algorithm == strix::sa_algorithm::hybrid ||
                                    options.algorithm == strix::sa_algorithm::dcx;
#ifdef KOKKOS_ENABLE_SERIAL
      if (difference_cover && std::is_same<typename C::space, Kokkos::Serial>::value && &input != &inputs[0] &&
          &input != &inputs[1])
        continue;
#endif
      (void)difference_cover;
      CHECK(strix_sa<C>(text, options) == expected);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(sa_large, all_configs);

TEST_CASE_TEMPLATE_DEFINE("inverse suffix array", C, isa) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  const auto text = random_text(5000, 3, 11);
  auto text_d = to_view<mem>(text);
  Kokkos::View<I*, mem> sa("sa", text.size()), inv("isa", text.size());
  strix::suffix_array(typename C::space(), text_d, sa);
  strix::inverse_suffix_array(typename C::space(), sa, inv);
  const auto s = to_vector(sa), r = to_vector(inv);
  for (std::size_t i = 0; i < s.size(); ++i) REQUIRE(r[s[i]] == i);
}
TEST_CASE_TEMPLATE_APPLY(isa, all_configs);

TEST_CASE_TEMPLATE_DEFINE("suffix array: bad arguments are typed errors", C, sa_errors) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  auto text_d = to_view<mem>(from_string("banana"));
  Kokkos::View<I*, mem> too_short("sa", 5);
  try {
    strix::suffix_array(typename C::space(), text_d, too_short);
    FAIL("no error for a suffix array of the wrong size");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
  }
  if (sizeof(I) == 4) {
    // A text of 2^32 bytes does not fit a 32-bit suffix array; the check comes
    // before any access, so unmanaged views over small buffers stand in for it.
    Kokkos::View<std::uint8_t*, mem> small_text("t", 1);
    Kokkos::View<I*, mem> small_sa("s", 1);
    const std::size_t huge = std::size_t(1) << 32;
    Kokkos::View<const std::uint8_t*, mem, Kokkos::MemoryUnmanaged> big_text(small_text.data(), huge);
    Kokkos::View<I*, mem, Kokkos::MemoryUnmanaged> big_sa(small_sa.data(), huge);
    try {
      strix::suffix_array(typename C::space(), big_text, big_sa);
      FAIL("no error for a text too long for 32 bits");
    } catch (const strix::error& e) {
      CHECK(e.code() == strix::error_code::invalid_input);
      CHECK(std::string(e.what()).find("too long") != std::string::npos);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(sa_errors, all_configs);

TEST_CASE_TEMPLATE_DEFINE("suffix array: one handle's workspace reused across texts and sizes", C, sa_workspace) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  typename C::space space;
  // Smaller, equal and larger (the workspace grows) texts, then a small one again; the naive
  // answers once for every algorithm.
  std::vector<std::pair<bytes, std::vector<I>>> cases;
  for (std::size_t n : {1000, 10, 0, 1, 5000, 70000, 999}) {
    auto text = random_text(n, n % 2 ? 4 : 256, n + 3);
    auto want = naive_suffix_array<I>(text);
    cases.emplace_back(std::move(text), std::move(want));
  }
  for (const auto& options : sa_algorithms_under_test<typename C::space>()) {
  const auto algorithm = strix::algorithm_name(options);
  CAPTURE(algorithm);
  strix::suffix_array_handle<typename C::space, I> handle(space, options, 1000);
  std::string picked;  // what the last build ran (auto picks)
  for (const auto& [text, want] : cases) {
    const std::size_t n = text.size();
    auto text_d = to_view<mem>(text);
    Kokkos::View<I*, mem> sa("sa", n);
    strix::run_stats stats;
    strix::suffix_array(space, text_d, sa, handle, &stats);
    CAPTURE(n);
    CHECK(to_vector(sa) == want);
    CHECK(handle.capacity() >= n);
    picked = stats.note("algorithm");
  }
  // libdivsufsort allocates per call and sais works inside the suffix array; the other
  // algorithms keep their working memory.
  if (picked != "divsufsort" && picked != "sais") CHECK(handle.bytes() > 0);
  handle.release();
  CHECK(handle.bytes() == 0);
  const auto text = random_text(3000, 3, 5);
  Kokkos::View<I*, mem> sa("sa", text.size());
  strix::suffix_array(space, to_view<mem>(text), sa, handle);  // allocates again after release
  CHECK(to_vector(sa) == naive_suffix_array<I>(text));
  }
}
TEST_CASE_TEMPLATE_APPLY(sa_workspace, all_configs);

TEST_CASE("suffix array: algorithm names round-trip and unknown names are typed errors") {
  for (const char* name : {"auto", "prefix-doubling", "larsson-sadakane", "skew", "hybrid", "divsufsort", "sais", "dc13"})
    CHECK(strix::algorithm_name(strix::parse_sa_options(name)) == name);
  CHECK(strix::parse_sa_options("dcx").dcx_period == 7);
  for (const char* bad : {"", "dc", "quick", "dc1234567", "Skew"}) {
    CAPTURE(bad);
    CHECK_THROWS_AS(strix::parse_sa_options(bad), strix::error);
  }
}

TEST_CASE_TEMPLATE_DEFINE("auto: the repetition probe tells repetitive texts from others", C, sa_probe) {
  using mem = typename C::memory_space;
  typename C::space space;
  const std::size_t n = 5'000'000;
  auto fraction = [&](const bytes& text) {
    auto text_d = to_view<mem>(text);
    return strix::detail::repeated_sample_fraction(space, strix::text_view<typename C::space>(text_d.data(), n));
  };
  const auto inputs = large_inputs(n, true);
  for (const auto& input : inputs) {
    const auto& name = input.first;
    CAPTURE(name);
    const double f = fraction(input.second);
    // Random DNA and random bytes share few 32-byte windows; the others are built of repeats
    // (long runs: the windows inside runs of 1..300 bytes, about three quarters).
    if (name.find("random") != std::string::npos) CHECK(f < 0.05);
    else if (name == "long runs") CHECK(f > 0.5);
    else CHECK(f > 0.9);
  }
  CHECK(strix::detail::repeated_sample_fraction(space, strix::text_view<typename C::space>(nullptr, 0)) == 0.0);
}
TEST_CASE_TEMPLATE_APPLY(sa_probe, all_configs);

namespace {

// Sets an environment variable for one scope, restoring what was there.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) saved_ = old, had_ = true;
    setenv(name, value, 1);
  }
  ~scoped_env() {
    if (had_) setenv(name_, saved_.c_str(), 1);
    else unsetenv(name_);
  }

 private:
  const char* name_;
  std::string saved_;
  bool had_ = false;
};

// Distinct random blocks, each twice, in random order, then a run of 'a': after the first
// rounds some 10^5 groups remain beside one of about 8000 suffixes, so the rounds' keys need
// more than 32 bits and the largest group is too large for the segmented sort (prefix
// doubling's 64-bit composite keys) while fewer than 2/3 of the suffixes are still active.
bytes many_groups_one_large(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<bytes> blocks;
  for (int b = 0; b < 8000; ++b) blocks.push_back(random_text(48, 26, seed + 1 + b, 'a'));
  std::vector<int> order;
  for (int b = 0; b < 8000; ++b) order.insert(order.end(), {b, b});
  std::shuffle(order.begin(), order.end(), rng);
  bytes t;
  for (int b : order) t.insert(t.end(), blocks[b].begin(), blocks[b].end());
  t.insert(t.end(), 8000, 'a');
  return t;
}

}  // namespace

// Prefix doubling stores a round's ranks grouped by target (sa/detail/doubling/bucketed_store.hpp)
// on GPUs, where its ISA exceeds 32 MB, at least 2^20 ranks are stored and (in a round) at least
// half the suffixes are active; STRIX_RANK_STORE=bucketed takes that path at every size and on
// host backends too. Through every buffer it uses: the first
// refine, rounds by narrow and wide composite keys and by the segmented sort, a difference
// cover's sample ranked by the same rounds (hybrid, dc7, dc21), and the BWT written as the
// rounds sort; against naive sorting, libdivsufsort and divbwt.
TEST_CASE_TEMPLATE_DEFINE("prefix doubling: ranks stored grouped by target", C, sa_bucketed) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  using strix::sa_algorithm;
  scoped_env bucketed("STRIX_RANK_STORE", "bucketed");
  auto inputs = hard_inputs();
  inputs.push_back({"many groups, one large", many_groups_one_large(5)});
  inputs.push_back({"random DNA 1 MB + 17", random_text((1 << 20) + 17, 4, 51, 'A')});
  inputs.push_back({"random bytes 300 kB", random_text(300000, 256, 52)});
  inputs.push_back({"fibonacci 200 kB", fibonacci_word(200000)});
  inputs.push_back({"long runs 500 kB", long_runs(500000, 53)});
  // Prefix doubling, and the covers whose samples it ranks, as far as STRIX_TEST_SA_ALGORITHMS
  // keeps them (the sanitizer build keeps prefix doubling and dc7).
  std::vector<strix::sa_options> algorithms;
  for (const auto& o : sa_algorithms_under_test<typename C::space>())
    if (o.algorithm == sa_algorithm::prefix_doubling || o.algorithm == sa_algorithm::hybrid ||
        (o.algorithm == sa_algorithm::dcx && (o.dcx_period == 7 || o.dcx_period == 21)))
      algorithms.push_back(o);
  strix::sa_options doubling;
  doubling.algorithm = sa_algorithm::prefix_doubling;
  strix::suffix_array_handle<typename C::space, I> handle(typename C::space(), doubling);
  for (const auto& input : inputs) {
    const auto& text = input.second;
    CAPTURE(input.first);
    const auto want = text.size() <= 5000 ? naive_suffix_array<I>(text) : divsufsort_suffix_array<I>(text);
    for (const auto& options : algorithms) {
      CAPTURE(strix::algorithm_name(options));
      // One thread merges slowly: on Serial the covers take the small inputs (their code is
      // the OpenMP backend's, which takes them all).
#ifdef KOKKOS_ENABLE_SERIAL
      if (std::is_same<typename C::space, Kokkos::Serial>::value && options.algorithm != sa_algorithm::prefix_doubling &&
          text.size() > 5000)
        continue;
#endif
      CHECK(strix_sa<C>(text, options) == want);
    }
    auto text_d = to_view<mem>(text);
    Kokkos::View<I*, mem> work("work", text.size());
    Kokkos::View<std::uint8_t*, mem> out("bwt", text.size());
    strix::run_stats stats;
    const std::uint64_t primary = strix::bwt_from_text(typename C::space(), text_d, work, out, handle, &stats);
    const auto [ref, ref_primary] = divbwt_of(text);
    CHECK(to_vector(out) == ref);
    CHECK(primary == ref_primary);
    // The path was taken: the first refine's store at least, and the rounds' where half the
    // suffixes stay active after it (the text made for the 64-bit composite keys).
    if (text.size() >= 2) CHECK(stats.counter("bucketed_rank_stores") >= 1);
    if (input.first == "many groups, one large") CHECK(stats.counter("bucketed_rank_stores") >= 3);
  }
}
TEST_CASE_TEMPLATE_APPLY(sa_bucketed, all_configs);

TEST_SUITE_END();
