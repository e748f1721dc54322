// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The FM-index benchmarks' shared pieces (strix_bench_fm and strix_bench_sdsl_fm): the
// patterns — m of length L from random text positions, one in ten with one byte changed to
// another byte of the text (so mostly absent) — and the timing harness (median of runs after
// a warm-up). Plain C++: the SDSL program does not include strix.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace strix_bench {

inline std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

struct pattern_set {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint64_t> offsets{0};
  std::size_t size() const { return offsets.size() - 1; }
};

inline pattern_set make_patterns(const std::string& text, std::size_t m, std::size_t length, std::uint64_t seed) {
  pattern_set p;
  if (text.size() < length) return p;
  std::vector<std::uint8_t> present;
  {
    bool seen[256] = {};
    for (unsigned char c : text) seen[c] = true;
    for (int c = 0; c < 256; ++c)
      if (seen[c]) present.push_back(std::uint8_t(c));
  }
  p.bytes.reserve(m * length);
  for (std::size_t q = 0; q < m; ++q) {
    const std::uint64_t r = mix64(seed * 0x100000001b3ull + q);
    const std::size_t at = r % (text.size() - length + 1);
    const std::size_t first = p.bytes.size();
    p.bytes.insert(p.bytes.end(), text.begin() + at, text.begin() + at + length);
    if ((r >> 40) % 10 == 0 && present.size() > 1) {  // mutated
      auto& c = p.bytes[first + (r >> 20) % length];
      c = present[(std::find(present.begin(), present.end(), c) - present.begin() + 1 + (r >> 50) % (present.size() - 1)) %
                  present.size()];
    }
    p.offsets.push_back(p.bytes.size());
  }
  return p;
}

template <class F>
double median_seconds(int runs, F&& f) {
  f();
  std::vector<double> t;
  for (int r = 0; r < runs; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

inline std::string input_name(const std::string& path) {
  std::string name = path.substr(path.find_last_of('/') + 1);
  for (auto& c : name)
    if (c == '.' || c == '-') c = '_';
  return name;
}

}  // namespace strix_bench
