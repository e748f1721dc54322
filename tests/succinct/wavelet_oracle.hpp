// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Naive answers to wavelet queries, and the query sets the wavelet tests ask: every access,
// rank at the edges and at random positions, select at k = 1, the count, count + 1 and
// between, for symbols that occur and symbols that do not.
#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace strix_test {

template <class S, class I>
struct wavelet_queries_and_answers {
  std::vector<I> access_i;
  std::vector<S> access_want;
  std::vector<S> rank_c;
  std::vector<I> rank_i, rank_want;
  std::vector<S> select_c;
  std::vector<I> select_k, select_want;
};

template <class S, class I>
wavelet_queries_and_answers<S, I> naive_wavelet_queries(const std::vector<S>& t, std::uint64_t seed) {
  wavelet_queries_and_answers<S, I> q;
  const std::size_t n = t.size();
  std::map<S, std::vector<I>> where;
  for (std::size_t i = 0; i < n; ++i) where[t[i]].push_back(I(i));
  for (std::size_t i = 0; i < n; ++i) {
    q.access_i.push_back(I(i));
    q.access_want.push_back(t[i]);
  }
  std::vector<S> symbols;
  for (const auto& e : where) symbols.push_back(e.first);
  // Absent symbols: 0, the largest value, and neighbours of present ones.
  std::vector<S> absent = {S(0), S(~S(0))};
  for (const auto& e : where) {
    if (e.first > 0 && !where.count(S(e.first - 1))) absent.push_back(S(e.first - 1));
    if (S(e.first + 1) != 0 && !where.count(S(e.first + 1))) absent.push_back(S(e.first + 1));
    if (absent.size() > 8) break;
  }
  std::mt19937_64 rng(seed);
  auto rank_of = [&](S c, std::size_t i) {
    auto it = where.find(c);
    if (it == where.end()) return I(0);
    return I(std::lower_bound(it->second.begin(), it->second.end(), I(i)) - it->second.begin());
  };
  auto add_rank = [&](S c, std::size_t i) {
    q.rank_c.push_back(c);
    q.rank_i.push_back(I(i));
    q.rank_want.push_back(rank_of(c, i));
  };
  auto add_select = [&](S c, std::size_t k) {
    q.select_c.push_back(c);
    q.select_k.push_back(I(k));
    auto it = where.find(c);
    q.select_want.push_back(it != where.end() && k <= it->second.size() ? it->second[k - 1] : I(n));
  };
  std::vector<S> all = symbols;
  for (S a : absent)
    if (!where.count(a)) all.push_back(a);
  const std::size_t per_symbol = symbols.size() > 300 ? 4 : 24;
  for (S c : all) {
    add_rank(c, 0);
    add_rank(c, n);
    for (std::size_t j = 0; j < per_symbol && n; ++j) add_rank(c, rng() % (n + 1));
    const std::size_t count = where.count(c) ? where[c].size() : 0;
    add_select(c, 1);
    add_select(c, count + 1);
    if (count) add_select(c, count);
    for (std::size_t j = 0; j < per_symbol && count; ++j) add_select(c, 1 + rng() % count);
  }
  return q;
}

}  // namespace strix_test
