// SPDX-License-Identifier: BSD-3-Clause
// Longest repeat queries: every method x mode x backend x index width against a brute
// force that knows nothing of suffix arrays, and against the sequential reference.
#include <doctest/doctest.h>

#include <map>

#include <strix/strix.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("repeats");

namespace {

// Every longest repeat of every position, as (start, length) pairs in start order.
using answer = std::vector<std::vector<std::pair<std::uint64_t, std::uint64_t>>>;

// By definition: a repeat of length l starts at i iff another position shares l
// characters with i, so longest[i] = max over j != i of lcp(i, j) (a DP along diagonals),
// and the longest repeats covering k are the (i, longest[i]) with i <= k < i + longest[i]
// of maximal length. O(n^2): for the few thousand bytes it is used on.
answer brute_force(const bytes& t) {
  const std::size_t n = t.size();
  std::vector<std::uint64_t> longest(n, 0);
  for (std::size_t d = 1; d < n; ++d) {
    std::uint64_t run = 0;
    for (std::size_t i = n - d; i-- > 0;) {
      run = t[i] == t[i + d] ? run + 1 : 0;
      if (run > longest[i]) longest[i] = run;
      if (run > longest[i + d]) longest[i + d] = run;
    }
  }
  answer a(n);
  for (std::size_t k = 0; k < n; ++k) {
    std::uint64_t best = 0;
    for (std::size_t i = 0; i <= k; ++i)
      if (i + longest[i] > k && longest[i] > best) best = longest[i];
    if (best == 0) continue;
    for (std::size_t i = 0; i <= k; ++i)
      if (i + longest[i] > k && longest[i] == best) a[k].push_back({i, best});
  }
  return a;
}

const answer& brute_force_cached(const std::string& name, const bytes& t) {
  static std::map<std::string, answer> cache;
  auto it = cache.find(name);
  if (it == cache.end()) it = cache.emplace(name, brute_force(t)).first;
  return it->second;
}

template <class I>
answer from_leftmost(const std::vector<strix::repeat<I>>& out) {
  answer a(out.size());
  for (std::size_t k = 0; k < out.size(); ++k)
    if (out[k].length != 0 || out[k].start != 0) a[k].push_back({out[k].start, out[k].length});
  return a;
}

template <class I>
answer from_all(const std::vector<std::uint64_t>& offsets, const std::vector<strix::repeat<I>>& recs) {
  answer a(offsets.empty() ? 0 : offsets.size() - 1);
  for (std::size_t k = 0; k < a.size(); ++k)
    for (std::uint64_t r = offsets[k]; r < offsets[k + 1]; ++r)
      a[k].push_back({recs[r].start, recs[r].length});
  return a;
}

answer leftmost_of(const answer& all) {
  answer a(all.size());
  for (std::size_t k = 0; k < all.size(); ++k)
    if (!all[k].empty()) a[k].push_back(all[k].front());
  return a;
}

// Suffix array, rank and LCP of a text on C's backend, all by strix.
template <class C>
struct device_index {
  using I = typename C::index;
  using mem = typename C::memory_space;
  Kokkos::View<I*, mem> sa, rank, lcp;

  explicit device_index(const bytes& text)
      : sa("sa", text.size()), rank("rank", text.size()), lcp("lcp", text.size()) {
    typename C::space space;
    auto text_d = to_view<mem>(text);
    strix::suffix_array(space, text_d, sa);
    strix::inverse_suffix_array(space, sa, rank);
    strix::lcp_array(space, text_d, sa, lcp);
  }
};

const strix::repeat_method methods[] = {strix::repeat_method::raw, strix::repeat_method::compact};
const char* method_name(strix::repeat_method m) {
  return m == strix::repeat_method::raw ? "raw" : "compact";
}

template <class C>
answer strix_leftmost(const device_index<C>& idx, strix::repeat_method method) {
  using I = typename C::index;
  // Poisoned: every entry must be written.
  auto out = to_view<typename C::memory_space>(std::vector<strix::repeat<I>>(idx.rank.extent(0), strix::repeat<I>{7, 7}));
  strix::repeat_options options;
  options.method = method;
  strix::leftmost_longest_repeats(typename C::space(), idx.rank, idx.lcp, out, options);
  return from_leftmost(to_vector(out));
}

template <class C>
answer strix_all(const device_index<C>& idx, strix::repeat_method method) {
  strix::repeat_options options;
  options.method = method;
  auto res = strix::all_longest_repeats(typename C::space(), idx.rank, idx.lcp, options);
  return from_all(to_vector(res.offsets), to_vector(res.records));
}

// The sequential Algorithms 1-4 on host copies of the same rank and LCP arrays.
template <class C>
std::pair<answer, answer> sequential_answers(const device_index<C>& idx, strix::repeat_method method) {
  using I = typename C::index;
  const auto rank = to_vector(idx.rank), lcp = to_vector(idx.lcp);
  std::vector<strix::repeat<I>> left(rank.size());
  strix::sequential::leftmost_longest_repeats(rank.data(), lcp.data(), rank.size(), method, left.data());
  const auto all = strix::sequential::all_longest_repeats(rank.data(), lcp.data(), rank.size(), method);
  return {from_leftmost(left), from_all(all.offsets, all.records)};
}

std::vector<std::pair<std::string, bytes>> small_inputs() {
  auto v = hard_inputs();
  v.push_back({"tie: abcd#abc$bcd", from_string("abcd#abc$bcd")});
  v.push_back({"aabaab", from_string("aabaab")});
  std::uint64_t seed = 500;
  for (unsigned sigma : {2u, 4u, 26u})
    for (std::size_t n : {5, 50, 500, 2500}) {
      v.push_back({"random s" + std::to_string(sigma) + " " + std::to_string(n),
                   random_text(n, sigma, seed++, 'a')});
    }
  bytes twice = random_text(1500, 4, 77, 'a');
  bytes sq = twice;
  sq.insert(sq.end(), twice.begin(), twice.end());
  v.push_back({"square 3000", sq});
  return v;
}

// Random text with blocks copied from earlier on: long repeats of many lengths and ties.
bytes copied_blocks(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  bytes t = random_text(n, 20, seed, 'a');
  for (int b = 0; b < 60; ++b) {
    const std::size_t len = 20 + rng() % 2000, from = rng() % (n - len), to = rng() % (n - len);
    std::copy(t.begin() + from, t.begin() + from + len, t.begin() + to);
  }
  return t;
}

}  // namespace

