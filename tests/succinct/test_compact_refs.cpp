// SPDX-License-Identifier: BSD-3-Clause
// The compact arrays' reads (packed_ints_ref, sparse_bits_ref) on arrays laid out here by
// their definitions, bit by bit: every width from 0 to 64 with entries straddling words, and
// sparse bit vectors empty, full, clustered and spread, at lengths around the block (256) and
// superblock (65536) boundaries. Their builders on the device are tested through the
// FM-index, whose samples they hold.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <strix/succinct/packed_ints_ref.hpp>
#include <strix/succinct/sparse_bits_ref.hpp>

TEST_SUITE_BEGIN("succinct");

TEST_CASE("packed integers of every width read back what was written") {
  std::mt19937_64 rng(7);
  for (int width = 0; width <= 64; ++width) {
    CAPTURE(width);
    const std::uint64_t count = 203;
    std::vector<std::uint64_t> values(count), words(strix::packed_words(count, width), 0);
    for (std::uint64_t i = 0; i < count; ++i) {
      values[i] = width == 64 ? rng() : width == 0 ? 0 : rng() & ((std::uint64_t(1) << width) - 1);
      if (i % 17 == 0 && width > 0) values[i] = width == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << width) - 1;
      for (int b = 0; b < width; ++b) {
        const std::uint64_t bit = i * std::uint64_t(width) + std::uint64_t(b);
        if ((values[i] >> b) & 1) words[bit / 64] |= std::uint64_t(1) << (bit % 64);
      }
    }
    strix::packed_ints_ref r;
    r.words = words.data();
    r.width = width;
    for (std::uint64_t i = 0; i < count; ++i) REQUIRE(r[i] == values[i]);
  }
  CHECK(strix::packed_width(0) == 0);
  CHECK(strix::packed_width(1) == 1);
  CHECK(strix::packed_width(255) == 8);
  CHECK(strix::packed_width(256) == 9);
  CHECK(strix::packed_width(~std::uint64_t(0)) == 64);
}

namespace {

// The arrays of a sparse bit vector, laid out from its bits by the definition.
struct sparse_arrays {
  std::vector<std::uint64_t> super;
  std::vector<std::uint16_t> block;
  std::vector<std::uint8_t> low;
  strix::sparse_bits_ref ref;

  explicit sparse_arrays(const std::vector<bool>& bits) {
    const std::uint64_t n = bits.size(), blocks = (n + 255) / 256;
    std::uint64_t ones = 0;
    for (std::uint64_t b = 0; b <= blocks; ++b) {
      if (b % 256 == 0) super.push_back(ones);
      block.push_back(std::uint16_t(ones - super.back()));
      for (std::uint64_t i = b * 256; i < (b + 1) * 256 && i < n; ++i)
        if (bits[i]) {
          low.push_back(std::uint8_t(i % 256));
          ++ones;
        }
    }
    ref.super = super.data();
    ref.block = block.data();
    ref.low = low.data();
    ref.n = n;
    ref.ones = ones;
  }
};

}  // namespace

TEST_CASE("sparse bit vectors: rank, the bit and select like a scan") {
  std::mt19937_64 rng(11);
  const auto fill = [&](std::uint64_t n, int kind) {
    std::vector<bool> bits(n);
    for (std::uint64_t i = 0; i < n; ++i) {
      switch (kind) {
        case 0: bits[i] = false; break;                               // no one
        case 1: bits[i] = true; break;                                // every bit: full blocks
        case 2: bits[i] = rng() % 32 == 0; break;                     // spread, 1 in 32
        case 3: bits[i] = (i / 300) % 7 == 3; break;                  // runs across blocks
        default: bits[i] = i + 1 == n || i % 65536 == 255; break;     // few, at block edges
      }
    }
    return bits;
  };
  for (const std::uint64_t n : {1, 2, 255, 256, 257, 511, 512, 513, 65535, 65536, 65537, 65536 * 3 + 100}) {
    for (int kind = 0; kind < 5; ++kind) {
      CAPTURE(n);
      CAPTURE(kind);
      const auto bits = fill(n, kind);
      const sparse_arrays s(bits);
      std::uint64_t ones = 0;
      for (std::uint64_t i = 0; i < n; ++i) {
        bool bit = false;
        REQUIRE(s.ref.rank1_and_bit(i, bit) == ones);
        REQUIRE(bit == bits[i]);
        if (bits[i]) REQUIRE(s.ref.select1(ones++) == i);
      }
      CHECK(s.ref.rank1(n) == ones);
      CHECK(s.ref.ones == ones);
    }
  }
}

TEST_SUITE_END();
