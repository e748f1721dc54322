// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix::fm_index: an FM-index built on the device and held there — count, locate and
// extract of byte patterns in batches.
//
// Built from a text's suffix array and BWT (text_index::fm_index() builds them on the way),
// it holds the BWT's rank structure, the C array, the suffix-array positions of every
// sample_rate-th text position (locate) and, unless asked not to, the rows of those
// positions (extract), both packed. The text itself is not kept.
//
// The rank structure is chosen by the text (fm_options::layout = automatic):
// - the interleaved occurrence table (occurrence_table_ref.hpp: one 64-byte line per 192
//   symbols, one line read per backward-search step, 2.7 bits per symbol) when the four
//   most frequent symbols make all but at most 1/32 of the text, as DNA does with a few
//   IUPAC codes, or when the others sit in at most 1/32 of the BWT's lines, as a genome's
//   N runs do however long (the others are kept exactly as exceptions; choose_fm_layout);
// - otherwise a Huffman-shaped wavelet tree of the BWT (strix/succinct/huffman_wavelet.hpp:
//   a symbol of code length d costs d levels of rank per step, about 1.04 bits per symbol
//   and level: on English 4.9 bits per symbol and 1.6-2x the searches of a wavelet matrix,
//   whose 7-8 levels every symbol pays; bench/RESULTS.md §24). The wavelet matrix stays
//   available (fm_options::layout).
//
// Conventions, in every interface: a pattern occurs at every position where it starts
// (overlaps count); the empty pattern occurs at each of the n + 1 positions 0..n; a pattern
// longer than the text, or with a symbol the text lacks, or with the separator byte (a
// reference of many sequences joined by it) occurs nowhere. Locate lists each pattern's
// positions in ascending order, at most max_occ of them when a cap is given (the first
// max_occ rows of its suffix-array interval, then sorted: which occurrences is arbitrary
// but deterministic), and its count is always the full count.
//
// Batches of patterns are one concatenated byte array and m + 1 offsets (pattern q is
// bytes [offsets[q], offsets[q + 1])), in the execution space's memory (answers stay
// there) or in host memory (copied in chunks of options.host_chunk patterns).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <strix/core/eti.hpp>
#include <strix/core/device_length.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/error.hpp>
#include <strix/fm_index/fm_index_ref.hpp>
#include <strix/succinct/bit_vector.hpp>
#include <strix/succinct/huffman_shape.hpp>
#include <strix/succinct/huffman_wavelet.hpp>
#include <strix/succinct/packed_ints.hpp>
#include <strix/succinct/sparse_bits.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix {

struct fm_options {
  // A suffix-array sample every this many text positions: locate takes fewer than this many
  // LF steps per occurrence. The samples cost (w + 8) / sample_rate + 1/16 bits per symbol,
  // w = the bits of n / sample_rate (0.73 + 0.06 at rate 32 for 150 MB of DNA): the marks of
  // the sampled rows as a sparse bit vector, the positions divided by the rate, packed.
  std::uint64_t sample_rate = 32;
  // Keep the rows of the sampled positions too, for extract (w / sample_rate more).
  bool extract = true;
  fm_rank_layout layout = fm_rank_layout::automatic;
  // A byte that separates the sequences of a reference: no pattern matches across it (a
  // pattern that contains it occurs nowhere). fm_no_separator for a plain text.
  int separator = fm_no_separator;
  // Patterns per chunk of a batch from host memory.
  std::size_t host_chunk = std::size_t(1) << 20;
  // With the occurrence table: the rows of every k-mer of its four symbols in a table, so
  // that a search does its first k steps in one read (2 * 4^k positions; built with the index
  // and again when one is loaded, in 4/3 * 4^k backward-search steps; not saved). -1: the
  // largest k <= 12 whose table is at most 1/128 of the text's bytes (k = 8 for 150 MB of
  // DNA, 10 for 3 GB); 0: none; 1..12: that k. Ignored with the wavelet matrix.
  int kmer_length = -1;
};

