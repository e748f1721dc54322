// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Completing an FM-index read from a file (see fm_index_file.hpp), included by libstrix's
// instantiation files only. A file's arrays are never trusted: the BWT is decoded from them
// with every read bounds-checked, the rank structure is built again from it and must equal
// the file's, the directories are rebuilt, and the samples are checked against each other,
// so that queries on a loaded index never read out of bounds.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <strix/core/copy.hpp>
#include <strix/fm_index/detail/fm_build_def.hpp>

namespace strix::detail {

template <class View>
bool same_contents(const View& a, const View& b) {
  if (a.extent(0) != b.extent(0)) return false;
  using space = typename View::execution_space;
  std::uint64_t differ = 0;
  Kokkos::parallel_reduce("strix::fm_compare", Kokkos::RangePolicy<space, Kokkos::IndexType<std::int64_t>>(0, a.extent(0)),
                          KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& sum) { sum += a(i) == b(i) ? 0 : 1; },
                          differ);
  return differ == 0;
}

// The BWT the file's occurrence table holds, or throws invalid_input.
template <class ExecSpace>
Kokkos::View<std::uint8_t*, typename ExecSpace::memory_space> decode_occurrence_table(const ExecSpace& space,
                                                                                     const fm_rank_data<ExecSpace>& rank,
                                                                                     std::uint64_t n) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t L = n / occ_line_symbols + 1;
  STRIX_USER_REQUIRE(rank.occ_lines.extent(0) == L * occ_line_words && rank.code_of.extent(0) == 256,
                     "fm_index file: the occurrence table's size does not match the text's");
  // Each flagged line's ordinal, and its exceptions' first index.
  auto flagged_before = allocate<std::uint64_t, memory_space>("strix::fm::flagged_before", L);
  const auto lines = rank.occ_lines;
  const auto words = rank.exception_bits.words;
  const std::uint64_t bit_words = rank.exception_bits.n / 64, symbols = rank.exceptions.n;
  Kokkos::parallel_scan("strix::fm_decode_flags", range(space, 0, L),
                        KOKKOS_LAMBDA(const std::int64_t line, std::uint64_t& sum, const bool final) {
                          if (final) flagged_before(line) = sum;
                          sum += (lines(line * occ_line_words) >> 24) & 1;
                        });
  auto exceptions_before = allocate<std::uint64_t, memory_space>("strix::fm::exceptions_before", L);
  Kokkos::parallel_scan("strix::fm_decode_exceptions", range(space, 0, L),
                        KOKKOS_LAMBDA(const std::int64_t line, std::uint64_t& sum, const bool final) {
                          if (final) exceptions_before(line) = sum;
                          if (!((lines(line * occ_line_words) >> 24) & 1)) return;
                          const std::uint64_t f = flagged_before(line);
                          for (int j = 0; j < 3; ++j)
                            if (3 * f + j < bit_words) sum += popcount64(words(3 * f + j));
                        });
  auto bwt = allocate<std::uint8_t, memory_space>("strix::fm::decoded_bwt", n);
  auto status = allocate<std::uint64_t, memory_space>("strix::fm::status", 1);
  strix::fill(space, status, std::uint64_t(0));
  const auto code_of = rank.code_of;
  std::uint32_t symbol_of = 0;  // the four codes' symbols, a byte each (device lambdas take no local types)
  for (int k = 0; k < 4; ++k) symbol_of |= std::uint32_t(rank.symbol_of[k]) << (8 * k);
  const bool has_exceptions = symbols > 0;
  const auto exceptions = has_exceptions ? rank.exceptions.template ref<std::uint64_t, wavelet_shape::matrix>()
                                         : wavelet_ref<std::uint8_t, std::uint64_t, wavelet_shape::matrix>();
  Kokkos::parallel_for("strix::fm_decode_lines", range(space, 0, L), KOKKOS_LAMBDA(const std::int64_t line) {
    const std::uint64_t first = std::uint64_t(line) * occ_line_symbols;
    const bool flagged = (lines(line * occ_line_words) >> 24) & 1;
    const std::uint64_t f = flagged_before(line);
    if (flagged && 3 * f + 2 >= bit_words) {
      Kokkos::atomic_add(&status(0), std::uint64_t(1));
      return;
    }
    std::uint64_t e = exceptions_before(line);
    for (std::uint64_t o = 0; o < occ_line_symbols && first + o < n; ++o) {
      const unsigned code = (lines(line * occ_line_words + 2 + o / 32) >> (2 * (o % 32))) & 3u;
      const bool exception = flagged && ((words(3 * f + o / 64) >> (o % 64)) & 1);
      std::uint8_t c = std::uint8_t(symbol_of >> (8 * code));
      if (exception) {
        if (e >= symbols || code != 0) {
          Kokkos::atomic_add(&status(0), std::uint64_t(1));
          return;
        }
        c = exceptions.access(e++);
        if (code_of(c) != occ_exception_code) Kokkos::atomic_add(&status(0), std::uint64_t(1));
      } else if (code_of(c) != code) {
        Kokkos::atomic_add(&status(0), std::uint64_t(1));
      }
      bwt(first + o) = c;
    }
  });
  std::uint64_t bad = 0;
  strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&bad), Kokkos::subview(status, 0));
  space.fence();
  STRIX_USER_REQUIRE(bad == 0, "fm_index file: the occurrence table is damaged");
  return bwt;
}

