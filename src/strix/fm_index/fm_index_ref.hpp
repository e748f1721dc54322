// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A built FM-index as a trivially copyable view, and its steps in device code: rank in the
// BWT, backward search, LF, and the position of a row from the suffix-array samples.
//
// Rows: the n + 1 suffixes of T$ in sorted order ($ smallest: row 0 is the empty suffix n).
// The BWT L has n + 1 symbols, $ at row `primary`; it is stored without the $ (divbwt's
// layout), so row r's symbol is stored at r - (r > primary). C[c] = 1 + the text symbols
// smaller than c: the first row of the suffixes that start with c.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/fm_index/occurrence_table_ref.hpp>
#include <strix/succinct/huffman_wavelet_ref.hpp>
#include <strix/succinct/packed_ints_ref.hpp>
#include <strix/succinct/sparse_bits_ref.hpp>
#include <strix/succinct/wavelet_ref.hpp>

namespace strix {

// How the BWT's ranks are stored (fm_options::layout; see fm_index.hpp for the choice).
enum class fm_rank_layout : std::uint8_t { automatic = 0, occurrence_table = 1, wavelet_matrix = 2, huffman_tree = 3 };

// The layout's name, as --stats and the Python module show it.
inline const char* fm_layout_name(fm_rank_layout layout) {
  switch (layout) {
    case fm_rank_layout::occurrence_table: return "occurrence_table";
    case fm_rank_layout::wavelet_matrix: return "wavelet_matrix";
    case fm_rank_layout::huffman_tree: return "huffman_tree";
    default: return "automatic";
  }
}

// No separator: every byte may occur in a pattern.
constexpr int fm_no_separator = -1;

template <class I>
struct fm_index_ref {
  using P = std::uint64_t;
  fm_rank_layout layout = fm_rank_layout::wavelet_matrix;
  occurrence_table_ref occ;
  wavelet_ref<std::uint8_t, P, wavelet_shape::matrix> wm;
  huffman_wavelet_ref hwt;
  const std::uint64_t* C = nullptr;  // 257 entries
  P n = 0, primary = 0;
  int separator = fm_no_separator;
  // Locate: rows whose suffix starts at a multiple of sample_rate are marked (a sparse bit
  // vector); their positions divided by sample_rate, in row order, packed in as few bits as
  // n / sample_rate needs.
  sparse_bits_ref sampled;
  packed_ints_ref sa_samples;
  P sample_rate = 1;
  // Extract: for text position j * sample_rate, 0 <= j <= n / sample_rate, the rank of its
  // row among the marked rows, packed alike (unset when the index was built without): the
  // row is sampled.select1 of it. The two sample arrays are inverse permutations.
  packed_ints_ref isa_samples;
  // Search's first steps in one read: the rows [kmer_rows[2 x], kmer_rows[2 x + 1]) of the
  // suffixes that start with k-mer x of the occurrence table's four symbols (x: their codes
  // as a base-4 number, the first symbol most significant); kmer_length 0: no table.
  const I* kmer_rows = nullptr;
  int kmer_length = 0;

  KOKKOS_INLINE_FUNCTION P rows() const { return n + 1; }
  KOKKOS_INLINE_FUNCTION bool occurs(std::uint8_t c) const { return C[c + 1] > C[c]; }
  // Where row r's symbol (or, for r = n + 1, the end) is stored: the $ row is not.
  KOKKOS_INLINE_FUNCTION P stored(P r) const { return r - (r > primary ? 1 : 0); }

  // Occurrences of c in L[0, r), 0 <= r <= n + 1.
  KOKKOS_INLINE_FUNCTION P rank(std::uint8_t c, P r) const {
    const P i = stored(r);
    if (layout == fm_rank_layout::occurrence_table) return occ.rank(c, i);
    if (layout == fm_rank_layout::huffman_tree) return hwt.rank(c, i);
    P m = 0;
    return wm.minimal(c, m) ? wm.rank(m, i) : 0;
  }