// The k-mer table's k for a text of n symbols (fm_options::kmer_length).
inline int choose_kmer_length(std::uint64_t n, fm_rank_layout layout, std::size_t index_bytes, int requested) {
  if (layout != fm_rank_layout::occurrence_table) return 0;
  if (requested >= 0) return requested;
  int k = 0;
  while (k < 12 && 128 * 2 * (std::uint64_t(1) << (2 * (k + 1))) * index_bytes <= n) ++k;
  return k;
}

// The layout `automatic` picks (fm_options::layout). "Others": the symbols beyond the four
// most frequent, which the occurrence table keeps as exceptions (a 192-bit mark vector per
// line holding any, and a wavelet matrix of their own). It is chosen when the others are at
// most 1/32 of the text (DNA with a few IUPAC codes), or when at most 1/32 of the BWT's lines
// mix them with the four (a search for the four then meets them rarely, as with a genome's N
// runs however long: their lines hold little else) and the table is at most 1.25x the size of
// the Huffman-shaped tree; else that tree. The lines are counted (fm_line_counts) only when
// the first test fails.
struct fm_line_counts {
  std::uint64_t flagged = 0;  // lines holding an other symbol
  std::uint64_t mixed = 0;    // those holding one of the four too
};
// A text's length, its symbols beyond the four most frequent, and the distinct symbols of
// each kind, from its 256 symbol counts.
struct fm_symbol_summary {
  std::uint64_t n = 0, others = 0;
  int sigma = 0, others_sigma = 0;
};
inline fm_symbol_summary summarize_symbols(const std::uint64_t* symbol_counts) {
  fm_symbol_summary s;
  std::uint64_t top[4] = {0, 0, 0, 0};
  for (int c = 0; c < 256; ++c) {
    std::uint64_t x = symbol_counts[c];
    s.n += x;
    s.sigma += x > 0;
    for (int k = 0; k < 4; ++k)
      if (x > top[k]) std::swap(x, top[k]);
  }
  s.others = s.n - top[0] - top[1] - top[2] - top[3];
  s.others_sigma = s.sigma > 4 ? s.sigma - 4 : 0;
  return s;
}
inline bool fm_layout_needs_lines(const std::uint64_t* symbol_counts) {
  const auto s = summarize_symbols(symbol_counts);
  return s.others * 32 > s.n;
}
inline fm_rank_layout choose_fm_layout(const std::uint64_t* symbol_counts, const fm_line_counts& lines) {
  const auto s = summarize_symbols(symbol_counts);
  if (s.others * 32 <= s.n) return fm_rank_layout::occurrence_table;
  std::uint8_t length[256];
  detail::huffman_lengths(symbol_counts, length);
  double code_bits = 0;  // the Huffman tree's level bits
  for (int c = 0; c < 256; ++c) code_bits += double(symbol_counts[c]) * length[c];
  const auto levels = [](int sigma) {
    int l = 1;
    while ((1 << l) < sigma) ++l;
    return double(l);
  };
  const double L = double(s.n / occ_line_symbols + 1);
  const double bits_per_bit = 1.04;  // a bit vector with its rank/select directory
  const double table = L * 512 + double(lines.flagged) * occ_line_symbols * bits_per_bit +
                       double(s.others) * levels(s.others_sigma) * bits_per_bit;
  const double tree = code_bits * bits_per_bit;
  return double(lines.mixed) * 32 <= L && table <= 1.25 * tree ? fm_rank_layout::occurrence_table
                                                                : fm_rank_layout::huffman_tree;
}

// Locate's answers for m patterns: pattern q's positions are positions[starts[q],
// starts[q + 1]), ascending; counts[q] is its full count (more than it got when capped).
template <class MemorySpace, class I>
struct fm_locations {
  Kokkos::View<std::uint64_t*, MemorySpace> starts;
  Kokkos::View<I*, MemorySpace> positions;
  Kokkos::View<I*, MemorySpace> counts;
};

