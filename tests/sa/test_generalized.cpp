// SPDX-License-Identifier: BSD-3-Clause
// Generalized suffix arrays (strings ended by 0x00) with every algorithm on every backend and
// width, against a naive sort in the generalized order; the generalized checker against it.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>

#include <strix/strix.hpp>

#include "sa_algorithms.hpp"
#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("sa");

namespace {

// Suffix a before suffix b in the generalized order: a 0x00 ends the comparison, two of them
// by position; the end of the text sorts below everything.
bool generalized_less(const bytes& t, std::size_t a, std::size_t b) {
  const std::size_t n = t.size();
  for (;; ++a, ++b) {
    if (a == n || b == n) return a == n;
    if (t[a] != t[b]) return t[a] < t[b];
    if (t[a] == 0) return a < b;
  }
}

template <class I>
std::vector<I> naive_generalized(const bytes& t) {
  std::vector<I> sa(t.size());
  std::iota(sa.begin(), sa.end(), I(0));
  std::sort(sa.begin(), sa.end(), [&](I a, I b) { return generalized_less(t, a, b); });
  return sa;
}

// Strings of random lengths in [0, longest] over `sigma` letters from `first`, each ended by
// 0x00 (the last one only when `ended`).
bytes random_collection(std::size_t strings, std::size_t longest, unsigned sigma, std::uint64_t seed,
                        bool ended = true, std::uint8_t first = 'a') {
  std::mt19937_64 rng(seed);
  bytes t;
  for (std::size_t s = 0; s < strings; ++s) {
    const std::size_t len = rng() % (longest + 1);
    for (std::size_t i = 0; i < len; ++i) t.push_back(static_cast<std::uint8_t>(first + rng() % sigma));
    if (ended || s + 1 < strings) t.push_back(0);
  }
  return t;
}

std::vector<std::pair<std::string, bytes>> generalized_inputs() {
  std::vector<std::pair<std::string, bytes>> v;
  auto add = [&](const std::string& name, const std::string& s) { v.push_back({name, bytes(s.begin(), s.end())}); };
  v.push_back({"empty", {}});
  add("one separator", std::string(1, '\0'));
  add("separators only", std::string(5, '\0'));
  add("one string", std::string("banana") + '\0');
  add("no separator", "mississippi");
  add("equal strings", std::string("abab\0abab\0abab\0", 15));
  add("empty strings between", std::string("ab\0\0\0ab\0\0b\0", 11));
  add("last string unended", std::string("abc\0ab\0abc", 10));
  add("prefixes of each other", std::string("a\0aa\0aaa\0aa\0a\0", 15));
  add("separator first", std::string("\0xyz\0xy", 7));
  v.push_back({"0xFF strings", bytes{0xFF, 0xFF, 0, 0xFF, 0, 0xFF, 0xFF, 0, 0xFF}});
  v.push_back({"long runs", long_runs(3000, 5)});  // runs of 0x00 are runs of empty strings
  v.push_back({"fibonacci, unended", fibonacci_word(2000)});
  v.push_back({"random bytes", random_text(3000, 256, 17)});
  v.push_back({"257 short strings (2-byte codes)", random_collection(257, 3, 2, 1)});
  v.push_back({"256 strings (1-byte codes)", random_collection(256, 6, 3, 2)});
  v.push_back({"DNA reads, many equal", random_collection(400, 12, 2, 3, true, 'A')});
  v.push_back({"70000 strings (3-byte codes)", random_collection(70000, 3, 2, 4, false)});
  return v;
}

template <class C>
std::vector<typename C::index> strix_generalized(const bytes& text, const strix::sa_options& options,
                                                 strix::run_stats* stats = nullptr) {
  using I = typename C::index;
  auto text_d = to_view<typename C::memory_space>(text);
  Kokkos::View<I*, typename C::memory_space> sa("sa", text.size());
  strix::fill(sa, I(12345));  // poison: every entry must be written
  strix::generalized_suffix_array(typename C::space(), text_d, sa, options, stats);
  return to_vector(sa);
}

template <class C>
strix::sa_check_result check_generalized(const bytes& text, const std::vector<typename C::index>& sa) {
  auto text_d = to_view<typename C::memory_space>(text);
  auto sa_d = to_view<typename C::memory_space>(sa);
  return strix::check_generalized_suffix_array(typename C::space(), text_d, sa_d);
}

}  // namespace

