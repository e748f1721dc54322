// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Checking an occurrence table read from a file (occurrence_table_ref.hpp has the layout)
// in one pass over its lines, and completing it (superblocks, exception ranks, C), included
// by libstrix's instantiation files only.
//
// A table is accepted exactly when a build from the BWT it encodes would write the same
// lines and marks: each line's codes past the text are zero; a line is flagged exactly when
// it holds exceptions, which sit on code-0 places inside the text; the header of the line
// after a line is its own plus the line's counts (zero at each superblock's first line); the
// four codes are those choose_codes gives the symbol counts, and no exception is one of
// them. This replaces decoding the BWT and building the table again to compare (which wrote
// the text's n bytes and a second table: 0.9 s of a 1.1 s load of a 64 MB index).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/fm_index/detail/fm_build_def.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/succinct/detail/bit_vector_def.hpp>

namespace strix::detail {

// The ones in six words whose ones sit only in the low bits of 2-bit places: summed place by
// place first (three words to a 2-bit place: at most 3; two such sums to a 4-bit place: at most
// 12), then across places once. About a third of the work of a population count a word
// without a popcount instruction (x86-64's baseline has none), the same on GPUs.
KOKKOS_INLINE_FUNCTION std::uint64_t count_low_bits_of_six(const std::uint64_t (&x)[6]) {
  const std::uint64_t a = x[0] + x[1] + x[2], b = x[3] + x[4] + x[5];
  const std::uint64_t fours = (a & 0x3333333333333333ull) + ((a >> 2) & 0x3333333333333333ull) +
                              (b & 0x3333333333333333ull) + ((b >> 2) & 0x3333333333333333ull);
  const std::uint64_t bytes = (fours & 0x0f0f0f0f0f0f0f0full) + ((fours >> 4) & 0x0f0f0f0f0f0f0f0full);
  return (bytes * 0x0101010101010101ull) >> 56;
}

// Bit i of x at bit 2i (the low bit of 2-bit place i).
KOKKOS_INLINE_FUNCTION std::uint64_t spread_to_even_bits(std::uint32_t x) {
  std::uint64_t v = x;
  v = (v | (v << 16)) & 0x0000ffff0000ffffull;
  v = (v | (v << 8)) & 0x00ff00ff00ff00ffull;
  v = (v | (v << 4)) & 0x0f0f0f0f0f0f0f0full;
  v = (v | (v << 2)) & 0x3333333333333333ull;
  return (v | (v << 1)) & 0x5555555555555555ull;
}

// Per superblock, what its lines add up to: the four code counts and the flagged lines.
constexpr int occ_super_sums = 5;

template <class ExecSpace>
void check_occurrence_table(const ExecSpace& space, fm_rank_data<ExecSpace>& rank, std::uint64_t n) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t L = n / occ_line_symbols + 1;
  const std::uint64_t supers = (L >> occ_superblock_log2) + 1;
  STRIX_USER_REQUIRE(rank.occ_lines.extent(0) == L * occ_line_words && rank.code_of.extent(0) == 256,
                     "fm_index file: the occurrence table's size does not match the text's");
  const bool has_exceptions = rank.exceptions.n > 0;
  auto& marks = rank.exception_bits;
  STRIX_USER_REQUIRE(marks.n % occ_line_symbols == 0 && marks.words.extent(0) == padded_words(marks.n) &&
                         (has_exceptions || marks.n == 0),
                     "fm_index file: the exception marks' size is damaged");
  const std::uint64_t flagged_lines = marks.n / occ_line_symbols;
  const auto lines = rank.occ_lines;
  const auto words = marks.words;

