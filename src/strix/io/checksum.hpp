// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The checksum of strix's saved files (wavelet files, index containers). No Kokkos here.
#include <cstddef>
#include <cstdint>
#include <cstring>

namespace strix::detail {

// 64-bit checksum over 8-byte words (a multiply-xor chain with a final mix): catches
// flipped bits and moved or lost blocks, cheap enough for gigabyte files.
class checksum64 {
 public:
  // One word into a running value: the chain's link.
  static std::uint64_t step(std::uint64_t h, std::uint64_t x) {
    return (h ^ (x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0x100000001b3ull;
  }
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
      pending_ |= std::uint64_t(p[i]) << (8 * fill_);
      if (++fill_ == 8) flush();
    }
  }
  void add_words(const std::uint64_t* w, std::size_t count) {
    if (fill_) { add(w, count * 8); return; }
    for (std::size_t i = 0; i < count; ++i) mix(w[i]);
  }
  std::uint64_t value() {
    if (fill_) flush();
    std::uint64_t h = h_ ^ length_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
  }

 private:
  void mix(std::uint64_t x) {
    h_ = step(h_, x);
    ++length_;
  }
  void flush() {
    mix(pending_);
    pending_ = 0;
    fill_ = 0;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull, pending_ = 0, length_ = 0;
  int fill_ = 0;
};

// The blocked checksum of index containers from version 2 (container.hpp): the bytes cut
// into 1 MiB blocks, each block's words dealt in turn to four chains (a core runs the four
// side by side, where one chain waits on its multiply), and the blocks' values chained in
// order. Blocks are independent, so threads share a section.
constexpr std::size_t checksum_block_bytes = std::size_t(1) << 20;

#if defined(__GNUC__) && !defined(__clang__)
// Scalar: GCC otherwise pairs the chains in SSE2 registers, which have no 64-bit multiply
// (its shift-and-add stand-in made the blocks 2.5x slower than scalar chains).
__attribute__((optimize("no-tree-vectorize")))
#endif
inline std::uint64_t block_checksum(const unsigned char* p, std::size_t bytes) {
  std::uint64_t h[4] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull, 0x9e3779b97f4a7c15ull, 0x7f4a7c159e3779b9ull};
  const std::size_t words = bytes / 8;
  auto word = [&](std::size_t i) {
    std::uint64_t x;
    std::memcpy(&x, p + 8 * i, 8);
    return x;
  };
  // Four named chains (an array of four stayed in memory, a store and a load a link).
  std::uint64_t h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3];
  std::size_t i = 0;
  for (; i + 4 <= words; i += 4) {
    h0 = checksum64::step(h0, word(i));
    h1 = checksum64::step(h1, word(i + 1));
    h2 = checksum64::step(h2, word(i + 2));
    h3 = checksum64::step(h3, word(i + 3));
  }
  h[0] = h0, h[1] = h1, h[2] = h2, h[3] = h3;
  for (; i < words; ++i) h[i % 4] = checksum64::step(h[i % 4], word(i));
  std::uint64_t tail = 0;
  for (std::size_t b = 8 * words; b < bytes; ++b) tail |= std::uint64_t(p[b]) << (8 * (b - 8 * words));
  checksum64 sum;
  sum.add_words(h, 4);
  sum.add_words(&tail, 1);
  const std::uint64_t length = bytes;
  sum.add_words(&length, 1);
  return sum.value();
}

}  // namespace strix::detail