TEST_CASE("generalized suffix array: the naive order's own rules") {
  const auto t = from_string(std::string("ab\0ab\0a", 7));
  // "ab\0" at 0 before "ab\0" at 3 (the earlier separator); "a" at the end before "ab...".
  CHECK(generalized_less(t, 0, 3));
  CHECK(!generalized_less(t, 3, 0));
  CHECK(generalized_less(t, 6, 0));
  CHECK(generalized_less(t, 2, 5));  // the separators by position
  CHECK(naive_generalized<std::uint32_t>(t) == std::vector<std::uint32_t>{2, 5, 6, 0, 3, 1, 4});
}

TEST_CASE_TEMPLATE_DEFINE("generalized suffix array: every algorithm matches the naive order", C, gsa_naive) {
  using I = typename C::index;
  // (No structured bindings: CAPTURE's lambda may not capture them before C++20.)
  for (const auto& input : generalized_inputs()) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto expected = naive_generalized<I>(text);
    for (const auto& options : sa_algorithms_under_test<typename C::space>()) {
      const auto algorithm = strix::algorithm_name(options);
      CAPTURE(algorithm);
      const auto got = strix_generalized<C>(text, options);
      CHECK(got == expected);
    }
    CHECK(check_generalized<C>(text, expected).ok);
  }
}
TEST_CASE_TEMPLATE_APPLY(gsa_naive, all_configs);

TEST_CASE_TEMPLATE_DEFINE("generalized suffix array: codes, statistics and a reused handle", C, gsa_stats) {
  using I = typename C::index;
  const std::pair<std::size_t, std::uint64_t> cases[] = {{256, 1}, {257, 2}, {65536, 2}, {65537, 3}};
  strix::suffix_array_handle<typename C::space, I> handle(typename C::space{}, strix::sa_options{});
  for (const auto& one_case : cases) {
    const std::size_t strings = one_case.first;
    const std::uint64_t code_bytes = one_case.second;
    CAPTURE(strings);
    const auto text = random_collection(strings, 2, 2, strings);
    auto text_d = to_view<typename C::memory_space>(text);
    Kokkos::View<I*, typename C::memory_space> sa("sa", text.size());
    strix::run_stats stats;
    strix::generalized_suffix_array(typename C::space(), text_d, sa, handle, &stats);
    CHECK(stats.counter("gsa_separators") == strings);
    CHECK(stats.counter("gsa_code_bytes") == code_bytes);
    // The text and the result (holding the copy with its codes), and the copy's suffix array.
    CHECK(stats.peak_bytes >= text.size() * (1 + sizeof(I)) + (text.size() + strings * code_bytes) * sizeof(I));
    CHECK(!stats.note("algorithm").empty());
    CHECK(to_vector(sa) == naive_generalized<I>(text));
  }
}
TEST_CASE_TEMPLATE_APPLY(gsa_stats, all_configs);

