// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A built wavelet tree or matrix as a trivially copyable view, and its queries for one
// position or symbol, in device code (thesis ch. 5; the matrix after Claude, Navarro and
// Ordóñez). All levels are one bit vector; level l occupies [offset[l], offset[l] + n_l),
// each level starting on a 512-bit block.
//
// The tree uses the minimal alphabet 0..sigma-1 and splits a node's symbol interval
// [a, b) at a + (the largest power of two below b - a): every node has two children, the
// leaves' depths never grow from left to right, so the symbols that end early are the
// largest ones and each level is a prefix of the sorted order (the thesis' reduced codes).
// A node's start in its level is counts[a]; the ones before it, nodes[heap id], are
// precomputed, so each level costs one binary rank.
//
// The matrix codes symbol m in `levels` bits; level l stably partitions the previous one
// by bit l (zeros first); nodes[m] is where m's run starts after the last level.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/bit_vector_ref.hpp>
#include <strix/succinct/detail/word_ops.hpp>
#include <strix/succinct/wavelet_shape.hpp>

namespace strix {

template <class Symbol, class I, wavelet_shape Shape>
struct wavelet_ref {
  using P = std::uint64_t;
  bit_vector_ref<P> bits;
  const Symbol* alphabet = nullptr;         // minimal symbol -> symbol (sigma entries)
  const std::uint32_t* dense_map = nullptr; // symbol -> minimal + 1, 0 when absent (8/16-bit symbols)
  const std::uint64_t* counts = nullptr;    // sigma + 1: occurrences of smaller minimal symbols
  const std::uint64_t* nodes = nullptr;     // tree: ones before each node; matrix: run starts
  P offset[wavelet_max_levels + 1] = {};
  P ones_before[wavelet_max_levels] = {};   // ones before each level's start in `bits`
  P level_zeros[wavelet_max_levels] = {};   // matrix: zeros in each level
  P n = 0, sigma = 0;
  int levels = 0;

  // The minimal symbol of c; false when c does not occur.
  KOKKOS_INLINE_FUNCTION bool minimal(Symbol c, P& m) const {
    if (dense_map) {
      const std::uint32_t v = dense_map[c];
      m = v ? v - 1 : 0;
      return v != 0;
    }
    P lo = 0, hi = sigma;  // first entry >= c
    while (lo < hi) {
      const P mid = (lo + hi) / 2;
      if (alphabet[mid] < c) lo = mid + 1;
      else hi = mid;
    }
    m = lo;
    return lo < sigma && alphabet[lo] == c;
  }

  KOKKOS_INLINE_FUNCTION Symbol access(P i) const {
    if (Shape == wavelet_shape::tree) {
      detail::tree_node node{0, sigma};
      P p = 0, pos = i;
      for (int l = 0; node.inner(); ++l) {
        const P base = offset[l] + counts[node.a];
        const P g = base + pos;
        if (node.b - node.a == 2) return alphabet[node.a + (bits.access(g) ? 1 : 0)];
        bool bit;
        const P r1 = bits.rank1_and_bit(g, bit);
        const P node_ones = nodes[(P(1) << l) | p];
        pos = bit ? r1 - node_ones : (g - r1) - (base - node_ones);
        node.descend(bit);
        p = 2 * p + (bit ? 1 : 0);
      }
      return alphabet[node.a];
    } else {
      P pos = i, m = 0;
      for (int l = 0; l < levels; ++l) {
        const P g = offset[l] + pos;
        if (l == levels - 1) return alphabet[2 * m + (bits.access(g) ? 1 : 0)];
        bool bit;
        const P r1 = bits.rank1_and_bit(g, bit) - ones_before[l];
        pos = bit ? level_zeros[l] + r1 : pos - r1;
        m = 2 * m + (bit ? 1 : 0);
      }
      return alphabet[m];
    }
  }

  // Occurrences of minimal symbol m in [0, i).
  KOKKOS_INLINE_FUNCTION P rank(P m, P i) const {
    if (Shape == wavelet_shape::tree) {
      detail::tree_node node{0, sigma};
      P p = 0, pos = i;
      for (int l = 0; node.inner(); ++l) {
        const P base = offset[l] + counts[node.a];
        const P g = base + pos;
        const P r1 = bits.rank1(g);
        const P node_ones = nodes[(P(1) << l) | p];
        const bool right = m >= node.split();
        pos = right ? r1 - node_ones : (g - r1) - (base - node_ones);
        node.descend(right);
        p = 2 * p + (right ? 1 : 0);
      }
      return pos;
    } else {
      P e = i;
      for (int l = 0; l < levels; ++l) {
        const P r1 = bits.rank1(offset[l] + e) - ones_before[l];
        e = (m >> (levels - 1 - l)) & 1 ? level_zeros[l] + r1 : e - r1;
      }
      return e - nodes[m];
    }
  }

  // Position of the k-th occurrence of minimal symbol m, 1 <= k <= its count.
  KOKKOS_INLINE_FUNCTION P select(P m, P k) const {
    P pos = k - 1;
    if (Shape == wavelet_shape::tree) {
      std::uint32_t starts[wavelet_max_levels];  // the path's node start symbols
      detail::tree_node node{0, sigma};
      P path = 0;
      int depth = 0;
      while (node.inner()) {
        starts[depth] = static_cast<std::uint32_t>(node.a);
        const bool right = m >= node.split();
        node.descend(right);
        path = 2 * path + (right ? 1 : 0);
        ++depth;
      }
      for (int l = depth - 1; l >= 0; --l) {
        const P base = offset[l] + counts[starts[l]];
        const P prefix = path >> (depth - l);
        const P node_ones = nodes[(P(1) << l) | prefix];
        const P g = (path >> (depth - 1 - l)) & 1 ? bits.select1(node_ones + pos + 1)
                                                  : bits.select0((base - node_ones) + pos + 1);
        pos = g - base;
      }
      return pos;
    } else {
      pos += nodes[m];
      for (int l = levels - 1; l >= 0; --l) {
        // A position on the wrong side of the level's split only comes from a damaged
        // structure: answer n rather than read out of bounds.
        const bool one = (m >> (levels - 1 - l)) & 1;
        if (one ? (pos < level_zeros[l] || pos >= n) : pos >= level_zeros[l]) return n;
        const P g = one ? bits.select1(ones_before[l] + (pos - level_zeros[l]) + 1)
                        : bits.select0((offset[l] - ones_before[l]) + pos + 1);
        pos = g - offset[l];
      }
      return pos;
    }
  }

  // Occurrences of minimal symbol m in the whole sequence.
  KOKKOS_INLINE_FUNCTION P count(P m) const { return counts[m + 1] - counts[m]; }
};

}  // namespace strix
