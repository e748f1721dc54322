// SPDX-License-Identifier: BSD-3-Clause
// The host induced sort behind sa_algorithm::sais, called directly at 1, 2 and 7 threads:
// against libdivsufsort, byte-identical across thread counts, on inputs around its
// thresholds (the 64-entry prefetch distance, the 2^16-entry parallel cut-off) and on texts
// whose recursion goes deep, or leaves no room in the suffix array for a level's buckets; and
// the BWT it makes without a suffix array, against divbwt.
#include <doctest/doctest.h>

#include <random>

#include <strix/backend/host/induced_sort.hpp>
#include <strix/error.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("sa");

namespace {

template <class I>
std::vector<I> induced(const bytes& text, int threads) {
  std::vector<I> sa(text.size(), I(12345));
  strix::backend::host::induced_suffix_array(text.data(), sa.data(), text.size(), threads);
  return sa;
}

// LMS positions every second byte with (nearly) all LMS substrings distinct: the reduced
// text is n / 2 long over about n / 2 names, so its bucket table cannot live in the suffix
// array's free part.
bytes zigzag(std::size_t n, std::uint64_t seed) {
  auto t = random_text(n, 128, seed);
  for (std::size_t i = 0; i < n; i += 2) t[i] = static_cast<std::uint8_t>(t[i] + 128);
  return t;
}

std::vector<std::pair<std::string, bytes>> induced_inputs() {
  auto v = hard_inputs();
  for (std::size_t n : {63, 64, 65, 127, 128, 129, 65535, 65536, 65537, 200003}) {
    const std::string size = " " + std::to_string(n);
    v.push_back({"random bytes" + size, random_text(n, 256, n)});
    v.push_back({"random DNA" + size, random_text(n, 4, n + 1, 'A')});
    v.push_back({"binary" + size, random_text(n, 2, n + 2)});
    v.push_back({"fibonacci" + size, fibonacci_word(n)});
    v.push_back({"all 0x00" + size, bytes(n, 0x00)});
    v.push_back({"all 0xFF" + size, bytes(n, 0xFF)});
    v.push_back({"long runs" + size, long_runs(n, n + 3)});
    v.push_back({"zigzag" + size, zigzag(n, n + 4)});
    v.push_back({"period abaab" + size, periodic(n, "abaab")});
    v.push_back({"period 0x00 0xFF" + size, periodic(n, std::string("\0\xff\xff", 3))});
    const auto unit = random_text(777, 26, n + 5, 'a');
    v.push_back({"period 777" + size, periodic(n, std::string(unit.begin(), unit.end()))});
  }
  // Fibonacci words recurse about log_phi(n) levels deep, to a last level of two names.
  v.push_back({"fibonacci 2^20 + 1", fibonacci_word((std::size_t(1) << 20) + 1)});
  return v;
}

// Random text with copies of a few long random blocks: the reduced levels mix unique names
// (the random stretches) with repeated ones (the copies), at every depth.
bytes repeated_blocks(std::size_t n, unsigned sigma, std::size_t block, std::uint64_t seed) {
  auto t = random_text(n, sigma, seed, 'a');
  std::mt19937_64 rng(seed + 1);
  std::vector<bytes> blocks;
  for (int b = 0; b < 5; ++b) blocks.push_back(random_text(block + b * 37, sigma, seed + 2 + b, 'a'));
  for (std::size_t copies = n / (4 * block); copies-- > 0;) {
    const auto& from = blocks[rng() % blocks.size()];
    const std::size_t at = rng() % (n - from.size());
    std::copy(from.begin(), from.end(), t.begin() + at);
  }
  return t;
}

// A period with a few point mutations: long runs of repeated names end at unique ones.
bytes mutated_period(std::size_t n, std::size_t period, std::size_t mutations, std::uint64_t seed) {
  const auto unit = random_text(period, 4, seed, 'A');
  auto t = periodic(n, std::string(unit.begin(), unit.end()));
  std::mt19937_64 rng(seed + 1);
  for (std::size_t k = 0; k < mutations; ++k) t[rng() % n] = static_cast<std::uint8_t>('A' + rng() % 4);
  return t;
}

// Random bytes with 40 copies of a block over 127..129: its LMS substrings repeat, and their
// entries sort to the middle of level 0's sorted LMS, where the parts of 2 threads meet (a
// group of equal names split between parts).
bytes middle_block_copies(std::size_t n, std::uint64_t seed) {
  auto t = random_text(n, 256, seed);
  const auto block = random_text(1000, 3, seed + 1, 127);
  std::mt19937_64 rng(seed + 2);
  for (int copy = 0; copy < 40; ++copy) {
    const std::size_t at = rng() % (n - block.size());
    std::copy(block.begin(), block.end(), t.begin() + at);
  }
  return t;
}

// Random bytes with many copies of a few short blocks over 52..54: large groups of equal names
// near the middle of level 0's sorted LMS (an LMS byte is a local minimum: in random bytes half
// are below about 53), most of them right after a unique name in the text.
bytes short_middle_blocks(std::size_t n, std::uint64_t seed) {
  auto t = random_text(n, 256, seed);
  std::mt19937_64 rng(seed + 1);
  std::vector<bytes> blocks;
  for (int b = 0; b < 5; ++b) blocks.push_back(random_text(6, 3, seed + 2 + b, 52));
  for (int copy = 0; copy < 20000; ++copy) {
    const auto& block = blocks[rng() % blocks.size()];
    std::copy(block.begin(), block.end(), t.begin() + rng() % (n - block.size()));
  }
  return t;
}

// Inputs whose reduced levels have a few repeated names among many unique ones (the recursion
// then runs on the repeated ones only), large enough that the levels that do it run on
// several threads (parts from 2^16 entries).
std::vector<std::pair<std::string, bytes>> mixed_name_inputs() {
  std::vector<std::pair<std::string, bytes>> v;
  v.push_back({"random bytes 1500000", random_text(1500000, 256, 11)});
  v.push_back({"blocks sigma 26", repeated_blocks(1200000, 26, 3000, 12)});
  v.push_back({"blocks sigma 4", repeated_blocks(1200000, 4, 500, 13)});
  v.push_back({"blocks sigma 256 short", repeated_blocks(900000, 255, 40, 14)});
  v.push_back({"blocks at the end", [] {
                 auto t = repeated_blocks(700000, 26, 2000, 15);
                 const auto tail = bytes(t.begin() + 1000, t.begin() + 21000);
                 std::copy(tail.begin(), tail.end(), t.end() - tail.size());
                 return t;
               }()});
  v.push_back({"mutated period 1000", mutated_period(1000000, 1000, 300, 16)});
  v.push_back({"mutated period 7", mutated_period(600000, 7, 2000, 17)});
  for (std::uint64_t seed : {19, 20, 21}) v.push_back({"middle block copies", middle_block_copies(1200000, seed)});
  for (std::uint64_t seed : {22, 23}) v.push_back({"short middle blocks", short_middle_blocks(1200000, seed)});
  v.push_back({"random DNA 1000000", random_text(1000000, 4, 18, 'A')});
  v.push_back({"fibonacci 1000003", fibonacci_word(1000003)});
  return v;
}

// Each input's suffix array, 32- and 64-bit, at 1, 2 and 7 threads, against libdivsufsort's.
void check_against_divsufsort(const std::vector<std::pair<std::string, bytes>>& inputs) {
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto expected32 = divsufsort_suffix_array<std::uint32_t>(text);
    const auto expected64 = divsufsort_suffix_array<std::uint64_t>(text);
    for (int threads : {1, 2, 7}) {
      CAPTURE(threads);
      CHECK(induced<std::uint32_t>(text, threads) == expected32);
      CHECK(induced<std::uint64_t>(text, threads) == expected64);
    }
  }
}

}  // namespace