TEST_CASE_TEMPLATE_DEFINE("generalized suffix array: the copy in memory of its own", C, gsa_apart) {
  // Where sa's bytes cannot hold the copy (32-bit entries, codes over 3n bytes: 2^24 separators
  // and more), it gets its own allocation; the same answers, and its bytes in the peak.
  using I = typename C::index;
  const auto text = random_collection(300, 4, 2, 21);
  auto text_d = to_view<typename C::memory_space>(text);
  Kokkos::View<I*, typename C::memory_space> in_place("sa", text.size()), apart("sa", text.size());
  strix::suffix_array_handle<typename C::space, I> handle(typename C::space{}, strix::sa_options{});
  strix::run_stats in_place_stats, apart_stats;
  strix::detail::generalized_suffix_array<typename C::space, I>(typename C::space{}, text_d, in_place, handle,
                                                               &in_place_stats, false);
  strix::detail::generalized_suffix_array<typename C::space, I>(typename C::space{}, text_d, apart, handle,
                                                               &apart_stats, true);
  CHECK(to_vector(in_place) == naive_generalized<I>(text));
  CHECK(to_vector(apart) == to_vector(in_place));
  // The copy's n + 2 d bytes more at most (less where the mapping back's counts set the peak).
  CHECK(apart_stats.peak_bytes > in_place_stats.peak_bytes);
  CHECK(apart_stats.peak_bytes <= in_place_stats.peak_bytes + text.size() + 300 * 2);
}
TEST_CASE_TEMPLATE_APPLY(gsa_apart, all_configs);

TEST_CASE_TEMPLATE_DEFINE("generalized suffix array: large collections against the checker", C, gsa_large) {
  using I = typename C::index;
  const std::size_t n = large_text_bytes(strix::is_host_space_v<typename C::space>);
  // Reads of 100 bases (some repeated), and short words: both past every host threshold.
  auto reads = random_collection(n / 101, 100, 4, 11, true, 'A');
  for (std::size_t i = 0; i + 202 < reads.size(); i += 5 * 101) std::copy_n(reads.begin() + i, 101, reads.begin() + i + 101);
  const auto words = random_collection(n / 5, 7, 3, 12, false);
  // The codes and the mapping back are the same whatever the algorithm (the small inputs run
  // them all): `auto` and prefix doubling here, agreeing and passing the checker.
  const strix::sa_options algorithms[] = {sa_with(strix::sa_algorithm::automatic),
                                          sa_with(strix::sa_algorithm::prefix_doubling)};
  const bytes* texts[] = {&reads, &words};
  for (const bytes* text : texts) {
    std::vector<I> first;
    for (const auto& options : algorithms) {
      const auto algorithm = strix::algorithm_name(options);
      CAPTURE(algorithm);
      const auto got = strix_generalized<C>(*text, options);
      const auto verdict = check_generalized<C>(*text, got);
      CHECK_MESSAGE(verdict.ok, verdict.message);
      if (first.empty()) first = got;
      CHECK(got == first);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(gsa_large, all_configs);

TEST_CASE_TEMPLATE_DEFINE("generalized suffix array: the checker finds wrong orders", C, gsa_check) {
  using I = typename C::index;
  const auto text = from_string(std::string("ab\0ab\0b\0", 8));
  const auto right = naive_generalized<I>(text);  // 2 5 7 0 3 1 4 6
  REQUIRE(check_generalized<C>(text, right).ok);
  // The plain suffix array of the same text is not the generalized one (the separators'
  // order follows what comes after them there), and the checks tell them apart.
  const auto plain = naive_suffix_array<I>(text);
  CHECK(plain != right);
  CHECK(!check_generalized<C>(text, plain).ok);
  auto separators_swapped = right;
  std::swap(separators_swapped[0], separators_swapped[1]);
  const auto verdict = check_generalized<C>(text, separators_swapped);
  CHECK(!verdict.ok);
  CHECK(verdict.position == 1);
  auto strings_swapped = right;
  std::swap(strings_swapped[3], strings_swapped[4]);  // "ab\0" at 3 before the one at 0
  CHECK(!check_generalized<C>(text, strings_swapped).ok);
  auto duplicate = right;
  duplicate[0] = duplicate[1];
  CHECK(!check_generalized<C>(text, duplicate).ok);
  CHECK(!check_generalized<C>(text, std::vector<I>(right.begin(), right.end() - 1)).ok);
}
TEST_CASE_TEMPLATE_APPLY(gsa_check, all_configs);

TEST_SUITE_END();
