// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The FM-index tests' inputs: brute-force search, DNA with N runs and IUPAC codes, patterns
// for a text, and a batch of patterns in one buffer with offsets.
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "oracle.hpp"

namespace strix_test {

// Every start of p in t (overlaps count; the empty pattern at 0..n); none when p holds the
// separator byte.
inline std::vector<std::uint64_t> brute_force_starts(const bytes& t, const bytes& p, int separator) {
  std::vector<std::uint64_t> at;
  if (separator >= 0 && std::find(p.begin(), p.end(), std::uint8_t(separator)) != p.end()) return at;
  if (p.size() > t.size()) return at;
  for (std::size_t i = 0; i + p.size() <= t.size(); ++i)
    if (std::equal(p.begin(), p.end(), t.begin() + i)) at.push_back(i);
  return at;
}

// DNA with runs of N, and one in `rare` symbols an IUPAC code or lower case.
inline bytes dna_with_n(std::size_t n, std::uint64_t seed, std::uint64_t rare = 400) {
  std::mt19937_64 rng(seed);
  bytes t(n);
  const char acgt[] = "ACGT", iupac[] = "RYKMSWN";
  for (std::size_t i = 0; i < n; ++i) {
    t[i] = acgt[rng() % 4];
    if (rng() % rare == 0) t[i] = rng() % 4 ? iupac[rng() % 7] : 'a';
  }
  for (std::size_t start = rng() % (n / 3 + 1); start < n; start += n / 3 + 1)
    for (std::size_t i = start; i < std::min(n, start + 1 + rng() % 700); ++i) t[i] = 'N';
  return t;
}

// Patterns for text t: substrings, mutated and absent ones, the whole text, longer than it.
inline std::vector<bytes> patterns_for(const bytes& t, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<bytes> ps;
  ps.push_back({});
  ps.push_back(t);
  bytes longer = t;
  longer.push_back(t.empty() ? 'x' : t.back());
  ps.push_back(longer);
  ps.push_back({0x01, 0x02, 0x03});
  for (int c : {0x00, 0xFF, int('A'), int('N'), int('a')}) ps.push_back({std::uint8_t(c)});
  for (int k = 0; k < 40 && !t.empty(); ++k) {
    const std::size_t len = 1 + rng() % std::min<std::size_t>(t.size(), k < 30 ? 12 : 300);
    const std::size_t at = rng() % (t.size() - len + 1);
    bytes p(t.begin() + at, t.begin() + at + len);
    if (k % 4 == 3) p[rng() % len] ^= std::uint8_t(1 + rng() % 255);  // mutated
    ps.push_back(p);
  }
  return ps;
}

struct batch {
  bytes all;
  std::vector<std::uint64_t> offsets{0};
  explicit batch(const std::vector<bytes>& ps) {
    for (const auto& p : ps) {
      all.insert(all.end(), p.begin(), p.end());
      offsets.push_back(all.size());
    }
  }
};

}  // namespace strix_test
