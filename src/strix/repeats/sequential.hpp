// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Sequential longest-repeat queries: Tian and Xu's Algorithms 1-4, 0-based, on one CPU
// thread. The reference the benchmarks and tests compare the Kokkos versions with;
// same definitions and output order as strix/repeats.hpp.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/repeats/repeat.hpp>

namespace strix::sequential {

// LLR[i] = max(LCP[Rank[i]], LCP[Rank[i] + 1]), LCP[n] = 0 (Lemma 1).
template <class I>
std::vector<I> llr_lengths(const I* rank, const I* lcp, std::uint64_t n) {
  std::vector<I> llr(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t r = rank[i];
    const I b = r + 1 < n ? lcp[r + 1] : I(0);
    llr[i] = std::max(lcp[r], b);
  }
  return llr;
}

// The useful LLRs as (start, length): length > 0 and not inside the previous LLR.
template <class I>
std::vector<repeat<I>> compact_llr(const std::vector<I>& llr) {
  std::vector<repeat<I>> llrc;
  I prev = 0;
  for (std::uint64_t i = 0; i < llr.size(); ++i) {
    if (llr[i] > 0 && llr[i] >= prev) llrc.push_back({static_cast<I>(i), llr[i]});
    prev = llr[i];
  }
  return llrc;
}

// Algorithm 1: walk left from LLR[k] while the LLRs cover k; ">=" keeps the leftmost.
template <class I>
void leftmost_raw(const std::vector<I>& llr, repeat<I>* out) {
  const std::uint64_t n = llr.size();
  for (std::uint64_t k = 0; k < n; ++k) {
    repeat<I> best{0, 0};
    for (std::uint64_t i = k + 1; i-- > 0;) {
      if (i + llr[i] <= k) break;
      if (llr[i] >= best.length) best = {static_cast<I>(i), llr[i]};
    }
    out[k] = best;
  }
}

// Index of the first compact record that ends after k (ends strictly increase).
template <class I>
std::uint64_t compact_search(const std::vector<repeat<I>>& llrc, std::uint64_t k) {
  auto it = std::partition_point(llrc.begin(), llrc.end(), [k](const repeat<I>& r) {
    return std::uint64_t(r.start) + r.length <= k;
  });
  return static_cast<std::uint64_t>(it - llrc.begin());
}

// Algorithm 2: binary search, then walk right while the records start at or before k
// (the paper tests the end, which cannot fail going right); ">" keeps the leftmost.
template <class I>
void leftmost_compact(const std::vector<repeat<I>>& llrc, std::uint64_t n, repeat<I>* out) {
  for (std::uint64_t k = 0; k < n; ++k) {
    repeat<I> best{0, 0};
    for (std::uint64_t c = compact_search(llrc, k); c < llrc.size() && llrc[c].start <= k; ++c)
      if (llrc[c].length > best.length) best = llrc[c];
    out[k] = best;
  }
}

// Every longest repeat of every position: records of position k are
// records[offsets[k], offsets[k+1]), in increasing start order; none gives no record.
template <class I>
struct all_repeats {
  std::vector<std::uint64_t> offsets;
  std::vector<repeat<I>> records;
};

// Algorithm 3: one walk for the length, one for the records (found right to left).
template <class I>
all_repeats<I> all_raw(const std::vector<I>& llr) {
  const std::uint64_t n = llr.size();
  all_repeats<I> out;
  out.offsets.reserve(n + 1);
  for (std::uint64_t k = 0; k < n; ++k) {
    out.offsets.push_back(out.records.size());
    I length = 0;
    for (std::uint64_t i = k + 1; i-- > 0;) {
      if (i + llr[i] <= k) break;
      length = std::max(length, llr[i]);
    }
    if (length == 0) continue;
    const std::size_t first = out.records.size();
    for (std::uint64_t i = k + 1; i-- > 0;) {
      if (i + llr[i] <= k) break;
      if (llr[i] == length) out.records.push_back({static_cast<I>(i), length});
    }
    std::reverse(out.records.begin() + first, out.records.end());
  }
  out.offsets.push_back(out.records.size());
  return out;
}

// Algorithm 4: binary search, a walk for the length, a walk for the records.
template <class I>
all_repeats<I> all_compact(const std::vector<repeat<I>>& llrc, std::uint64_t n) {
  all_repeats<I> out;
  out.offsets.reserve(n + 1);
  for (std::uint64_t k = 0; k < n; ++k) {
    out.offsets.push_back(out.records.size());
    const std::uint64_t first = compact_search(llrc, k);
    I length = 0;
    for (std::uint64_t c = first; c < llrc.size() && llrc[c].start <= k; ++c)
      length = std::max(length, llrc[c].length);
    for (std::uint64_t c = first; length > 0 && c < llrc.size() && llrc[c].start <= k; ++c)
      if (llrc[c].length == length) out.records.push_back(llrc[c]);
  }
  out.offsets.push_back(out.records.size());
  return out;
}

// The whole query from Rank and LCP, as the Kokkos versions compute it.
template <class I>
void leftmost_longest_repeats(const I* rank, const I* lcp, std::uint64_t n, repeat_method method,
                              repeat<I>* out) {
  const auto llr = llr_lengths(rank, lcp, n);
  if (method == repeat_method::raw) leftmost_raw(llr, out);
  else leftmost_compact(compact_llr(llr), n, out);
}

template <class I>
all_repeats<I> all_longest_repeats(const I* rank, const I* lcp, std::uint64_t n,
                                   repeat_method method) {
  const auto llr = llr_lengths(rank, lcp, n);
  return method == repeat_method::raw ? all_raw(llr) : all_compact(compact_llr(llr), n);
}

// How many LLRs cover each position: the steps of the raw walk (alpha in the paper),
// and how many useful ones (beta, the compact walk), found in O(n) without walking.
struct walk_stats {
  double raw_average = 0, compact_average = 0;
  std::uint64_t raw_max = 0, compact_max = 0;
  std::uint64_t useful = 0;  // size of the compact LLR array
};

template <class I>
walk_stats llr_walk_stats(const std::vector<I>& llr) {
  const std::uint64_t n = llr.size();
  const auto llrc = compact_llr(llr);
  walk_stats s;
  s.useful = llrc.size();
  if (n == 0) return s;
  long double raw_sum = 0, compact_sum = 0;
  std::uint64_t f = 0;            // first LLR whose end passes k
  std::uint64_t started = 0, ended = 0;  // compact records with start <= k, with end <= k
  for (std::uint64_t k = 0; k < n; ++k) {
    while (f <= k && f + llr[f] <= k) ++f;
    const std::uint64_t alpha = f <= k ? k - f + 1 : 0;
    while (started < llrc.size() && llrc[started].start <= k) ++started;
    while (ended < llrc.size() && std::uint64_t(llrc[ended].start) + llrc[ended].length <= k) ++ended;
    const std::uint64_t beta = started - ended;
    raw_sum += alpha;
    compact_sum += beta;
    s.raw_max = std::max(s.raw_max, alpha);
    s.compact_max = std::max(s.compact_max, beta);
  }
  s.raw_average = static_cast<double>(raw_sum / n);
  s.compact_average = static_cast<double>(compact_sum / n);
  return s;
}

}  // namespace strix::sequential