TEST_CASE("repeats: brute force on the documented examples") {
  // mississippi: 'm' is a singleton; "issi" occurs at 1 and 4 and both cover 4.
  const answer miss = brute_force(from_string("mississippi"));
  const answer want = {{},       {{1, 4}}, {{1, 4}}, {{1, 4}}, {{1, 4}, {4, 4}}, {{4, 4}},
                       {{4, 4}}, {{4, 4}}, {{8, 1}}, {{9, 1}}, {{10, 1}}};
  CHECK(miss == want);
  // Position 2 ('c') is covered by "abc" at 0 and "bcd" at 1, both of length 3.
  const answer tie = brute_force(from_string("abcd#abc$bcd"));
  CHECK(tie[2] == std::vector<std::pair<std::uint64_t, std::uint64_t>>{{0, 3}, {1, 3}});
  CHECK(tie[4].empty());
}

TEST_CASE_TEMPLATE_DEFINE("repeats: every method and mode matches the brute force", C, lr_brute) {
  for (const auto& input : small_inputs()) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const answer& want = brute_force_cached(name, text);
    const answer want_left = leftmost_of(want);
    const device_index<C> idx(text);
    for (auto method : methods) {
      CAPTURE(method_name(method));
      CHECK(strix_leftmost(idx, method) == want_left);
      CHECK(strix_all(idx, method) == want);
      const auto seq = sequential_answers(idx, method);
      CHECK(seq.first == want_left);
      CHECK(seq.second == want);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(lr_brute, all_configs);

TEST_CASE_TEMPLATE_DEFINE("repeats: larger inputs agree with the sequential reference", C, lr_large) {
  std::vector<std::pair<std::string, bytes>> inputs;
  // Sizes keep the raw walks (O(n alpha), alpha ~ n on periodic texts) short.
  inputs.push_back({"random DNA", random_text(300'000, 4, 21, 'A')});
  inputs.push_back({"fibonacci", fibonacci_word(20'000)});
  const auto unit = random_text(300, 26, 22, 'a');
  inputs.push_back({"period 300", periodic(8'000, std::string(unit.begin(), unit.end()))});
  inputs.push_back({"long runs", long_runs(60'000, 23)});
  inputs.push_back({"copied blocks", copied_blocks(100'000, 24)});
  for (const auto& input : inputs) {
    CAPTURE(input.first);
    const device_index<C> idx(input.second);
    for (auto method : methods) {
      CAPTURE(method_name(method));
      const auto seq = sequential_answers(idx, method);
      CHECK(strix_leftmost(idx, method) == seq.first);
      CHECK(strix_all(idx, method) == seq.second);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(lr_large, all_configs);

TEST_CASE("repeats: walk statistics count the covering LLRs") {
  // mississippi LLR = 0 4 3 2 4 3 2 1 1 1 1; e.g. position 4 is covered by LLR 1..4.
  const auto t = from_string("mississippi");
  const auto sa = divsufsort_suffix_array<std::uint32_t>(t);
  std::vector<std::uint32_t> rank(t.size()), lcp(t.size());
  for (std::size_t r = 0; r < sa.size(); ++r) rank[sa[r]] = static_cast<std::uint32_t>(r);
  strix::sequential::lcp_array(t.data(), sa.data(), t.size(), lcp.data());
  const auto llr = strix::sequential::llr_lengths(rank.data(), lcp.data(), t.size());
  CHECK(llr == std::vector<std::uint32_t>{0, 4, 3, 2, 4, 3, 2, 1, 1, 1, 1});
  const auto s = strix::sequential::llr_walk_stats(llr);
  // alpha_k: 0 1 2 3 4 2 3 4 1 1 1; useful LLRs (1,4) (4,4) (8,1) (9,1) (10,1): beta 0 1 1 1 2 1 1 1 1 1 1.
  CHECK(s.raw_max == 4);
  CHECK(s.raw_average == doctest::Approx(22.0 / 11));
  CHECK(s.compact_max == 2);
  CHECK(s.compact_average == doctest::Approx(11.0 / 11));
  CHECK(s.useful == 5);
}

TEST_CASE_TEMPLATE_DEFINE("repeats: mismatched sizes are invalid input", C, lr_errors) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  Kokkos::View<I*, mem> rank("rank", 10), lcp("lcp", 9);
  Kokkos::View<strix::repeat<I>*, mem> out("out", 10);
  CHECK_THROWS_AS(strix::leftmost_longest_repeats(typename C::space(), rank, lcp, out), strix::error);
  CHECK_THROWS_AS(strix::all_longest_repeats(typename C::space(), rank, lcp), strix::error);
  Kokkos::View<I*, mem> lcp10("lcp", 10);
  Kokkos::View<strix::repeat<I>*, mem> out9("out", 9);
  CHECK_THROWS_AS(strix::leftmost_longest_repeats(typename C::space(), rank, lcp10, out9), strix::error);
}
TEST_CASE_TEMPLATE_APPLY(lr_errors, all_configs);

TEST_SUITE_END();
