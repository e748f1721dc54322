// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// An array of unsigned integers of a fixed width of 0 to 64 bits, packed end to end in
// 64-bit words, read on the device: entry i is bits [i w, (i + 1) w) of the words, so one
// read touches one word, or two when the entry straddles them. Used where an index's
// values are known to fit in fewer bits than the index type (the FM-index's samples).
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix {

// Bits needed to write every value in [0, largest]: 0 for largest 0.
KOKKOS_INLINE_FUNCTION int packed_width(std::uint64_t largest) {
  int w = 0;
  while (w < 64 && (largest >> w) != 0) ++w;
  return w;
}

// Words holding `count` entries of `width` bits, plus one so that a read of a straddling
// entry's second word never leaves the array.
inline std::uint64_t packed_words(std::uint64_t count, int width) {
  return (count * std::uint64_t(width) + 63) / 64 + 1;
}

struct packed_ints_ref {
  const std::uint64_t* words = nullptr;
  int width = 0;

  KOKKOS_INLINE_FUNCTION std::uint64_t operator[](std::uint64_t i) const {
    if (width == 0) return 0;
    const std::uint64_t bit = i * std::uint64_t(width);
    const std::uint64_t w = bit >> 6;
    const unsigned offset = unsigned(bit & 63);
    std::uint64_t v = words[w] >> offset;
    if (offset + unsigned(width) > 64) v |= words[w + 1] << (64 - offset);
    return width == 64 ? v : v & ((std::uint64_t(1) << width) - 1);
  }
};

}  // namespace strix