namespace detail {

// The BWT's rank structure and C, in the execution space's memory (no index type: built
// once per execution space).
template <class ExecSpace>
struct fm_rank_data {
  using memory_space = typename ExecSpace::memory_space;
  fm_rank_layout layout = fm_rank_layout::wavelet_matrix;
  // occurrence table
  Kokkos::View<std::uint64_t*, memory_space> occ_lines, occ_super;
  Kokkos::View<std::uint8_t*, memory_space> code_of;
  std::uint8_t symbol_of[4] = {};
  bit_vector_data<ExecSpace, std::uint64_t> exception_bits;
  wavelet_data<ExecSpace, std::uint8_t> exceptions;
  // wavelet matrix of the BWT
  wavelet_data<ExecSpace, std::uint8_t> bwt_matrix;
  // Huffman-shaped wavelet tree of the BWT
  huffman_wavelet_data<ExecSpace> bwt_huffman;
  Kokkos::View<std::uint64_t*, memory_space> C;  // 257

  template <class I>
  void fill(fm_index_ref<I>& r) const {
    r.layout = layout;
    if (layout == fm_rank_layout::occurrence_table) {
      r.occ.lines = occ_lines.data();
      r.occ.super = occ_super.data();
      r.occ.code_of = code_of.data();
      for (int k = 0; k < 4; ++k) r.occ.symbol_of[k] = symbol_of[k];
      r.occ.has_exceptions = exceptions.n > 0;
      if (r.occ.has_exceptions) {
        r.occ.exception_bits = exception_bits.ref();
        r.occ.exceptions = exceptions.template ref<std::uint64_t, wavelet_shape::matrix>();
      }
    } else if (layout == fm_rank_layout::huffman_tree) {
      r.hwt = bwt_huffman.ref();
    } else {
      r.wm = bwt_matrix.template ref<std::uint64_t, wavelet_shape::matrix>();
    }
    r.C = C.data();
  }
  std::size_t bytes() const {
    return occ_lines.span() * 8 + occ_super.span() * 8 + code_of.span() + exception_bits.bytes() +
           exceptions.bytes() + bwt_matrix.bytes() + bwt_huffman.bytes() + C.span() * 8;
  }
};

// Everything a built FM-index holds, in the execution space's memory.
template <class ExecSpace, class I>
struct fm_index_data {
  using memory_space = typename ExecSpace::memory_space;
  fm_rank_data<ExecSpace> rank;
  std::uint64_t n = 0, primary = 0, sample_rate = 1;
  int separator = fm_no_separator;
  // The sampled rows, and the samples (fm_index_ref: sampled, sa_samples, isa_samples).
  sparse_bits_data<ExecSpace> sampled;
  packed_ints_data<ExecSpace> sa_samples, isa_samples;
  // The k-mer table (fm_index_ref::kmer_rows; rebuilt on load, not saved).
  int kmer_length = 0;
  Kokkos::View<I*, memory_space> kmer_rows;