  // The flagged lines before each superblock, as its last line's header claims them (the
  // pass below checks every claim, these included, before anything is used).
  auto flagged_before_super = allocate<std::uint64_t, memory_space>("strix::fm::check_flagged_before", supers);
  Kokkos::parallel_scan("strix::fm_check_super_flags", range(space, 0, std::int64_t(supers)),
                        KOKKOS_LAMBDA(const std::int64_t s, std::uint64_t& sum, const bool final) {
                          if (final) flagged_before_super(s) = sum;
                          const std::uint64_t end = (std::uint64_t(s) + 1) << occ_superblock_log2, last = (end < L ? end : L) - 1;
                          occurrence_table_ref::line l;
                          for (std::uint64_t j = 0; j < 2; ++j) l.w[j] = lines(last * occ_line_words + j);
                          sum += (l.flag_field() >> 1) + (l.flag_field() & 1);
                        });

  auto super_sums = allocate<std::uint64_t, memory_space>("strix::fm::check_super_sums", supers * occ_super_sums);
  std::uint64_t bad = 0;
  Kokkos::parallel_reduce(
      "strix::fm_check_lines", range(space, 0, std::int64_t(L)),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& errors) {
        const std::uint64_t line = std::uint64_t(i), first = line * occ_line_symbols;
        const std::uint64_t inside = n - first < occ_line_symbols ? n - first : occ_line_symbols;  // symbols in the text
        occurrence_table_ref::line l;
        for (std::uint64_t j = 0; j < occ_line_words; ++j) l.w[j] = lines(line * occ_line_words + j);
        // Codes: none past the text; counted per code over the line's six words at once (below).
        std::uint64_t count[4] = {0, 0, 0, 0};
        std::uint64_t is_code[3][6];  // code c + 1 at a place: a one in that place's low bit
        for (std::uint64_t j = 0; j < 6; ++j) {
          const std::uint64_t held = inside <= 32 * j ? 0 : inside - 32 * j < 32 ? inside - 32 * j : 32;
          const std::uint64_t keep = held == 32 ? ~std::uint64_t(0) : (std::uint64_t(1) << (2 * held)) - 1;
          const std::uint64_t w = l.w[2 + j];
          if (w & ~keep) ++errors;
          const std::uint64_t low = w & 0x5555555555555555ull, high = (w >> 1) & 0x5555555555555555ull;
          is_code[0][j] = low & ~high;
          is_code[1][j] = high & ~low;
          is_code[2][j] = low & high;
        }
        for (int c = 0; c < 3; ++c) count[c + 1] = count_low_bits_of_six(is_code[c]);
        count[0] = inside - count[1] - count[2] - count[3];
        // Exceptions: this line's 192 marks, on code-0 places inside the text, at least one.
        const std::uint64_t s = line >> occ_superblock_log2;
        const bool flagged = l.flagged();
        if (flagged) {
          const std::uint64_t f = flagged_before_super(s) + (l.flag_field() >> 1);
          if (f >= flagged_lines) {
            ++errors;
          } else {
            // 64 places a mark word; a place's code is code_at's two bits, nonzero where either is.
            std::uint64_t exceptions = 0;
            for (std::uint64_t h = 0; h < 3; ++h) {
              const std::uint64_t marks = words(3 * f + h);
              const std::uint64_t valid = inside >= 64 * (h + 1) ? ~std::uint64_t(0)
                                          : inside <= 64 * h   ? 0
                                                               : (std::uint64_t(1) << (inside - 64 * h)) - 1;
              if (marks & ~valid) ++errors;
              for (std::uint64_t half = 0; half < 2; ++half) {
                const std::uint64_t w = l.w[2 + 2 * h + half];
                if (spread_to_even_bits(std::uint32_t(marks >> (32 * half))) & (w | (w >> 1))) ++errors;
              }
              exceptions += std::uint64_t(popcount64(marks));
            }
            if (exceptions == 0) ++errors;
            count[0] -= exceptions <= count[0] ? exceptions : count[0];
          }
        }
        // The headers: zero at a superblock's first line; the next line's, this one's plus
        // this line's counts; the last line of a superblock gives the superblock's sums.
        const bool first_of_super = (line & ((std::uint64_t(1) << occ_superblock_log2) - 1)) == 0;
        if (first_of_super && (l.count(0) | l.count(1) | l.count(2) | l.count(3) | (l.flag_field() >> 1)) != 0) ++errors;
        if ((l.w[1] >> 56) != 0) ++errors;  // field 3's top byte holds nothing
        const bool last_of_super = line + 1 == L || ((line + 1) & ((std::uint64_t(1) << occ_superblock_log2) - 1)) == 0;
        if (last_of_super) {
          for (unsigned k = 0; k < 4; ++k) super_sums(s * occ_super_sums + k) = l.count(k) + count[k];
          super_sums(s * occ_super_sums + 4) = (l.flag_field() >> 1) + (flagged ? 1 : 0);
        } else {
          occurrence_table_ref::line next;
          for (std::uint64_t j = 0; j < 2; ++j) next.w[j] = lines((line + 1) * occ_line_words + j);
          for (unsigned k = 0; k < 4; ++k)
            if (next.count(k) != l.count(k) + count[k]) ++errors;
          if ((next.flag_field() >> 1) != (l.flag_field() >> 1) + (flagged ? 1 : 0)) ++errors;
        }
      },
      bad);
  STRIX_USER_REQUIRE(bad == 0, "fm_index file: the occurrence table does not match the symbols it holds");

  // The superblocks' counts before them, and the symbol counts of the whole BWT.
  const auto sums = strix::to_host(space, super_sums);
  std::vector<std::uint64_t> super_host(supers * occ_super_words, 0);
  std::uint64_t total[occ_super_sums] = {0, 0, 0, 0, 0};
  for (std::uint64_t s = 0; s < supers; ++s)
    for (int k = 0; k < occ_super_sums; ++k) {
      super_host[s * occ_super_words + k] = total[k];
      total[k] += sums(s * occ_super_sums + k);
    }
  STRIX_USER_REQUIRE(total[4] == flagged_lines, "fm_index file: the occurrence table does not match its exception marks");
  rank.occ_super = allocate<std::uint64_t, memory_space>("strix::fm::occ_super", supers * occ_super_words);
  strix::copy(space, rank.occ_super,
              Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(super_host.data(), super_host.size()));

  std::uint64_t counts[256] = {};
  for (int k = 0; k < 4; ++k) counts[rank.symbol_of[k]] += total[k];
  if (has_exceptions) {
    build_rank_select<ExecSpace, std::uint64_t>(space, marks, bit_vector_options{});
    STRIX_USER_REQUIRE(marks.ones == rank.exceptions.n, "fm_index file: the exception marks do not match the exceptions");
    add_wavelet_counts(space, rank.exceptions, counts);
  }
  // The codes a build would choose for these counts, and no exception among their symbols.
  std::uint8_t code_of[256], symbol_of[4];
  choose_codes(counts, code_of, symbol_of);
  const auto file_code_of = strix::to_host(space, rank.code_of);
  bool same = true;
  for (int c = 0; c < 256; ++c) same = same && file_code_of(c) == code_of[c];
  for (int k = 0; k < 4; ++k) same = same && rank.symbol_of[k] == symbol_of[k];
  if (has_exceptions) {
    const auto alphabet = strix::to_host(space, rank.exceptions.alphabet);
    for (std::size_t m = 0; m < alphabet.extent(0); ++m) same = same && code_of[alphabet(m)] == occ_exception_code;
  }
  STRIX_USER_REQUIRE(same, "fm_index file: the occurrence table's codes do not match its symbol counts");
  std::uint64_t symbols = 0;
  for (int c = 0; c < 256; ++c) symbols += counts[c];
  STRIX_USER_REQUIRE(symbols == n, "fm_index file: the occurrence table's counts do not add up to the text");
  rank.C = upload_C(space, counts);
}

}  // namespace strix::detail
