// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Construction of the FM-index (see fm_index.hpp) from a suffix array and a BWT, included
// by libstrix's instantiation files only. Phases: counts (C and the layout), rank (the
// occurrence table or the wavelet matrix), samples (locate and extract).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/primitives/histogram.hpp>
#include <strix/primitives/workspace.hpp>
#include <strix/succinct/detail/compact_build_def.hpp>
#include <strix/succinct/detail/huffman_wavelet_def.hpp>

namespace strix::detail {

// The four codes of the occurrence table: the most frequent symbols (ties to the smaller
// byte), in byte order; code_of = 4 for every other symbol.
inline void choose_codes(const std::uint64_t* counts, std::uint8_t* code_of, std::uint8_t* symbol_of) {
  std::vector<int> order(256);
  for (int c = 0; c < 256; ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return counts[a] > counts[b]; });
  std::vector<int> chosen;
  for (int k = 0; k < 4 && counts[order[k]] > 0; ++k) chosen.push_back(order[k]);
  std::sort(chosen.begin(), chosen.end());
  for (int c = 0; c < 256; ++c) code_of[c] = occ_exception_code;
  for (int k = 0; k < 4; ++k) symbol_of[k] = 0;
  for (std::size_t k = 0; k < chosen.size(); ++k) {
    code_of[chosen[k]] = static_cast<std::uint8_t>(k);
    symbol_of[k] = static_cast<std::uint8_t>(chosen[k]);
  }
}

// C on `space` from the BWT's 256 symbol counts: C[c] = 1 + the symbols below c (row 0 is the
// empty suffix).
template <class ExecSpace>
Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> upload_C(const ExecSpace& space,
                                                                        const std::uint64_t* counts,
                                                                        memory_tracker* tracker = nullptr) {
  std::uint64_t C[257];
  C[0] = 1;
  for (int c = 0; c < 256; ++c) C[c + 1] = C[c] + counts[c];
  auto d = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::fm::C", 257, tracker);
  strix::copy(space, d, Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(C, 257));
  return d;
}

// Adds a wavelet matrix's symbol counts (its alphabet and cumulative counts) to counts[256].
template <class ExecSpace>
void add_wavelet_counts(const ExecSpace& space, const wavelet_data<ExecSpace, std::uint8_t>& w, std::uint64_t* counts) {
  const auto alphabet = strix::to_host(space, w.alphabet);
  const auto cumulative = strix::to_host(space, w.counts);
  for (std::size_t m = 0; m < alphabet.extent(0); ++m) counts[alphabet(m)] += cumulative(m + 1) - cumulative(m);
}

// Per-line tallies for the occurrence table: for each line, codes 0..3 (exceptions not
// counted), whether it holds exceptions, and how many: slots k * lines + line.
constexpr int occ_tallies = 6;

