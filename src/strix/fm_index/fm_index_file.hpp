// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Saving and loading FM-indexes, in strix's index container (strix/io/container.hpp), kind
// "fm_index", version 2 (version 1 held the samples unpacked: such files are refused with
// their version named; indexing the text again makes a new one). Sections (arrays
// little-endian, as the index holds them):
//   meta                 u64[16]: n, primary, sample_rate, separator + 1, layout, index bytes
//                        (4 or 8), extract samples (0/1), the four codes' symbols, exception
//                        bits, exceptions, their alphabet size, their level bits, the BWT
//                        matrix's (or Huffman tree's) alphabet size and level bits, sequences,
//                        the caller's flags (the tool: 1 when a reference's letters were
//                        case-folded)
//   occ.lines occ.code_of exceptions.marks exceptions.alphabet exceptions.counts
//   exceptions.levels    the occurrence table, when the layout is that
//   bwt.alphabet bwt.counts bwt.levels   the wavelet matrix, when the layout is that
//   huffman.counts huffman.lengths huffman.levels   the Huffman-shaped wavelet tree, when the
//                        layout is that: the 256 symbol counts (u64), code lengths (u8) and
//                        level bits (huffman_shape.hpp: the lengths determine the codes)
//   sa.super sa.block sa.low             the sampled rows (a sparse bit vector of n + 1 bits)
//   sa.samples isa.samples               the samples, packed in the bits n / sample_rate
//                                        needs (isa.samples one word without extract)
//   ref.names ref.name_ends ref.starts ref.lengths   a reference's sequences, when it has them
// What a load reads is checked before any query can use it (fm_load_def.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/fm_index/fm_index.hpp>
#include <strix/fm_index/reference.hpp>
#include <strix/io/container.hpp>
#include <strix/succinct/serialize.hpp>

namespace strix {

constexpr std::uint32_t fm_index_file_version = 2;
constexpr const char* fm_index_file_kind = "fm_index";
// The sections of the FM-index of the reversed text (approximate search's bidirectional pair),
// when the file has them: the index's own section names behind this prefix.
constexpr const char* fm_reverse_part = "reverse.";

namespace detail {

enum fm_meta : int {
  meta_n, meta_primary, meta_rate, meta_separator, meta_layout, meta_index_bytes, meta_extract, meta_codes,
  meta_exception_bits, meta_exceptions, meta_exception_sigma, meta_exception_levels, meta_bwt_sigma,
  meta_bwt_levels, meta_sequences, meta_flags, meta_count = 16
};

// Section `name` of `file` into a new array on `space`: one copy, straight from the mapped file.
template <class T, class Space>
Kokkos::View<T*, typename Space::memory_space> device_copy(const Space& space, const io::container_reader& file,
                                                           const std::string& name, const char* label) {
  const auto section = file.section(name, sizeof(T));
  const std::size_t count = section.bytes / sizeof(T);
  auto d = allocate<T, typename Space::memory_space>(label, count);
  strix::copy(space, d,
                    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(
                        reinterpret_cast<const T*>(section.data), count));
  return d;
}

}  // namespace detail

// The index width (4 or 8 bytes) of a saved FM-index: which fm_index<Space, I> loads it.
inline int fm_index_file_width(const io::container_reader& file) {
  const auto meta = file.vector<std::uint64_t>("meta");
  STRIX_USER_REQUIRE(meta.size() == detail::meta_count && (meta[detail::meta_index_bytes] == 4 || meta[detail::meta_index_bytes] == 8),
                     "index file is corrupt (its meta section)");
  return int(meta[detail::meta_index_bytes]);
}

namespace detail {

// Host copies of sections, kept until the container is written.
class kept_sections {
 public:
  template <class T>
  void add(io::container_writer& file, const std::string& name, std::vector<T>&& v) {
    auto kept = std::make_shared<std::vector<T>>(std::move(v));
    file.add(name, kept->data(), kept->size() * sizeof(T));
    kept_.push_back(kept);
  }

