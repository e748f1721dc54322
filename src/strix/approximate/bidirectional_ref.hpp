// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A bidirectional FM-index in device code: the FM-index of the text (a backward step prepends
// a symbol to a match) and that of the reversed text (a backward step there appends one). A
// match X is held as its rows in both: f = the rows of X in the first, r = those of X reversed
// in the second, always of the same size. A step on one side gives the other side's rows from
// the symbols smaller than the new one in the current rows (the `$` row counted smallest):
// the rows of Xb in the reverse index, and of bX in the forward one, are ordered by b.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/fm_index/fm_index_ref.hpp>

namespace strix::approximate {

struct bi_rows {
  std::uint64_t fs = 0, fe = 0, rs = 0, re = 0;
};

template <class I>
struct bidirectional_ref {
  fm_index_ref<I> forward;  // of the text
  fm_index_ref<I> reverse;  // of the text reversed

  KOKKOS_INLINE_FUNCTION bi_rows all_rows() const { return {0, forward.rows(), 0, reverse.rows()}; }
  KOKKOS_INLINE_FUNCTION int separator() const { return forward.separator; }

  std::uint64_t occurring[4] = {};  // bit c: symbol c occurs in the text (set by bidirectional())

  // Symbols that occur in the text, ascending, one at a time: `next_symbol(c)` is the first
  // occurring symbol at or after c, 256 when none. From a bit set in registers, not the symbol
  // counts: a walk asks at every step, and on a GPU a scan of the counts is a chain of loads.
  KOKKOS_INLINE_FUNCTION int next_symbol(int c) const {
    while (c < 256) {
      const std::uint64_t word = occurring[c >> 6] >> (c & 63);
      if (word != 0) return c + lowest_bit(word);
      c = (c | 63) + 1;
    }
    return 256;
  }

  // The rows of x[0, k) on both sides from the two indexes' k-mer tables (k = kmer_length()):
  // the forward table's row of x and the reverse one's of x reversed. False when a table is
  // missing or a symbol is not one of the four.
  KOKKOS_INLINE_FUNCTION int kmer_length() const {
    return forward.kmer_length == reverse.kmer_length ? forward.kmer_length : 0;
  }
  KOKKOS_INLINE_FUNCTION bool kmer_rows(const std::uint8_t* x, bi_rows& rows) const {
    const int k = kmer_length();
    if (k == 0) return false;
    std::uint64_t f = 0, r = 0;
    for (int j = 0; j < k; ++j) {
      const unsigned a = forward.occ.code_of[x[j]], b = reverse.occ.code_of[x[k - 1 - j]];
      if (a > 3 || b > 3) return false;
      f = 4 * f + a;
      r = 4 * r + b;
    }
    rows = {std::uint64_t(forward.kmer_rows[2 * f]), std::uint64_t(forward.kmer_rows[2 * f + 1]),
            std::uint64_t(reverse.kmer_rows[2 * r]), std::uint64_t(reverse.kmer_rows[2 * r + 1])};
    return true;
  }

  KOKKOS_INLINE_FUNCTION static int lowest_bit(std::uint64_t word) {  // word != 0
    int at = 0;
    for (int half = 32; half > 0; half >>= 1)
      if ((word & ((std::uint64_t(1) << half) - 1)) == 0) {
        at += half;
        word >>= half;
      }
    return at;
  }
};

// One side's step: `fm` is the index whose backward step it is (forward: prepend; reverse:
// append), [s, e) the match's rows there, o the start of its rows on the other side, and
// `smaller` the rows of [s, e) whose symbol sorts before b (the $ row and every symbol < b
// that occurs; the caller keeps this running sum while it tries symbols in order). Sets the
// new rows on both sides and returns their number.
template <class I>
KOKKOS_INLINE_FUNCTION std::uint64_t step_rows(const fm_index_ref<I>& fm, std::uint8_t b, std::uint64_t s,
                                               std::uint64_t e, std::uint64_t o, std::uint64_t smaller,
                                               std::uint64_t& ns, std::uint64_t& ne, std::uint64_t& os,
                                               std::uint64_t& oe) {
  const std::uint64_t lo = fm.rank(b, s), hi = fm.rank(b, e);
  ns = fm.C[b] + lo;
  ne = fm.C[b] + hi;
  os = o + smaller;
  oe = os + (hi - lo);
  return hi - lo;
}

// A match that occurs once grows by the text's own symbol, without a branch: LF on the row of
// the side it grows on gives that symbol (`c`) and the row after it (`row`); the other side's
// row stays (it holds the same suffix of the other direction). False at the text's edge.
template <class I>
KOKKOS_INLINE_FUNCTION bool text_step(const fm_index_ref<I>& fm, std::uint64_t r, std::uint8_t& c, std::uint64_t& row) {
  if (r == std::uint64_t(fm.primary)) return false;
  row = fm.lf(r, c);
  return true;
}

// Where piece p of `pieces` starts in a read of `length` symbols (p = pieces: the end): as equal
// as the length allows, the longer pieces first.
KOKKOS_INLINE_FUNCTION std::uint64_t piece_start(std::uint64_t length, int pieces, int p) {
  const std::uint64_t base = length / pieces, longer = length % pieces;
  return p * base + (std::uint64_t(p) < longer ? std::uint64_t(p) : longer);
}

// The $ row's share of `smaller`: 1 when [s, e) holds the row whose symbol is the end.
template <class I>
KOKKOS_INLINE_FUNCTION std::uint64_t end_row_in(const fm_index_ref<I>& fm, std::uint64_t s, std::uint64_t e) {
  return fm.primary >= s && fm.primary < e ? 1 : 0;
}

}  // namespace strix::approximate