template <class ExecSpace, class I>
void finish_fm_index(const ExecSpace& space, fm_index_data<ExecSpace, I>& d, const fm_options& options) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = d.n, rate = d.sample_rate;
  check_length<I>(n, "fm_index file: text of " + std::to_string(n) + " bytes");
  STRIX_USER_REQUIRE(d.primary <= n && rate >= 1 && d.separator >= fm_no_separator && d.separator <= 255,
                     "fm_index file: its header is damaged");
  memory_tracker tracker;
  phase_timer<ExecSpace> timer(space, nullptr);
  auto& rank = d.rank;
  if (rank.layout == fm_rank_layout::occurrence_table) {
    const bool has_exceptions = rank.exceptions.n > 0;
    STRIX_USER_REQUIRE(rank.exception_bits.n % occ_line_symbols == 0 &&
                           rank.exception_bits.words.extent(0) == padded_words(rank.exception_bits.n) &&
                           (has_exceptions || rank.exception_bits.n == 0),
                       "fm_index file: the exception marks' size is damaged");
    if (has_exceptions) finish_wavelet<ExecSpace, std::uint8_t>(space, rank.exceptions, wavelet_shape::matrix, wavelet_options{}, true);
    const auto bwt = decode_occurrence_table<ExecSpace>(space, rank, n);
    fm_rank_data<ExecSpace> rebuilt;
    build_fm_rank<ExecSpace>(space, device_view<const std::uint8_t, ExecSpace>(bwt.data(), n),
                             fm_rank_layout::occurrence_table, rebuilt, tracker, timer, nullptr);
    STRIX_USER_REQUIRE(same_contents(rebuilt.occ_lines, rank.occ_lines) &&
                           same_contents(rebuilt.exception_bits.words, rank.exception_bits.words),
                       "fm_index file: the occurrence table does not match the symbols it holds");
    rank = std::move(rebuilt);
  } else if (rank.layout == fm_rank_layout::wavelet_matrix) {
    STRIX_USER_REQUIRE(rank.bwt_matrix.n == n, "fm_index file: the wavelet matrix's size does not match the text's");
    finish_wavelet<ExecSpace, std::uint8_t>(space, rank.bwt_matrix, wavelet_shape::matrix, wavelet_options{}, true);
    // C from the matrix's symbols and counts.
    const auto alphabet = strix::to_host(space, rank.bwt_matrix.alphabet);
    const auto cumulative = strix::to_host(space, rank.bwt_matrix.counts);
    std::uint64_t C[257] = {};
    for (std::size_t m = 0; m < alphabet.extent(0); ++m) C[alphabet(m) + 1] = cumulative(m + 1) - cumulative(m);
    C[0] = 1;
    for (int c = 0; c < 256; ++c) C[c + 1] += C[c];
    rank.C = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::fm::C", 257);
    strix::copy(space, rank.C, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(C, 257));
  } else if (rank.layout == fm_rank_layout::huffman_tree) {
    // The symbol counts came with the file (fm_index_file.hpp): C from them, and the tree's
    // shape and bits checked against them.
    auto& h = rank.bwt_huffman;
    const auto counts = strix::to_host(space, rank.C);
    STRIX_USER_REQUIRE(counts.extent(0) == 256 && h.n == n, "fm_index file: the Huffman tree's size is damaged");
    std::uint64_t symbol_counts[256], C[257], total = 0;
    for (int c = 0; c < 256; ++c) {
      symbol_counts[c] = counts(c);
      STRIX_USER_REQUIRE(symbol_counts[c] <= n - total, "fm_index file: the symbol counts exceed the text");
      total += symbol_counts[c];
    }
    STRIX_USER_REQUIRE(total == n, "fm_index file: the symbol counts do not add up to the text");
    finish_huffman_wavelet<ExecSpace>(space, symbol_counts, h);
    C[0] = 1;
    for (int c = 0; c < 256; ++c) C[c + 1] = C[c] + symbol_counts[c];
    rank.C = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::fm::C", 257);
    strix::copy(space, rank.C, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(C, 257));
  } else {
    STRIX_USER_REQUIRE(false, "fm_index file: unknown rank layout");
  }

  // The samples: n + 1 rows of which n / rate + 1 are marked, one sample per mark, each
  // below n / rate + 1, packed in the width that needs; the extract samples, when kept, the
  // inverse permutation of the locate samples. Together these keep every query's reads
  // inside the arrays and every position it reports at most n.
  const std::uint64_t expected = n / rate + 1;
  const int width = packed_width(expected - 1);
  const bool with_isa = d.isa_samples.count > 0;
  STRIX_USER_REQUIRE(d.sampled.n == n + 1 && d.sampled.ones == expected && d.sa_samples.count == expected &&
                         d.sa_samples.width == width && d.sa_samples.words.extent(0) == packed_words(expected, width) &&
                         (!with_isa || (d.isa_samples.count == expected && d.isa_samples.width == width &&
                                        d.isa_samples.words.extent(0) == packed_words(expected, width))),
                     "fm_index file: the samples' sizes do not match the text's");
  STRIX_USER_REQUIRE(sparse_bits_valid(space, d.sampled), "fm_index file: the sampled rows are damaged");
  // Each sample value exactly once: the locate samples are a permutation of 0..n / rate.
  auto seen = allocate<std::uint32_t, typename ExecSpace::memory_space>("strix::fm::samples_seen", expected);
  strix::fill(space, seen, std::uint32_t(0));
  const auto sa_samples = d.sa_samples.ref();
  const auto isa_samples = d.isa_samples.ref();
  Kokkos::parallel_for("strix::fm_mark_samples_seen", range(space, 0, std::int64_t(expected)), KOKKOS_LAMBDA(const std::int64_t k) {
    const std::uint64_t j = sa_samples[std::uint64_t(k)];
    if (j < expected) Kokkos::atomic_add(&seen(j), std::uint32_t(1));
  });
  std::uint64_t bad = 0;
  Kokkos::parallel_reduce("strix::fm_check_samples", range(space, 0, std::int64_t(expected)),
                          KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& sum) {
                            bool ok = seen(j) == 1;
                            if (with_isa) {
                              const std::uint64_t k = isa_samples[std::uint64_t(j)];
                              ok = ok && k < expected && sa_samples[k] == std::uint64_t(j);
                            }
                            sum += ok ? 0 : 1;
                          },
                          bad);
  STRIX_USER_REQUIRE(bad == 0, "fm_index file: the suffix-array samples are damaged");
  build_kmer_table<ExecSpace, I>(space, d, options.kmer_length);
}

}  // namespace strix::detail