  fm_index_ref<I> ref() const {
    fm_index_ref<I> r;
    rank.fill(r);
    r.n = n;
    r.primary = primary;
    r.separator = separator;
    r.sampled = sampled.ref();
    r.sa_samples = sa_samples.ref();
    r.sample_rate = sample_rate;
    r.isa_samples = isa_samples.ref();
    r.kmer_rows = kmer_rows.data();
    r.kmer_length = kmer_length;
    return r;
  }
  // Bytes of the rank structure (with C and the k-mer table), of the locate samples and of
  // the extract samples.
  std::size_t rank_bytes() const { return rank.bytes() + kmer_rows.span() * sizeof(I); }
  std::size_t locate_bytes() const { return sampled.bytes() + sa_samples.bytes(); }
  std::size_t extract_bytes() const { return isa_samples.bytes(); }
  std::size_t bytes() const { return rank_bytes() + locate_bytes() + extract_bytes(); }
};

// Builds `d` from the suffix array and BWT (divbwt layout, n symbols) of a text of n symbols.
template <class ExecSpace, class I>
void build_fm_index(const ExecSpace& space, const device_view<const I, ExecSpace>& sa,
                    const device_view<const std::uint8_t, ExecSpace>& bwt, std::uint64_t primary,
                    const fm_options& options, fm_index_data<ExecSpace, I>& d, run_stats* stats);

// Checks what a file gave (the arrays' sizes, the tables against the symbols they count,
// the samples against the rows) and builds the directories and the k-mer table
// (options.kmer_length); throws invalid_input.
template <class ExecSpace, class I>
void finish_fm_index(const ExecSpace& space, fm_index_data<ExecSpace, I>& d, const fm_options& options);

// count: the suffix-array interval of each pattern (ranges may be empty: counts only).
template <class ExecSpace, class I>
void fm_count(const ExecSpace& space, const fm_index_ref<I>& fm, const device_view<const std::uint8_t, ExecSpace>& bytes,
              const device_view<const std::uint64_t, ExecSpace>& offsets, const device_view<I, ExecSpace>& counts,
              const device_view<std::uint64_t, ExecSpace>& ranges);

// locate: every occurrence (at most max_occ per pattern; 0: all), ascending per pattern.
template <class ExecSpace, class I>
fm_locations<typename ExecSpace::memory_space, I> fm_locate(
    const ExecSpace& space, const fm_index_ref<I>& fm, const device_view<const std::uint8_t, ExecSpace>& bytes,
    const device_view<const std::uint64_t, ExecSpace>& offsets, std::uint64_t max_occ);

// extract: text[starts[q], starts[q] + lengths[q]) into out[out_offsets[q], ...).
template <class ExecSpace, class I>
void fm_extract(const ExecSpace& space, const fm_index_ref<I>& fm, const device_view<const std::uint64_t, ExecSpace>& starts,
                const device_view<const std::uint64_t, ExecSpace>& lengths,
                const device_view<const std::uint64_t, ExecSpace>& out_offsets,
                const device_view<std::uint8_t, ExecSpace>& out);

// Pinned host buffers and device buffers for the host-array batches of one fm_index, made
// on the first such batch and kept (fm_query_def.hpp).
template <class ExecSpace, class I>
struct fm_host_staging;

}  // namespace detail

template <class ExecutionSpace, class I>
class fm_index {
  static_assert(detail::is_index_type_v<I>, "strix: the index type must be std::uint32_t or std::uint64_t");

 public:
  using execution_space = ExecutionSpace;
  using memory_space = typename ExecutionSpace::memory_space;
  using index_type = I;
  template <class T>
  using view = Kokkos::View<T*, memory_space>;

  fm_index() = default;

  // From a text's suffix array (n entries) and BWT in divbwt layout (n symbols, primary
  // index `primary`), in the execution space's memory, as text_index gives them.
  fm_index(const ExecutionSpace& space, const view<const I>& suffix_array, const view<const std::uint8_t>& bwt,
           std::uint64_t primary, const fm_options& options = {}, run_stats* stats = nullptr)
      : space_(space), options_(options) {
    const std::uint64_t n = bwt.extent(0);
    check_length_on<I, ExecutionSpace>(n, "text of " + std::to_string(n) + " bytes");
    STRIX_USER_REQUIRE(suffix_array.extent(0) == n, "fm_index: suffix array of " +
                                                        std::to_string(suffix_array.extent(0)) +
                                                        " entries for a BWT of " + std::to_string(n));
    STRIX_USER_REQUIRE(primary <= n, "fm_index: primary index " + std::to_string(primary) + " beyond " +
                                         std::to_string(n));
    check_options(options);
    detail::build_fm_index<ExecutionSpace, I>(space_, device_view<const I, ExecutionSpace>(suffix_array.data(), n),
                                              device_view<const std::uint8_t, ExecutionSpace>(bwt.data(), n),
                                              primary, options_, data_, stats);
  }