template <class ExecSpace>
void build_occurrence_table(const ExecSpace& space, const device_view<const std::uint8_t, ExecSpace>& bwt,
                            const std::uint64_t* counts, fm_rank_data<ExecSpace>& d, memory_tracker& tracker) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = bwt.extent(0);
  const std::uint64_t L = n / occ_line_symbols + 1;
  const std::uint64_t supers = (L >> occ_superblock_log2) + 1;

  std::uint8_t code_host[256];
  choose_codes(counts, code_host, d.symbol_of);
  d.code_of = allocate<std::uint8_t, memory_space>("strix::fm::code_of", 256, &tracker);
  strix::copy(space, d.code_of, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(code_host, 256));
  d.occ_lines = allocate<std::uint64_t, memory_space>("strix::fm::occ_lines", L * occ_line_words, &tracker);
  d.occ_super = allocate<std::uint64_t, memory_space>("strix::fm::occ_super", supers * occ_super_words, &tracker);
  auto tally = allocate<std::uint64_t, memory_space>("strix::fm::line_tallies", occ_tallies * L, &tracker);
  auto before = allocate<std::uint64_t, memory_space>("strix::fm::line_prefix", occ_tallies * L, &tracker);

  const auto code_of = d.code_of;
  const auto lines = d.occ_lines;
  // The codes, packed, and each line's tallies.
  Kokkos::parallel_for("strix::fm_occ_pack", range(space, 0, L), KOKKOS_LAMBDA(const std::int64_t line) {
    std::uint64_t words[6] = {0, 0, 0, 0, 0, 0};
    std::uint64_t count[4] = {0, 0, 0, 0}, exceptions = 0;
    const std::uint64_t first = std::uint64_t(line) * occ_line_symbols;
    for (std::uint64_t o = 0; o < occ_line_symbols && first + o < n; ++o) {
      unsigned code = code_of(bwt(first + o));
      if (code == occ_exception_code) {
        ++exceptions;
        code = 0;
      } else {
        ++count[code];
      }
      words[o / 32] |= std::uint64_t(code) << (2 * (o % 32));
    }
    for (int j = 0; j < 6; ++j) lines(line * occ_line_words + 2 + j) = words[j];
    for (int k = 0; k < 4; ++k) tally(k * L + line) = count[k];
    tally(4 * L + line) = exceptions ? 1 : 0;
    tally(5 * L + line) = exceptions;
  });
  // One exclusive scan over the six tallies end to end; slot k's prefix at a line is
  // before(k L + line) - before(k L).
  Kokkos::parallel_scan("strix::fm_occ_prefix", range(space, 0, occ_tallies * L),
                        KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& sum, const bool final) {
                          if (final) before(i) = sum;
                          sum += tally(i);
                        });
  const auto super = d.occ_super;
  Kokkos::parallel_for("strix::fm_occ_headers", range(space, 0, L), KOKKOS_LAMBDA(const std::int64_t line) {
    const std::uint64_t s = std::uint64_t(line) >> occ_superblock_log2, start = s << occ_superblock_log2;
    auto prefix = [&](int k, std::uint64_t at) { return before(k * L + at) - before(k * L); };
    std::uint64_t field[4];
    for (int k = 0; k < 4; ++k) field[k] = prefix(k, line) - prefix(k, start);
    const std::uint64_t x = (prefix(4, line) - prefix(4, start)) * 2 + tally(4 * L + line);
    field[0] |= (x & 0xff) << 24;
    field[1] |= ((x >> 8) & 0xff) << 24;
    field[2] |= ((x >> 16) & 0xff) << 24;
    lines(line * occ_line_words) = field[0] | (field[1] << 32);
    lines(line * occ_line_words + 1) = field[2] | (field[3] << 32);
    if (std::uint64_t(line) == start) {
      for (int k = 0; k < 5; ++k) super(s * occ_super_words + k) = prefix(k, line);
      for (std::uint64_t k = 5; k < occ_super_words; ++k) super(s * occ_super_words + k) = 0;
    }
  });

  // The exceptions: 192 bits per flagged line, and their symbols in BWT order.
  std::uint64_t totals[2] = {0, 0};  // flagged lines, exceptions
  for (int k = 0; k < 2; ++k) {
    std::uint64_t last_before = 0, last_tally = 0, first_before = 0;
    strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&last_before), Kokkos::subview(before, (4 + k) * L + L - 1));
    strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&last_tally), Kokkos::subview(tally, (4 + k) * L + L - 1));
    strix::copy(space, Kokkos::View<std::uint64_t, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&first_before), Kokkos::subview(before, (4 + k) * L));
    space.fence();
    totals[k] = last_before + last_tally - first_before;
  }
  d.exception_bits = {};
  d.exceptions = {};
  if (totals[1] > 0) {
    auto& bits = d.exception_bits;
    bits.n = totals[0] * occ_line_symbols;
    bits.words = allocate<std::uint64_t, memory_space>("strix::fm::exception_bits", padded_words(bits.n), &tracker);
    auto symbols = allocate<std::uint8_t, memory_space>("strix::fm::exception_symbols", totals[1], &tracker);
    const auto words = bits.words;
    Kokkos::parallel_for("strix::fm_occ_exceptions", range(space, 0, L), KOKKOS_LAMBDA(const std::int64_t line) {
      if (!tally(4 * L + line)) return;
      const std::uint64_t ordinal = before(4 * L + line) - before(4 * L);
      std::uint64_t at = before(5 * L + line) - before(5 * L);
      const std::uint64_t first = std::uint64_t(line) * occ_line_symbols;
      std::uint64_t w[3] = {0, 0, 0};
      for (std::uint64_t o = 0; o < occ_line_symbols && first + o < n; ++o) {
        const std::uint8_t c = bwt(first + o);
        if (code_of(c) != occ_exception_code) continue;
        w[o / 64] |= std::uint64_t(1) << (o % 64);
        symbols(at++) = c;
      }
      for (int j = 0; j < 3; ++j) words(ordinal * 3 + j) = w[j];
    });
    build_rank_select<ExecSpace, std::uint64_t>(space, bits, bit_vector_options{});
    run_stats wavelet_stats;
    build_wavelet<ExecSpace, std::uint8_t>(space, device_view<const std::uint8_t, ExecSpace>(symbols.data(), symbols.extent(0)),
                                           d.exceptions, wavelet_shape::matrix, wavelet_options{}, &wavelet_stats);
    tracker.acquire(wavelet_stats.peak_bytes);
    tracker.release(wavelet_stats.peak_bytes);
    release(symbols, &tracker);
  }
  release(tally, &tracker);
  release(before, &tracker);
}