  // One backward-search step: the rows [sp, ep) of suffixes that start with X become those
  // that start with cX. Returns false when none do.
  KOKKOS_INLINE_FUNCTION bool extend(std::uint8_t c, P& sp, P& ep) const {
    if (!occurs(c) || int(c) == separator) {
      sp = ep = 0;
      return false;
    }
    if (layout == fm_rank_layout::occurrence_table) {
      P rs, re;
      occ.rank_pair(c, stored(sp), stored(ep), rs, re);
      sp = C[c] + rs;
      ep = C[c] + re;
    } else if (layout == fm_rank_layout::huffman_tree) {
      P rs, re;
      hwt.rank_pair(c, stored(sp), stored(ep), rs, re);
      sp = C[c] + rs;
      ep = C[c] + re;
    } else {
      sp = C[c] + rank(c, sp);
      ep = C[c] + rank(c, ep);
    }
    return sp < ep;
  }

  // The rows of the suffixes that start with pattern[0, length): [sp, ep).
  KOKKOS_INLINE_FUNCTION void search(const std::uint8_t* pattern, P length, P& sp, P& ep) const {
    sp = 0;
    ep = rows();
    if (length == 0) return;
    const std::uint8_t last = pattern[length - 1];
    if (!occurs(last) || int(last) == separator || length > n) {
      sp = ep = 0;
      return;
    }
    P k = length - 1;  // pattern[0, k) is still to prepend
    if (kmer_length > 0 && length >= P(kmer_length) && kmer_start(pattern + (length - kmer_length), sp, ep)) {
      if (sp >= ep) {
        sp = ep = 0;
        return;
      }
      k = length - kmer_length;
    } else {
      sp = C[last];
      ep = C[last + 1];
    }
    for (; k > 0; --k)
      if (!extend(pattern[k - 1], sp, ep)) return;
  }

  // The rows of the k-mer at `kmer` from the table; false when one of its symbols is not one
  // of the four (the search then starts symbol by symbol).
  KOKKOS_INLINE_FUNCTION bool kmer_start(const std::uint8_t* kmer, P& sp, P& ep) const {
    std::uint64_t x = 0;
    for (int j = 0; j < kmer_length; ++j) {
      const unsigned code = occ.code_of[kmer[j]];
      if (code > 3) return false;
      x = 4 * x + code;
    }
    sp = kmer_rows[2 * x];
    ep = kmer_rows[2 * x + 1];
    return true;
  }

  // LF: the row of the suffix one position earlier than row r's (r != primary), and the
  // symbol before row r's suffix.
  KOKKOS_INLINE_FUNCTION P lf(P r, std::uint8_t& c) const {
    const P i = stored(r);
    P before = 0;
    if (layout == fm_rank_layout::occurrence_table) {
      c = occ.access_and_rank(i, before);
    } else if (layout == fm_rank_layout::huffman_tree) {
      c = hwt.access_and_rank(i, before);
    } else {
      c = wm.access(i);
      P m = 0;
      wm.minimal(c, m);
      before = wm.rank(m, i);
    }
    return C[c] + before;
  }

  // The text position of row r's suffix: LF steps to a sampled row (fewer than
  // sample_rate); n + 1 when none is reached, which only a damaged index does.
  KOKKOS_INLINE_FUNCTION P position(P r) const {
    for (P steps = 0; steps < sample_rate; ++steps) {
      bool marked = false;
      const P rank = sampled.rank1_and_bit(r, marked);
      if (marked) return sa_samples[rank] * sample_rate + steps;
      std::uint8_t c;
      r = lf(r, c);
    }
    return n + 1;
  }

  // The row of text position j * sample_rate (0 <= j <= n / sample_rate; extract samples).
  KOKKOS_INLINE_FUNCTION P sampled_row(P j) const { return sampled.select1(isa_samples[j]); }
};

}  // namespace strix