  // Adopts arrays read from a file (fm_index_file.hpp); checked.
  fm_index(const ExecutionSpace& space, detail::fm_index_data<ExecutionSpace, I>&& data, const fm_options& options)
      : space_(space), options_(options), data_(std::move(data)) {
    check_options(options);
    detail::finish_fm_index<ExecutionSpace, I>(space_, data_, options_);
    options_.sample_rate = data_.sample_rate;
    options_.extract = data_.isa_samples.count > 0;
    options_.layout = data_.rank.layout;
    options_.separator = data_.separator;
    options_.kmer_length = data_.kmer_length;
  }

  std::uint64_t size() const { return data_.n; }
  std::uint64_t sample_rate() const { return data_.sample_rate; }
  bool can_extract() const { return data_.isa_samples.count > 0 || data_.n == 0; }
  fm_rank_layout layout() const { return data_.rank.layout; }
  int separator() const { return data_.separator; }
  int kmer_length() const { return data_.kmer_length; }
  const fm_options& options() const { return options_; }
  std::size_t bytes() const { return data_.bytes(); }
  const detail::fm_index_data<ExecutionSpace, I>& data() const { return data_; }
  const ExecutionSpace& space() const { return space_; }
  // For device code: search, LF and positions on a trivially copyable view.
  fm_index_ref<I> ref() const { return data_.ref(); }

  // Queries are const and share no scratch: batches may run from several host threads.

  // --- batches in the execution space's memory ------------------------------------
  // counts[q] = occurrences of pattern q; `ranges`, when given (2 m entries), receives the
  // suffix-array interval [sp, ep) of rows (of the n + 1) that start with it.
  void count(const view<const std::uint8_t>& bytes, const view<const std::uint64_t>& offsets, const view<I>& counts,
             const view<std::uint64_t>& ranges = {}) const {
    const std::size_t m = check_batch(bytes, offsets);
    STRIX_USER_REQUIRE(counts.extent(0) == m, "fm_index: room for " + std::to_string(counts.extent(0)) +
                                                  " counts of " + std::to_string(m) + " patterns");
    STRIX_USER_REQUIRE(ranges.extent(0) == 0 || ranges.extent(0) == 2 * m,
                       "fm_index: ranges need 2 entries per pattern");
    detail::fm_count<ExecutionSpace, I>(space_, ref(), dv(bytes), dv(offsets), dv(counts), dv(ranges));
  }
  fm_locations<memory_space, I> locate(const view<const std::uint8_t>& bytes, const view<const std::uint64_t>& offsets,
                                       std::uint64_t max_occ = 0) const {
    check_batch(bytes, offsets);
    return detail::fm_locate<ExecutionSpace, I>(space_, ref(), dv(bytes), dv(offsets), max_occ);
  }
  // out[out_offsets[q], out_offsets[q] + lengths[q]) = text[starts[q], starts[q] + lengths[q]).
  void extract(const view<const std::uint64_t>& starts, const view<const std::uint64_t>& lengths,
               const view<const std::uint64_t>& out_offsets, const view<std::uint8_t>& out) const;
  // out[0, length) = text[start, start + length): one walk per sample-rate piece, so a long
  // range (the whole text) runs as n / sample_rate independent walks.
  void extract(std::uint64_t start, std::uint64_t length, const view<std::uint8_t>& out) const;

  // --- batches in host memory -------------------------------------------------------
  std::vector<I> count(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m) const;
  // The same into the caller's array of m counts (written once, nothing allocated per call:
  // an answer array that the caller reuses costs no page faults).
  void count(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m, I* counts) const;
  // Host answers: pattern q's positions are positions[starts[q], starts[q + 1]).
  struct host_locations {
    std::vector<std::uint64_t> starts;
    std::vector<I> positions;
    std::vector<I> counts;
  };
  host_locations locate(const std::uint8_t* bytes, const std::uint64_t* offsets, std::size_t m,
                        std::uint64_t max_occ = 0) const;
  // text[start, start + length).
  std::vector<std::uint8_t> extract(std::uint64_t start, std::uint64_t length) const;