// The samples: the rows whose suffix starts at a multiple of the rate, as a sparse bit
// vector, and for the k-th of them (in row order) its position / rate (locate) and, for
// position j * rate, that k (extract). Every block of 256 rows is one thread's: it counts
// its marks, and after a scan of the counts writes them and their samples in order.
template <class ExecSpace, class I>
void build_fm_samples(const ExecSpace& space, const device_view<const I, ExecSpace>& sa, const fm_options& options,
                      fm_index_data<ExecSpace, I>& d, memory_tracker& tracker) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = sa.extent(0), rows = n + 1, rate = options.sample_rate;
  const std::uint64_t samples = n / rate + 1;  // positions 0, rate, ..., <= n
  const std::uint64_t blocks = sparse_blocks(rows);
  // Row r's suffix: n for row 0 (the empty suffix), sa(r - 1) after it.
  auto before = allocate<std::uint64_t, memory_space>("strix::fm::marks_before", blocks + 1, &tracker);
  Kokkos::parallel_for("strix::fm_count_marks", range(space, 0, std::int64_t(blocks + 1)), KOKKOS_LAMBDA(const std::int64_t b) {
    std::uint64_t marks = 0;
    const std::uint64_t first = std::uint64_t(b) << sparse_block_log2;
    for (std::uint64_t r = first; r < first + 256 && r < rows; ++r)
      if ((r == 0 ? n : std::uint64_t(sa(r - 1))) % rate == 0) ++marks;
    before(b) = marks;
  });
  Kokkos::parallel_scan("strix::fm_marks_before", range(space, 0, std::int64_t(blocks + 1)),
                        KOKKOS_LAMBDA(const std::int64_t b, std::uint64_t& sum, const bool final) {
                          const std::uint64_t marks = before(b);
                          if (final) before(b) = sum;
                          sum += marks;
                        });
  auto& marks = d.sampled;
  marks.n = rows;
  marks.ones = samples;
  marks.super = allocate<std::uint64_t, memory_space>("strix::fm::marks_super", sparse_supers(rows), &tracker);
  marks.block = allocate<std::uint16_t, memory_space>("strix::fm::marks_block", blocks + 1, &tracker);
  marks.low = allocate<std::uint8_t, memory_space>("strix::fm::marks_low", samples, &tracker);
  auto sa_values = allocate<I, memory_space>("strix::fm::sa_values", samples, &tracker);
  auto isa_values = allocate<I, memory_space>("strix::fm::isa_values", options.extract ? samples : 0, &tracker);
  const auto super = marks.super;
  const auto block = marks.block;
  const auto low = marks.low;
  const bool extract = options.extract;
  Kokkos::parallel_for("strix::fm_fill_samples", range(space, 0, std::int64_t(blocks + 1)), KOKKOS_LAMBDA(const std::int64_t b) {
    const std::uint64_t first = std::uint64_t(b) << sparse_block_log2;
    const std::uint64_t super_first = (std::uint64_t(b) >> sparse_super_blocks_log2) << sparse_super_blocks_log2;
    std::uint64_t k = before(b);
    block(b) = static_cast<std::uint16_t>(k - before(super_first));
    if (std::uint64_t(b) == super_first) super(std::uint64_t(b) >> sparse_super_blocks_log2) = k;
    for (std::uint64_t r = first; r < first + 256 && r < rows; ++r) {
      const std::uint64_t pos = r == 0 ? n : std::uint64_t(sa(r - 1));
      if (pos % rate) continue;
      low(k) = static_cast<std::uint8_t>(r & 255);
      sa_values(k) = static_cast<I>(pos / rate);
      if (extract) isa_values(pos / rate) = static_cast<I>(k);
      ++k;
    }
  });
  const int width = packed_width(samples - 1);
  d.sa_samples = pack_ints<ExecSpace, I>(space, device_view<const I, ExecSpace>(sa_values.data(), samples), width, &tracker);
  d.isa_samples = pack_ints<ExecSpace, I>(space, device_view<const I, ExecSpace>(isa_values.data(), isa_values.extent(0)),
                                          width, &tracker);
  space.fence();
  release(sa_values, &tracker);
  release(isa_values, &tracker);
  release(before, &tracker);
}