TEST_CASE("sais: reduced levels that mix unique and repeated names match libdivsufsort at 1, 2 and 7 threads") {
  check_against_divsufsort(mixed_name_inputs());
}

TEST_CASE("sais: the host induced sort matches libdivsufsort at 1, 2 and 7 threads") {
  check_against_divsufsort(induced_inputs());
}

TEST_CASE("sais: the first level's other scans (for 32-bit entries of texts of 2^30 bytes and more) match libdivsufsort") {
  // Texts that large cannot run here: the same scans are called on the hard inputs.
  using strix::backend::host::detail::first_level_scans;
  for (const auto& input : induced_inputs()) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto expected = divsufsort_suffix_array<std::uint32_t>(text);
    for (auto scans : {first_level_scans::marked, first_level_scans::unmarked}) {
      CAPTURE(static_cast<int>(scans));
      for (int threads : {1, 2, 7}) {
        CAPTURE(threads);
        std::vector<std::uint32_t> sa(text.size(), 12345u);
        strix::backend::host::detail::induced_suffix_array_with(text.data(), sa.data(), text.size(), threads, scans);
        CHECK(sa == expected);
      }
    }
  }
}

TEST_CASE("sais: the BWT from stage 2 matches divbwt at 1, 2 and 7 threads, with every first level's scans") {
  // Named and marked scans write the rows' symbols as they induce; unmarked ones (32-bit
  // entries of texts of 2^31 bytes and more) gather them from the suffix array after.
  using strix::backend::host::detail::first_level_scans;
  for (const auto& input : induced_inputs()) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto [expected, expected_primary] = divbwt_of(text);
    const std::size_t n = text.size();
    for (int threads : {1, 2, 7}) {
      CAPTURE(threads);
      for (auto scans : {first_level_scans::named, first_level_scans::marked, first_level_scans::unmarked}) {
        CAPTURE(static_cast<int>(scans));
        std::vector<std::uint32_t> workspace(n, 12345u);
        bytes out(n + 1, 0xA5);  // one guard byte past the end
        const std::uint64_t primary = strix::backend::host::detail::induced_bwt_with(
            text.data(), workspace.data(), out.data(), n, threads, scans);
        CHECK(primary == expected_primary);
        CHECK(out[n] == 0xA5);
        out.pop_back();
        CHECK(out == expected);
      }
      std::vector<std::uint64_t> workspace64(n);
      bytes out64(n);
      CHECK(strix::backend::host::induced_bwt(text.data(), workspace64.data(), out64.data(), n, threads) ==
            expected_primary);
      CHECK(out64 == expected);
    }
  }
}

TEST_CASE("sais: 32-bit entries refuse texts of 2^32 bytes and more") {
  const std::uint8_t byte = 'a';
  std::uint32_t entry = 0;
  CHECK_THROWS_AS(strix::backend::host::induced_suffix_array(&byte, &entry, std::uint64_t(1) << 32, 1),
                  strix::error);
}