  // --- one pattern ----------------------------------------------------------------
  std::uint64_t count(const std::string& pattern) const;
  std::vector<I> locate(const std::string& pattern, std::uint64_t max_occ = 0) const;

 private:
  template <class T>
  static device_view<T, ExecutionSpace> dv(const view<T>& v) {
    return device_view<T, ExecutionSpace>(v.data(), v.extent(0));
  }
  std::size_t check_batch(const view<const std::uint8_t>& bytes, const view<const std::uint64_t>& offsets) const;
  static void check_options(const fm_options& options) {
    STRIX_USER_REQUIRE(options.sample_rate >= 1, "fm_index: the sample rate must be at least 1");
    STRIX_USER_REQUIRE(options.separator >= fm_no_separator && options.separator <= 255,
                       "fm_index: the separator is a byte value or fm_no_separator");
    STRIX_USER_REQUIRE(options.host_chunk >= 1, "fm_index: host chunks of at least one pattern");
    STRIX_USER_REQUIRE(options.kmer_length >= -1 && options.kmer_length <= 12,
                       "fm_index: the k-mer length is -1 (automatic) or 0 to 12");
  }

  ExecutionSpace space_;
  fm_options options_;
  detail::fm_index_data<ExecutionSpace, I> data_;
  // Made by the first host-array count on a GPU; shared by copies of this object (a batch
  // that finds it busy, from another host thread, makes its own).
  mutable std::shared_ptr<detail::fm_host_staging<ExecutionSpace, I>> staging_;
};

}  // namespace strix

#define STRIX_FM_INDEX_DECLARE(PREFIX, SPACE, I)                                                                   \
  PREFIX template void strix::detail::build_fm_index<SPACE, I>(                                                    \
      const SPACE&, const strix::device_view<const I, SPACE>&, const strix::device_view<const std::uint8_t, SPACE>&, \
      std::uint64_t, const strix::fm_options&, strix::detail::fm_index_data<SPACE, I>&, strix::run_stats*);        \
  PREFIX template void strix::detail::finish_fm_index<SPACE, I>(const SPACE&, strix::detail::fm_index_data<SPACE, I>&, \
                                                                 const strix::fm_options&);                     \
  PREFIX template void strix::detail::fm_count<SPACE, I>(                                                          \
      const SPACE&, const strix::fm_index_ref<I>&, const strix::device_view<const std::uint8_t, SPACE>&,           \
      const strix::device_view<const std::uint64_t, SPACE>&, const strix::device_view<I, SPACE>&,                  \
      const strix::device_view<std::uint64_t, SPACE>&);                                                            \
  PREFIX template strix::fm_locations<typename SPACE::memory_space, I> strix::detail::fm_locate<SPACE, I>(         \
      const SPACE&, const strix::fm_index_ref<I>&, const strix::device_view<const std::uint8_t, SPACE>&,           \
      const strix::device_view<const std::uint64_t, SPACE>&, std::uint64_t);                                       \
  PREFIX template void strix::detail::fm_extract<SPACE, I>(                                                        \
      const SPACE&, const strix::fm_index_ref<I>&, const strix::device_view<const std::uint64_t, SPACE>&,          \
      const strix::device_view<const std::uint64_t, SPACE>&, const strix::device_view<const std::uint64_t, SPACE>&, \
      const strix::device_view<std::uint8_t, SPACE>&);                                                             \
  PREFIX template class strix::fm_index<SPACE, I>;
#define STRIX_FM_INDEX_EXTERN(SPACE, I) STRIX_FM_INDEX_DECLARE(extern, SPACE, I)
STRIX_FOR_EACH_ETI(STRIX_FM_INDEX_EXTERN)
#undef STRIX_FM_INDEX_EXTERN