// The lines of the occurrence table that would hold exceptions, and those of them that hold
// one of its four symbols too (choose_fm_layout).
template <class ExecSpace>
fm_line_counts count_exception_lines(const ExecSpace& space, const device_view<const std::uint8_t, ExecSpace>& bwt,
                                     const std::uint64_t* counts, memory_tracker& tracker) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  std::uint8_t code_host[256], symbol_of[4];
  choose_codes(counts, code_host, symbol_of);
  auto code_of = allocate<std::uint8_t, typename ExecSpace::memory_space>("strix::fm::code_of", 256, &tracker);
  strix::copy(space, code_of, Kokkos::View<const std::uint8_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(code_host, 256));
  const std::uint64_t n = bwt.extent(0), L = n / occ_line_symbols + 1;
  fm_line_counts lines;
  for (const bool mixed : {false, true}) {
    std::uint64_t count = 0;
    Kokkos::parallel_reduce("strix::fm_count_exception_lines", range(space, 0, std::int64_t(L)),
                            KOKKOS_LAMBDA(const std::int64_t line, std::uint64_t& sum) {
                              const std::uint64_t first = std::uint64_t(line) * occ_line_symbols;
                              bool other = false, four = false;
                              for (std::uint64_t o = 0; o < occ_line_symbols && first + o < n; ++o) {
                                if (code_of(bwt(first + o)) == occ_exception_code) other = true;
                                else four = true;
                              }
                              sum += other && (four || !mixed) ? 1 : 0;
                            },
                            count);
    (mixed ? lines.mixed : lines.flagged) = count;
  }
  release(code_of, &tracker);
  return lines;
}

// The rank structure and C of a BWT (n symbols), in `layout` (automatic: chosen here).
template <class ExecSpace>
void build_fm_rank(const ExecSpace& space, const device_view<const std::uint8_t, ExecSpace>& bwt, fm_rank_layout layout,
                   fm_rank_data<ExecSpace>& rank, memory_tracker& tracker, phase_timer<ExecSpace>& timer,
                   run_stats* stats) {
  using memory_space = typename ExecSpace::memory_space;
  timer.begin("counts");
  primitives::workspace<ExecSpace> ws(&tracker);
  auto histogram = allocate<std::uint64_t, memory_space>("strix::fm::histogram", 256, &tracker);
  primitives::byte_histogram(space, ws, bwt, device_view<std::uint64_t, ExecSpace>(histogram.data(), 256));
  std::uint64_t counts[256];
  strix::copy(space, Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(counts, 256), histogram);
  space.fence();
  ws.release();
  release(histogram, &tracker);
  rank.C = upload_C(space, counts, &tracker);
  if (layout == fm_rank_layout::automatic)
    layout = choose_fm_layout(counts, fm_layout_needs_lines(counts) ? count_exception_lines<ExecSpace>(space, bwt, counts, tracker)
                                                                    : fm_line_counts{});
  rank.layout = layout;
  if (stats)
    stats->set_note("rank_layout", fm_layout_name(rank.layout));

  timer.begin("rank");
  if (rank.layout == fm_rank_layout::occurrence_table) {
    build_occurrence_table<ExecSpace>(space, bwt, counts, rank, tracker);
  } else if (rank.layout == fm_rank_layout::huffman_tree) {
    build_huffman_wavelet<ExecSpace>(space, bwt, counts, rank.bwt_huffman, &tracker);
  } else {
    run_stats wavelet_stats;
    build_wavelet<ExecSpace, std::uint8_t>(space, bwt, rank.bwt_matrix, wavelet_shape::matrix, wavelet_options{},
                                           &wavelet_stats);
    tracker.acquire(wavelet_stats.peak_bytes);
    tracker.release(wavelet_stats.peak_bytes);
    tracker.acquire(rank.bwt_matrix.bytes());
  }
}