 private:
  std::vector<std::shared_ptr<void>> kept_;
};

// One FM-index's sections, their names prefixed by `part` ("" for the index itself).
template <class Space, class I>
void add_fm_sections(io::container_writer& file, kept_sections& keep, const fm_index<Space, I>& fm,
                     std::uint64_t sequences, std::uint64_t flags, const std::string& part) {
  const auto& d = fm.data();
  const auto& r = d.rank;
  std::vector<std::uint64_t> meta(meta_count, 0);
  meta[meta_n] = d.n;
  meta[meta_primary] = d.primary;
  meta[meta_rate] = d.sample_rate;
  meta[meta_separator] = std::uint64_t(d.separator + 1);
  meta[meta_layout] = std::uint64_t(r.layout);
  meta[meta_index_bytes] = sizeof(I);
  meta[meta_extract] = d.isa_samples.count > 0;
  for (int k = 0; k < 4; ++k) meta[meta_codes] |= std::uint64_t(r.symbol_of[k]) << (8 * k);
  meta[meta_exception_bits] = r.exception_bits.n;
  meta[meta_exceptions] = r.exceptions.n;
  meta[meta_exception_sigma] = r.exceptions.sigma;
  meta[meta_exception_levels] = r.exceptions.bits.n;
  const bool huffman = r.layout == fm_rank_layout::huffman_tree;
  meta[meta_bwt_sigma] = huffman ? std::uint64_t(r.bwt_huffman.sigma) : r.bwt_matrix.sigma;
  meta[meta_bwt_levels] = huffman ? r.bwt_huffman.bits.n : r.bwt_matrix.bits.n;
  meta[meta_sequences] = sequences;
  meta[meta_flags] = flags;
  keep.add(file, part + "meta", std::move(meta));
  auto lines = to_host_vector<std::uint64_t>(r.occ_lines);
  auto code_of = to_host_vector<std::uint8_t>(r.code_of);
  auto marks = to_host_vector<std::uint64_t>(r.exception_bits.words);
  auto exc_alphabet = to_host_vector<std::uint8_t>(r.exceptions.alphabet);
  auto exc_counts = to_host_vector<std::uint64_t>(r.exceptions.counts);
  auto exc_levels = to_host_vector<std::uint64_t>(r.exceptions.bits.words);
  auto bwt_alphabet = to_host_vector<std::uint8_t>(r.bwt_matrix.alphabet);
  auto bwt_counts = to_host_vector<std::uint64_t>(r.bwt_matrix.counts);
  auto bwt_levels = to_host_vector<std::uint64_t>(r.bwt_matrix.bits.words);
  auto huffman_words = to_host_vector<std::uint64_t>(r.bwt_huffman.bits.words);
  std::vector<std::uint64_t> huffman_counts(256, 0);
  if (huffman) {
    auto C = to_host_vector<std::uint64_t>(r.C);
    for (int c = 0; c < 256; ++c) huffman_counts[c] = C[c + 1] - C[c];
  }
  auto sa_super = to_host_vector<std::uint64_t>(d.sampled.super);
  auto sa_block = to_host_vector<std::uint16_t>(d.sampled.block);
  auto sa_low = to_host_vector<std::uint8_t>(d.sampled.low);
  auto sa_samples = to_host_vector<std::uint64_t>(d.sa_samples.words);
  auto isa_samples = to_host_vector<std::uint64_t>(d.isa_samples.words);
  if (r.layout == fm_rank_layout::occurrence_table) {
    keep.add(file, part + "occ.lines", std::move(lines));
    keep.add(file, part + "occ.code_of", std::move(code_of));
    keep.add(file, part + "exceptions.marks", std::move(marks));
    keep.add(file, part + "exceptions.alphabet", std::move(exc_alphabet));
    keep.add(file, part + "exceptions.counts", std::move(exc_counts));
    keep.add(file, part + "exceptions.levels", std::move(exc_levels));
  } else if (huffman) {
    keep.add(file, part + "huffman.counts", std::move(huffman_counts));
    file.add(part + "huffman.lengths", r.bwt_huffman.code_length, 256);
    keep.add(file, part + "huffman.levels", std::move(huffman_words));
  } else {
    keep.add(file, part + "bwt.alphabet", std::move(bwt_alphabet));
    keep.add(file, part + "bwt.counts", std::move(bwt_counts));
    keep.add(file, part + "bwt.levels", std::move(bwt_levels));
  }
  keep.add(file, part + "sa.super", std::move(sa_super));
  keep.add(file, part + "sa.block", std::move(sa_block));
  keep.add(file, part + "sa.low", std::move(sa_low));
  keep.add(file, part + "sa.samples", std::move(sa_samples));
  keep.add(file, part + "isa.samples", std::move(isa_samples));
}

}  // namespace detail

// Writes `fm` (and a reference's sequences, when given; and `reverse`, the FM-index of the
// same text reversed, as the part fm_reverse_part, when given) through `out`, or to `path`
// (the caller makes it a temporary and renames it); `flags` are kept for the caller (meta).
template <class Space, class I>
void save_fm_index(const fm_index<Space, I>& fm, const reference_sequences* sequences,
                   const io::container_writer::sink& out, std::uint64_t flags = 0,
                   const fm_index<Space, I>* reverse = nullptr) {
  using namespace detail;
  io::container_writer file(fm_index_file_kind, fm_index_file_version);
  kept_sections keep;
  add_fm_sections(file, keep, fm, sequences ? sequences->size() : 0, flags, "");
  if (reverse) add_fm_sections(file, keep, *reverse, 0, 0, fm_reverse_part);
  std::string names;
  std::vector<std::uint64_t> name_ends;
  if (sequences) {
    for (const auto& name : sequences->names) {
      names += name;
      name_ends.push_back(names.size());
    }
    file.add("ref.names", names.data(), names.size());
    file.add("ref.name_ends", name_ends);
    file.add("ref.starts", sequences->starts);
    file.add("ref.lengths", sequences->lengths);
  }
  file.write(out);
}

template <class Space, class I>
void save_fm_index(const fm_index<Space, I>& fm, const reference_sequences* sequences, const std::string& path,
                   std::uint64_t flags = 0) {
  io::write_file(path, [&](const io::container_writer::sink& out) { save_fm_index(fm, sequences, out, flags); });
}

namespace detail {

// The FM-index whose sections carry the prefix `part` ("" for the index itself).
template <class Space, class I>
fm_index<Space, I> load_fm_part(const Space& space, const io::container_reader& file, const std::string& part,
                                const fm_options& options) {
  STRIX_USER_REQUIRE(file.kind_version() == fm_index_file_version,
                     "index file has fm_index version " + std::to_string(file.kind_version()) +
                         ", from an older strix: index the text again");
  STRIX_USER_REQUIRE(fm_index_file_width(file) == int(sizeof(I)),
                     "index file holds " + std::to_string(8 * fm_index_file_width(file)) + "-bit positions, not " +
                         std::to_string(8 * sizeof(I)));
  const auto meta = file.vector<std::uint64_t>(part + "meta");
  STRIX_USER_REQUIRE(meta.size() == meta_count && meta[meta_index_bytes] == sizeof(I),
                     "index file is corrupt (its " + part + "meta section)");
  const std::uint64_t n = meta[meta_n];
  check_length<I>(n, "index file of a text of " + std::to_string(n) + " bytes");
  STRIX_USER_REQUIRE(meta[meta_separator] <= 256 && meta[meta_rate] >= 1 &&
                         (meta[meta_layout] == std::uint64_t(fm_rank_layout::occurrence_table) ||
                          meta[meta_layout] == std::uint64_t(fm_rank_layout::wavelet_matrix) ||
                          meta[meta_layout] == std::uint64_t(fm_rank_layout::huffman_tree)),
                     "index file is corrupt (its meta section)");
  fm_index_data<Space, I> d;
  d.n = n;
  d.primary = meta[meta_primary];
  d.sample_rate = meta[meta_rate];
  d.separator = int(meta[meta_separator]) - 1;
  auto& r = d.rank;
  r.layout = fm_rank_layout(meta[meta_layout]);
  const std::string what = "index file";
  if (r.layout == fm_rank_layout::occurrence_table) {
    r.occ_lines = device_copy<std::uint64_t>(space, file, part + "occ.lines", "strix::fm::occ_lines");
    r.code_of = device_copy<std::uint8_t>(space, file, part + "occ.code_of", "strix::fm::code_of");
    for (int k = 0; k < 4; ++k) r.symbol_of[k] = std::uint8_t(meta[meta_codes] >> (8 * k));
    r.exception_bits.n = meta[meta_exception_bits];
    r.exception_bits.words = device_copy<std::uint64_t>(space, file, part + "exceptions.marks", "strix::fm::exception_bits");
    if (meta[meta_exceptions] > 0) {
      const auto alphabet = file.vector<std::uint8_t>(part + "exceptions.alphabet");
      STRIX_USER_REQUIRE(alphabet.size() == meta[meta_exception_sigma], what + " is corrupt (exception alphabet)");
      r.exceptions = wavelet_data_from_arrays<Space, std::uint8_t>(
          space, wavelet_shape::matrix, meta[meta_exceptions], alphabet, file.vector<std::uint64_t>(part + "exceptions.counts"),
          file.vector<std::uint64_t>(part + "exceptions.levels"), meta[meta_exception_levels], what);
    }
  } else if (r.layout == fm_rank_layout::huffman_tree) {
    // The symbol counts wait in r.C until the index is finished (fm_load_def.hpp), which
    // checks them and makes C of them.
    r.C = device_copy<std::uint64_t>(space, file, part + "huffman.counts", "strix::fm::symbol_counts");
    const auto lengths = file.section(part + "huffman.lengths");
    STRIX_USER_REQUIRE(lengths.bytes == 256, what + " is corrupt (Huffman code lengths)");
    std::memcpy(r.bwt_huffman.code_length, lengths.data, 256);
    r.bwt_huffman.n = n;
    r.bwt_huffman.bits.n = meta[meta_bwt_levels];
    r.bwt_huffman.bits.words = device_copy<std::uint64_t>(space, file, part + "huffman.levels", "strix::fm::huffman_levels");
  } else {
    const auto alphabet = file.vector<std::uint8_t>(part + "bwt.alphabet");
    STRIX_USER_REQUIRE(alphabet.size() == meta[meta_bwt_sigma], what + " is corrupt (BWT alphabet)");
    r.bwt_matrix = wavelet_data_from_arrays<Space, std::uint8_t>(space, wavelet_shape::matrix, n, alphabet,
                                                                 file.vector<std::uint64_t>(part + "bwt.counts"),
                                                                 file.vector<std::uint64_t>(part + "bwt.levels"),
                                                                 meta[meta_bwt_levels], what);
  }
  // The samples (their sizes are checked when the index is finished).
  const std::uint64_t samples = n / d.sample_rate + 1;
  d.sampled.n = n + 1;
  d.sampled.ones = samples;
  d.sampled.super = device_copy<std::uint64_t>(space, file, part + "sa.super", "strix::fm::marks_super");
  d.sampled.block = device_copy<std::uint16_t>(space, file, part + "sa.block", "strix::fm::marks_block");
  d.sampled.low = device_copy<std::uint8_t>(space, file, part + "sa.low", "strix::fm::marks_low");
  d.sa_samples.count = samples;
  d.sa_samples.width = packed_width(samples - 1);
  d.sa_samples.words = device_copy<std::uint64_t>(space, file, part + "sa.samples", "strix::fm::sa_samples");
  d.isa_samples.count = meta[meta_extract] != 0 ? samples : 0;
  d.isa_samples.width = d.sa_samples.width;
  d.isa_samples.words = device_copy<std::uint64_t>(space, file, part + "isa.samples", "strix::fm::isa_samples");
  space.fence();
  return fm_index<Space, I>(space, std::move(d), options);
}

}  // namespace detail

// Loads an FM-index saved with index type I (fm_index_file_width tells which) onto `space`,
// and its reference's sequences into `sequences` when given (left empty for a plain text).
template <class Space, class I>
fm_index<Space, I> load_fm_index(const Space& space, const io::container_reader& file,
                                  reference_sequences* sequences = nullptr, const fm_options& options = {}) {
  using namespace detail;
  auto fm = load_fm_part<Space, I>(space, file, "", options);
  const auto meta = file.vector<std::uint64_t>("meta");
  const std::uint64_t n = fm.size();
  const std::string what = "index file";
  if (sequences) {
    *sequences = reference_sequences();
    if (meta[meta_sequences] > 0) {
      const auto names = file.section("ref.names");
      const auto ends = file.vector<std::uint64_t>("ref.name_ends");
      STRIX_USER_REQUIRE(ends.size() == meta[meta_sequences], what + " is corrupt (sequence names)");
      std::uint64_t from = 0;
      for (auto end : ends) {
        STRIX_USER_REQUIRE(end >= from && end <= names.bytes, what + " is corrupt (sequence names)");
        sequences->names.emplace_back(reinterpret_cast<const char*>(names.data) + from, end - from);
        from = end;
      }
      sequences->starts = file.vector<std::uint64_t>("ref.starts");
      sequences->lengths = file.vector<std::uint64_t>("ref.lengths");
      sequences->check(n);
    }
  }
  return fm;
}

// Whether the file holds the FM-index of the reversed text (saved for approximate search).
inline bool fm_index_file_has_reverse(const io::container_reader& file) {
  return file.has(std::string(fm_reverse_part) + "meta");
}

// The FM-index of the reversed text from a file that has it (a clear error otherwise).
template <class Space, class I>
fm_index<Space, I> load_fm_index_reverse(const Space& space, const io::container_reader& file,
                                         const fm_options& options = {}) {
  STRIX_USER_REQUIRE(fm_index_file_has_reverse(file),
                     "index file has no reverse part for approximate search: index the text again with --approximate");
  return detail::load_fm_part<Space, I>(space, file, fm_reverse_part, options);
}

}  // namespace strix
