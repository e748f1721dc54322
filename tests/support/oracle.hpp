// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Reference constructions and test inputs shared by the strix tests.
#include <divsufsort.h>
#include <divsufsort64.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace strix_test {

using bytes = std::vector<std::uint8_t>;

// Naive suffix sort: fine for the few thousand bytes it is used on.
template <class I>
std::vector<I> naive_suffix_array(const bytes& t) {
  std::vector<I> sa(t.size());
  std::iota(sa.begin(), sa.end(), I(0));
  std::sort(sa.begin(), sa.end(), [&](I a, I b) {
    return std::lexicographical_compare(t.begin() + a, t.end(), t.begin() + b, t.end());
  });
  return sa;
}

// libdivsufsort: the oracle for large inputs, 32- or 64-bit.
template <class I>
std::vector<I> divsufsort_suffix_array(const bytes& t) {
  std::vector<I> sa(t.size());
  if (t.empty()) return sa;
  if constexpr (sizeof(I) == 4) {
    std::vector<saidx_t> out(t.size());
    if (divsufsort(t.data(), out.data(), static_cast<saidx_t>(t.size())) != 0)
      throw std::runtime_error("divsufsort failed");
    std::copy(out.begin(), out.end(), sa.begin());
  } else {
    std::vector<saidx64_t> out(t.size());
    if (divsufsort64(t.data(), out.data(), static_cast<saidx64_t>(t.size())) != 0)
      throw std::runtime_error("divsufsort64 failed");
    std::copy(out.begin(), out.end(), sa.begin());
  }
  return sa;
}

// libdivsufsort's BWT: n bytes and the primary index.
inline std::pair<bytes, std::uint64_t> divbwt_of(const bytes& t) {
  bytes out(t.size());
  if (t.empty()) return {out, 0};
  std::vector<saidx_t> work(t.size());
  const saidx_t primary = divbwt(t.data(), out.data(), work.data(), static_cast<saidx_t>(t.size()));
  if (primary < 0) throw std::runtime_error("divbwt failed");
  return {out, static_cast<std::uint64_t>(primary)};
}

inline bytes from_string(const std::string& s) { return bytes(s.begin(), s.end()); }

inline bytes random_text(std::size_t n, unsigned sigma, std::uint64_t seed, std::uint8_t first = 0) {
  std::mt19937_64 rng(seed);
  bytes t(n);
  for (auto& c : t) c = static_cast<std::uint8_t>(first + rng() % sigma);
  return t;
}

inline bytes fibonacci_word(std::size_t n) {
  std::string a = "a", b = "ab";
  while (b.size() < n) { std::string c = b + a; a = std::move(b); b = std::move(c); }
  return bytes(b.begin(), b.begin() + n);
}

inline bytes periodic(std::size_t n, const std::string& period) {
  bytes t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = static_cast<std::uint8_t>(period[i % period.size()]);
  return t;
}

// Runs of one byte with random lengths, over a small alphabet including 0x00 and 0xFF.
inline bytes long_runs(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::uint8_t symbols[] = {0x00, 0xFF, 'a', 'b'};
  bytes t;
  t.reserve(n);
  while (t.size() < n) {
    const std::uint8_t c = symbols[rng() % 4];
    const std::size_t len = 1 + rng() % 300;
    for (std::size_t i = 0; i < len && t.size() < n; ++i) t.push_back(c);
  }
  return t;
}

// The size of the large inputs checked against libdivsufsort on a backend: above every size
// threshold of the constructions there (auto's 1 MiB on host backends, 4 MiB on GPUs), and
// odd so that no period or block divides it: 1 MiB + 17 on host backends, 4 MiB + 17 on GPUs.
// STRIX_TEST_LARGE_BYTES sets another size of at least 1 MiB + 1 for every backend.
inline std::size_t large_text_bytes(bool host_backend) {
  const std::size_t fallback = (std::size_t(host_backend ? 1 : 4) << 20) + 17, least = (std::size_t(1) << 20) + 1;
  const char* set = std::getenv("STRIX_TEST_LARGE_BYTES");
  if (set == nullptr || *set == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(set, &end, 10);
  if (*end != '\0' || n < least)
    throw std::invalid_argument("STRIX_TEST_LARGE_BYTES must be a number of bytes of at least 1 MiB + 1");
  return static_cast<std::size_t>(n);
}

// The large inputs checked against libdivsufsort-based oracles: random DNA and all-equal
// always; with `all`, also random bytes, a period of 1000, a Fibonacci word and long runs.
inline std::vector<std::pair<std::string, bytes>> large_inputs(std::size_t n, bool all) {
  std::vector<std::pair<std::string, bytes>> inputs;
  inputs.push_back({"random DNA", random_text(n, 4, 7, 'A')});
  inputs.push_back({"all equal", bytes(n, 'a')});
  if (all) {
    inputs.push_back({"random bytes", random_text(n, 256, 8)});
    const auto unit = random_text(1000, 26, 9, 'a');
    inputs.push_back({"period 1000", periodic(n, std::string(unit.begin(), unit.end()))});
    inputs.push_back({"fibonacci", fibonacci_word(n)});
    inputs.push_back({"long runs", long_runs(n, 10)});
  }
  return inputs;
}

// The hard small inputs every construction must get right.
inline std::vector<std::pair<std::string, bytes>> hard_inputs() {
  std::vector<std::pair<std::string, bytes>> v;
  v.push_back({"empty", {}});
  v.push_back({"one byte", from_string("x")});
  v.push_back({"one 0x00", bytes{0x00}});
  v.push_back({"one 0xFF", bytes{0xFF}});
  v.push_back({"two 0x00", bytes{0x00, 0x00}});
  v.push_back({"banana", from_string("banana")});
  v.push_back({"mississippi", from_string("mississippi")});
  v.push_back({"abcabcddbc", from_string("abcabcddbc")});
  for (std::size_t n : {2, 7, 8, 9, 63, 64, 65, 1000, 4095, 4096, 4097}) {
    v.push_back({"all-equal " + std::to_string(n), bytes(n, 'a')});
    v.push_back({"all-0x00 " + std::to_string(n), bytes(n, 0x00)});
    v.push_back({"all-0xFF " + std::to_string(n), bytes(n, 0xFF)});
  }
  for (std::size_t n : {10, 100, 1023, 1024, 1025, 3000}) {
    v.push_back({"abab " + std::to_string(n), periodic(n, "ab")});
    v.push_back({"abcabc " + std::to_string(n), periodic(n, "abc")});
    v.push_back({"period 17 " + std::to_string(n), periodic(n, "abracadabra-xyz.q")});
    v.push_back({"fibonacci " + std::to_string(n), fibonacci_word(n)});
    v.push_back({"runs " + std::to_string(n), long_runs(n, n)});
  }
  bytes zero_ff;
  for (int i = 0; i < 2000; ++i) zero_ff.push_back((i * 7919 % 13) < 6 ? 0x00 : 0xFF);
  v.push_back({"0x00/0xFF mix", zero_ff});
  bytes all_bytes;
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 256; ++c) all_bytes.push_back(static_cast<std::uint8_t>(r % 2 ? 255 - c : c));
  v.push_back({"every byte value", all_bytes});
  return v;
}

}  // namespace strix_test