// The k-mer table (fm_index_ref::kmer_rows), level by level: the rows of a j-mer are one
// backward-search step from those of its last j - 1 symbols, so the table costs 4/3 * 4^k
// steps. Levels alternate between the table and a buffer a quarter its size, the last level
// landing in the table.
template <class ExecSpace, class I>
void build_kmer_table(const ExecSpace& space, fm_index_data<ExecSpace, I>& d, int requested,
                      memory_tracker* tracker = nullptr) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  release(d.kmer_rows, tracker);
  d.kmer_length = 0;
  const int k = choose_kmer_length(d.n, d.rank.layout, sizeof(I), requested);
  if (k == 0) return;
  const auto fm = d.ref();  // no table yet: extend() only
  std::uint32_t symbols = 0;  // the four codes' symbols, a byte each (device lambdas take no local arrays)
  for (int c = 0; c < 4; ++c) symbols |= std::uint32_t(d.rank.symbol_of[c]) << (8 * c);
  auto table = allocate<I, memory_space>("strix::fm::kmer_rows", std::size_t(2) << (2 * k), tracker);
  auto buffer = allocate<I, memory_space>("strix::fm::kmer_level", std::size_t(2) << (2 * (k - 1)), tracker);
  for (int j = 1; j <= k; ++j) {
    const auto out = (k - j) % 2 == 0 ? table : buffer;
    const auto in = (k - j) % 2 == 0 ? buffer : table;
    const std::uint64_t below = std::uint64_t(1) << (2 * (j - 1));  // (j - 1)-mers
    Kokkos::parallel_for("strix::fm_kmer_level", range(space, 0, std::int64_t(4 * below)),
                         KOKKOS_LAMBDA(const std::int64_t x) {
                           const unsigned code = unsigned(std::uint64_t(x) / below);
                           const auto c = std::uint8_t(symbols >> (8 * code));
                           std::uint64_t sp = 0, ep = 0;
                           if (j == 1) {
                             if (int(c) != fm.separator) {
                               sp = fm.C[c];
                               ep = fm.C[c + 1];
                             }
                           } else {
                             const std::uint64_t y = std::uint64_t(x) % below;
                             sp = in(2 * y);
                             ep = in(2 * y + 1);
                             if (sp < ep) fm.extend(c, sp, ep);
                           }
                           if (sp >= ep) sp = ep = 0;
                           out(2 * x) = static_cast<I>(sp);
                           out(2 * x + 1) = static_cast<I>(ep);
                         });
  }
  space.fence();
  release(buffer, tracker);
  d.kmer_rows = table;
  d.kmer_length = k;
}

template <class ExecSpace, class I>
void build_fm_index(const ExecSpace& space, const device_view<const I, ExecSpace>& sa,
                    const device_view<const std::uint8_t, ExecSpace>& bwt, std::uint64_t primary,
                    const fm_options& options, fm_index_data<ExecSpace, I>& d, run_stats* stats) {
  memory_tracker tracker;
  phase_timer<ExecSpace> timer(space, stats);
  d = fm_index_data<ExecSpace, I>();
  d.n = bwt.extent(0);
  d.primary = primary;
  d.sample_rate = options.sample_rate;
  d.separator = options.separator;
  build_fm_rank<ExecSpace>(space, bwt, options.layout, d.rank, tracker, timer, stats);
  timer.begin("samples");
  build_fm_samples<ExecSpace, I>(space, sa, options, d, tracker);
  timer.begin("kmer_table");
  build_kmer_table<ExecSpace, I>(space, d, options.kmer_length, &tracker);
  timer.end();
  space.fence();
  if (stats) {
    stats->peak_bytes = std::max(tracker.peak(), d.bytes());
    stats->set_counter("index_bytes", d.bytes());
  }
}

}  // namespace strix::detail
