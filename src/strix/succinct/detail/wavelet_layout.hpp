// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Host-side shape of a wavelet tree or matrix: level count, each level's length and its
// offset in the concatenated bit vector (each level on a 512-bit block).
#include <cstdint>

#include <strix/succinct/bit_vector_ref.hpp>
#include <strix/succinct/wavelet_ref.hpp>
#include <strix/succinct/detail/word_ops.hpp>

namespace strix::detail {

inline int log2_floor(std::uint64_t x) {
  int l = 0;
  while (x >>= 1) ++l;
  return l;
}

// First minimal symbol whose tree code has at most `l` bits: the codes' lengths never grow
// from left to right, so walk the right spine of the tree.
inline std::uint64_t first_short_code(std::uint64_t sigma, int l) {
  std::uint64_t s = 0;
  for (int depth = 0;; ++depth) {
    const std::uint64_t r = sigma - s;
    if ((r & (r - 1)) == 0) return depth + log2_floor(r) <= l ? s : sigma;
    const std::uint64_t w = split_width(r);
    if (depth + 1 + log2_floor(w) <= l) return s;
    s += w;
  }
}

// counts: sigma + 1 cumulative counts on the host. Fills size[l] and offset[l] (levels + 1
// entries) and returns the total bits.
inline std::uint64_t wavelet_layout(wavelet_shape shape, const std::uint64_t* counts, std::uint64_t sigma,
                                    std::uint64_t* size, std::uint64_t* offset, int& levels) {
  levels = 0;
  while ((std::uint64_t(1) << levels) < sigma) ++levels;
  const std::uint64_t n = counts[sigma];
  std::uint64_t total = 0;
  for (int l = 0; l < levels; ++l) {
    size[l] = shape == wavelet_shape::matrix ? n : counts[first_short_code(sigma, l)];
    offset[l] = total;
    total += (size[l] + 511) / 512 * 512;
  }
  offset[levels] = total;
  return total;
}

}  // namespace strix::detail
