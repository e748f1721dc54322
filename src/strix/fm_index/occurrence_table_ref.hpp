// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The FM-index's rank structure for texts of (mostly) four symbols, such as DNA: an
// interleaved occurrence table, read on the device.
//
// The BWT is cut into lines of 192 symbols, one 64-byte line each (one cache line, two
// 32-byte sectors): two words of header, then six words of 2-bit codes (symbol o of the
// line in word 2 + o / 32, bits 2 (o % 32)). The header holds four 32-bit fields: the low
// 24 bits of field k count code k before the line, relative to its superblock of 2^16
// lines (12.6 M symbols, so the counts fit); the top bytes of fields 0..2 hold
// (flagged lines before the line in its superblock) * 2 + (this line is flagged).
// Superblocks keep eight 64-bit words: the four counts before them, the flagged lines
// before them, and three unused. One rank step reads one line and one (cached) superblock.
//
// The four most frequent symbols get the codes 0..3; every other symbol is an exception,
// stored exactly: its line is flagged, its place in the line holds code 0, a bit vector of
// 192 bits per flagged line marks the exceptions, and a wavelet matrix holds their symbols
// in BWT order. Code 0's header counts are true counts; inside a flagged line the
// exceptions before a position are subtracted. Exceptions cluster in the BWT (N runs end up
// in the rows of suffixes that start with N), so few lines are flagged.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/bit_vector_ref.hpp>
#include <strix/succinct/detail/word_ops.hpp>
#include <strix/succinct/wavelet_ref.hpp>

namespace strix {

constexpr std::uint64_t occ_line_symbols = 192;
constexpr std::uint64_t occ_line_words = 8;
constexpr int occ_superblock_log2 = 16;  // lines per superblock
constexpr std::uint64_t occ_super_words = 8;
constexpr std::uint8_t occ_exception_code = 4;  // code_of[] of a symbol stored as an exception

struct occurrence_table_ref {
  using P = std::uint64_t;
  const std::uint64_t* lines = nullptr;  // (n / 192 + 1) * 8 words
  const std::uint64_t* super = nullptr;  // 8 words per superblock
  const std::uint8_t* code_of = nullptr; // 256 entries: the symbol's code 0..3, or 4
  std::uint8_t symbol_of[4] = {};        // code -> symbol
  bit_vector_ref<P> exception_bits;      // 192 bits per flagged line
  wavelet_ref<std::uint8_t, P, wavelet_shape::matrix> exceptions;  // their symbols
  bool has_exceptions = false;

  struct line {
    std::uint64_t w[8];
    KOKKOS_INLINE_FUNCTION P count(unsigned code) const {
      return (w[code >> 1] >> (32 * (code & 1))) & 0xffffffu;
    }
    KOKKOS_INLINE_FUNCTION P flag_field() const {
      return ((w[0] >> 24) & 0xff) | (((w[0] >> 56) & 0xff) << 8) | (((w[1] >> 24) & 0xff) << 16);
    }
    KOKKOS_INLINE_FUNCTION bool flagged() const { return flag_field() & 1; }
    KOKKOS_INLINE_FUNCTION unsigned code_at(unsigned o) const {
      return static_cast<unsigned>((w[2 + o / 32] >> (2 * (o % 32))) & 3u);
    }
    // Symbols of code `code` among the line's first o (0 <= o < 192).
    KOKKOS_INLINE_FUNCTION P matches(unsigned code, unsigned o) const {
      const std::uint64_t broadcast = std::uint64_t(code) * 0x5555555555555555ull;
      P count = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (unsigned j = 0; j < 6; ++j) {
        const unsigned before = o > 32 * j ? o - 32 * j : 0;
        if (before == 0) continue;
        const std::uint64_t x = w[2 + j] ^ broadcast;
        std::uint64_t equal = ~(x | (x >> 1)) & 0x5555555555555555ull;
        if (before < 32) equal &= (std::uint64_t(1) << (2 * before)) - 1;
        count += static_cast<P>(detail::popcount64(equal));
      }
      return count;
    }
  };

  KOKKOS_INLINE_FUNCTION void load(P index, line& l) const {
    detail::load_32_bytes(lines + index * occ_line_words, l.w);
    detail::load_32_bytes(lines + index * occ_line_words + 4, l.w + 4);
  }
  // Flagged lines before line `index` (whose header is l).
  KOKKOS_INLINE_FUNCTION P flagged_before(P index, const line& l) const {
    return super[(index >> occ_superblock_log2) * occ_super_words + 4] + (l.flag_field() >> 1);
  }

  // Occurrences of symbol c in the BWT's first i symbols, 0 <= i <= n.
  KOKKOS_INLINE_FUNCTION P rank(std::uint8_t c, P i) const {
    line l;
    load(i / occ_line_symbols, l);
    return rank_in(c, i, l);
  }

  // rank(c, i) and rank(c, j), i <= j: one line read when both fall in it, as the two ends of
  // a backward-search interval do once it is narrow.
  KOKKOS_INLINE_FUNCTION void rank_pair(std::uint8_t c, P i, P j, P& ri, P& rj) const {
    line l;
    load(i / occ_line_symbols, l);
    ri = rank_in(c, i, l);
    if (j / occ_line_symbols != i / occ_line_symbols) load(j / occ_line_symbols, l);
    rj = rank_in(c, j, l);
  }

  // rank(c, i) given l, the line of i.
  KOKKOS_INLINE_FUNCTION P rank_in(std::uint8_t c, P i, const line& l) const {
    const unsigned code = code_of[c];
    const P index = i / occ_line_symbols;
    const unsigned o = static_cast<unsigned>(i % occ_line_symbols);
    if (code < 4) {
      P r = super[(index >> occ_superblock_log2) * occ_super_words + code] + l.count(code) + l.matches(code, o);
      if (code == 0 && l.flagged()) {
        const P first = flagged_before(index, l) * occ_line_symbols;
        r -= exception_bits.rank1(first + o) - exception_bits.rank1(first);
      }
      return r;
    }
    P m = 0;
    if (!has_exceptions || !exceptions.minimal(c, m)) return 0;
    const P first = flagged_before(index, l) * occ_line_symbols;
    return exceptions.rank(m, exception_bits.rank1(l.flagged() ? first + o : first));
  }

  // The BWT's symbol i (i < n) and its rank (occurrences of it before i).
  KOKKOS_INLINE_FUNCTION std::uint8_t access_and_rank(P i, P& r) const {
    const P index = i / occ_line_symbols;
    const unsigned o = static_cast<unsigned>(i % occ_line_symbols);
    line l;
    load(index, l);
    std::uint8_t c = symbol_of[l.code_at(o)];
    if (l.flagged()) {
      const P at = flagged_before(index, l) * occ_line_symbols + o;
      bool exception = false;
      const P e = exception_bits.rank1_and_bit(at, exception);
      if (exception) c = exceptions.access(e);
    }
    r = rank_in(c, i, l);
    return c;
  }
};

}  // namespace strix
