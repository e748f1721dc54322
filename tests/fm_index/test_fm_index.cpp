// SPDX-License-Identifier: BSD-3-Clause
// strix::fm_index on every backend: count, locate and extract against brute force, on the
// hard inputs, random texts over several alphabets, DNA with N runs and IUPAC codes and
// references of many sequences, in every rank layout and at several sample rates.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <doctest/doctest.h>
#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>

#include <strix/fm_index/fm_index_file.hpp>
#include <strix/index/text_index.hpp>

#include "fm_test_inputs.hpp"
#include "test_support.hpp"

using namespace strix_test;

namespace {

// `index` holds the text's suffix array and BWT: the FM-index is built again from them.
template <class C>
void check_fm(const std::string& name, strix::text_index<typename C::space, typename C::index>& index,
              const bytes& text, const strix::fm_options& options, std::uint64_t seed) {
  using I = typename C::index;
  CAPTURE(name);
  CAPTURE(options.sample_rate);
  CAPTURE(int(options.layout));
  CAPTURE(options.kmer_length);
  index.release(strix::index_part::fm_index);
  const auto& fm = index.fm_index(options);
  CHECK(index.has(strix::index_part::suffix_array));  // held before: kept
  REQUIRE(fm.size() == text.size());
  if (options.layout != strix::fm_rank_layout::automatic) CHECK(fm.layout() == options.layout);
  if (fm.layout() == strix::fm_rank_layout::occurrence_table && options.kmer_length >= 0)
    CHECK(fm.kmer_length() == options.kmer_length);
  if (fm.layout() != strix::fm_rank_layout::occurrence_table) CHECK(fm.kmer_length() == 0);
  const auto ps = patterns_for(text, seed);
  const batch b(ps);
  const auto counts = fm.count(b.all.data(), b.offsets.data(), ps.size());
  const std::uint64_t cap = 3;
  const auto all = fm.locate(b.all.data(), b.offsets.data(), ps.size());
  const auto capped = fm.locate(b.all.data(), b.offsets.data(), ps.size(), cap);
  REQUIRE(all.starts.size() == ps.size() + 1);
  for (std::size_t q = 0; q < ps.size(); ++q) {
    CAPTURE(q);
    const auto expected = brute_force_starts(text, ps[q], options.separator);
    REQUIRE(counts[q] == expected.size());
    REQUIRE(all.counts[q] == expected.size());
    std::vector<std::uint64_t> got(all.positions.begin() + all.starts[q], all.positions.begin() + all.starts[q + 1]);
    REQUIRE(got == expected);
    // Capped: min(count, cap) of the true positions, ascending; the count stays whole.
    std::vector<std::uint64_t> few(capped.positions.begin() + capped.starts[q],
                                   capped.positions.begin() + capped.starts[q + 1]);
    REQUIRE(capped.counts[q] == expected.size());
    REQUIRE(few.size() == std::min<std::size_t>(cap, expected.size()));
    REQUIRE(std::is_sorted(few.begin(), few.end()));
    for (auto p : few) REQUIRE(std::binary_search(expected.begin(), expected.end(), p));
  }
  // Batches from device views agree with the host ones, ranges included.
  auto d_bytes = to_view<typename C::memory_space>(b.all);
  auto d_offsets = to_view<typename C::memory_space>(b.offsets);
  Kokkos::View<I*, typename C::memory_space> d_counts("counts", ps.size());
  Kokkos::View<std::uint64_t*, typename C::memory_space> d_ranges("ranges", 2 * ps.size());
  fm.count(d_bytes, d_offsets, d_counts, d_ranges);
  CHECK(to_vector(d_counts) == counts);
  const auto ranges = to_vector(d_ranges);
  for (std::size_t q = 0; q < ps.size(); ++q) REQUIRE(ranges[2 * q + 1] - ranges[2 * q] == counts[q]);
  // Extract: the whole text and random ranges.
  CHECK(fm.extract(0, text.size()) == text);
  std::mt19937_64 rng(seed + 1);
  for (int k = 0; k < 20 && !text.empty(); ++k) {
    const std::uint64_t start = rng() % (text.size() + 1), length = rng() % (text.size() - start + 1);
    REQUIRE(fm.extract(start, length) == bytes(text.begin() + start, text.begin() + start + length));
  }
  CHECK_THROWS_AS(fm.extract(text.size(), 1), strix::error);
  // Into a device view (one walk per sample-rate piece): ranges that start and end at, just
  // before and just after sample boundaries, and the text's end.
  const std::uint64_t n = text.size(), rate = options.sample_rate;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cuts = {{0, n}, {n, n}};
  for (std::uint64_t a : {rate - 1, rate, rate + 1, 2 * rate, n / 2, n > 0 ? n - 1 : 0})
    for (std::uint64_t b : {a, a + 1, a + rate, a + rate + 1, n})
      if (a <= n && b <= n && a <= b) cuts.emplace_back(a, b);
  Kokkos::View<std::uint8_t*, typename C::memory_space> d_out("extracted", n + 1);
  for (const auto& cut : cuts) {
    const std::uint64_t a = cut.first, b = cut.second;  // (not a structured binding: doctest's message captures it)
    fm.extract(a, b - a, Kokkos::View<std::uint8_t*, typename C::memory_space>(d_out.data(), b - a + 1));
    const auto got = to_vector(Kokkos::View<std::uint8_t*, typename C::memory_space>(d_out.data(), b - a));
    REQUIRE_MESSAGE(got == bytes(text.begin() + a, text.begin() + b), "range [" << a << ", " << b << ")");
  }
  if (n > 0)
    CHECK_THROWS_AS(fm.extract(0, n, Kokkos::View<std::uint8_t*, typename C::memory_space>(d_out.data(), n - 1)),
                    strix::error);
}

const strix::fm_rank_layout layouts[] = {strix::fm_rank_layout::automatic, strix::fm_rank_layout::occurrence_table,
                                         strix::fm_rank_layout::wavelet_matrix, strix::fm_rank_layout::huffman_tree};
const std::uint64_t rates[] = {1, 2, 32, 1000};
// k-mer tables: none, the shortest, and longer than many patterns (and than tiny texts).
const int kmer_lengths[] = {0, 1, 3, 6, -1};

using section_bytes = std::vector<unsigned char>;

// A copy of the FM-index file `from` as `to` with section `changed` changed: its checksums
// hold but its arrays may lie.
void forge(const std::string& from, const std::string& to, const std::string& changed,
           const std::function<void(section_bytes&)>& change, std::uint32_t version = strix::fm_index_file_version) {
  strix::io::container_reader file(from, strix::fm_index_file_kind, strix::fm_index_file_version);
  strix::io::container_writer forged(strix::fm_index_file_kind, version);
  std::vector<section_bytes> keep;
  for (const char* name : {"meta", "occ.lines", "occ.code_of", "exceptions.marks", "exceptions.alphabet",
                           "exceptions.counts", "exceptions.levels", "sa.super", "sa.block", "sa.low", "sa.samples",
                           "isa.samples"}) {
    const auto s = file.section(name);
    keep.emplace_back(s.data, s.data + s.bytes);
    if (name == changed) change(keep.back());
    forged.add(name, keep.back().data(), keep.back().size());
  }
  forged.write(to);
}

// Line `line`'s word `word` of an occurrence table's section.
std::uint64_t& occ_word(section_bytes& lines, std::uint64_t line, int word) {
  REQUIRE((line * 8 + word + 1) * 8 <= lines.size());
  return *reinterpret_cast<std::uint64_t*>(lines.data() + (line * 8 + word) * 8);
}

// The file as a version-1 container (each section's checksum the plain chain), as strix
// wrote them before 2026-11-26.
bytes as_container_version_1(bytes file) {
  const std::uint32_t one = 1;
  std::uint32_t count = 0;
  std::memcpy(&count, file.data() + 12, 4);
  for (std::uint32_t k = 0; k < count; ++k) {
    unsigned char* e = file.data() + 64 + 64 * k;
    std::uint64_t offset = 0, size = 0;
    std::memcpy(&offset, e + 40, 8);
    std::memcpy(&size, e + 48, 8);
    const std::uint64_t sum = strix::io::checksum(file.data() + offset, size);
    std::memcpy(e + 56, &sum, 8);
  }
  std::memcpy(file.data() + 8, &one, 4);
  const std::uint64_t table = strix::io::checksum(file.data() + 64, 64 * std::size_t(count));
  std::memcpy(file.data() + 48, &table, 8);
  const std::uint64_t header = strix::io::checksum(file.data(), 56);
  std::memcpy(file.data() + 56, &header, 8);
  return file;
}

}  // namespace

TEST_SUITE_BEGIN("fm_index");

TEST_CASE_TEMPLATE_DEFINE("fm_index counts, locates and extracts like brute force", C, fm_hard) {
  auto inputs = hard_inputs();
  for (unsigned sigma : {1u, 2u, 4u, 26u, 256u}) inputs.push_back({"random sigma " + std::to_string(sigma), random_text(3000, sigma, sigma)});
  inputs.push_back({"dna with N", dna_with_n(5000, 3)});
  // Symbol c occurring 2^c times, shuffled: Huffman codes 1 to 13 bits deep.
  bytes deep;
  for (int c = 0; c < 14; ++c) deep.insert(deep.end(), std::size_t(1) << c, std::uint8_t('a' + c));
  std::shuffle(deep.begin(), deep.end(), std::mt19937_64(12));
  inputs.push_back({"deep codes", deep});
  std::uint64_t seed = 0;
  for (const auto& input : inputs) {
    ++seed;
    strix::text_index<typename C::space, typename C::index> index(typename C::space(), input.second.data(),
                                                                  input.second.size());
    index.bwt();
    // Every layout forced (automatic picks one of them: the other tests use it).
    for (auto layout : {strix::fm_rank_layout::occurrence_table, strix::fm_rank_layout::wavelet_matrix,
                        strix::fm_rank_layout::huffman_tree}) {
      strix::fm_options options;
      options.layout = layout;
      options.sample_rate = rates[(seed + int(layout)) % 4];
      // A sample every 1000 positions where that leaves one or two (every LF walk is long).
      if (options.sample_rate == 1000 && input.second.size() > 2100) options.sample_rate = 64;
      options.kmer_length = kmer_lengths[seed % 5];
      check_fm<C>(input.first, index, input.second, options, seed);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(fm_hard, all_configs);

TEST_CASE_TEMPLATE_DEFINE("host-array counts in chunks: every slot reused, into the caller's array, bad offsets refused",
                          C, fm_host_chunks) {
  using I = typename C::index;
  const bytes text = dna_with_n(4000, 5);
  strix::text_index<typename C::space, I> index(typename C::space(), text.data(), text.size());
  const auto ps = patterns_for(text, 9);
  REQUIRE(ps.size() > 20);
  const batch b(ps);
  // Chunks of 1, 2, 5 and 7 patterns: many more chunks than the device path's slots, and a
  // last chunk shorter than the others; the index keeps its staging between the calls.
  for (std::size_t chunk : {std::size_t(1), std::size_t(2), std::size_t(5), std::size_t(7)}) {
    CAPTURE(chunk);
    strix::fm_options options;
    options.host_chunk = chunk;
    index.release(strix::index_part::fm_index);
    const auto& fm = index.fm_index(options);
    std::vector<I> into(ps.size() + 1, I(12345));
    for (int round = 0; round < 2; ++round) {
      fm.count(b.all.data(), b.offsets.data(), ps.size(), into.data());
      const auto returned = fm.count(b.all.data(), b.offsets.data(), ps.size());
      for (std::size_t q = 0; q < ps.size(); ++q) {
        CAPTURE(q);
        const auto expected = brute_force_starts(text, ps[q], strix::fm_no_separator).size();
        REQUIRE(into[q] == expected);
        REQUIRE(returned[q] == expected);
      }
      CHECK(into[ps.size()] == I(12345));  // nothing written beyond the m counts
    }
    // Offsets that descend inside a later chunk (and across a chunk's first edge).
    for (std::size_t at : {ps.size() - 2, std::size_t(chunk + 1)}) {
      CAPTURE(at);
      auto offsets = b.offsets;
      std::swap(offsets[at], offsets[at - 1]);
      if (offsets[at] >= offsets[at - 1]) offsets[at - 1] = offsets[at] + 1;
      try {
        fm.count(b.all.data(), offsets.data(), ps.size(), into.data());
        FAIL("counted a batch whose offsets descend");
      } catch (const strix::error& e) {
        CHECK(e.code() == strix::error_code::invalid_input);
        CHECK(std::string(e.what()).find("ascend") != std::string::npos);
      }
    }
    // The index answers again after a refused batch.
    CHECK(fm.count(b.all.data(), b.offsets.data(), ps.size()) == std::vector<I>(into.begin(), into.begin() + ps.size()));
  }
  // An empty batch writes nothing.
  const auto& fm = index.fm_index();
  I untouched = I(7);
  const std::uint64_t zero = 0;
  fm.count(b.all.data(), &zero, 0, &untouched);
  CHECK(untouched == I(7));
}
TEST_CASE_TEMPLATE_APPLY(fm_host_chunks, all_configs);

TEST_CASE("the automatic rank layout: the occurrence table unless the other symbols are many and spread") {
  const std::uint64_t n = 192 * 10000;
  std::uint64_t counts[256] = {};
  const auto set = [&](std::initializer_list<std::pair<char, std::uint64_t>> c) {
    std::fill(counts, counts + 256, 0);
    for (const auto& [symbol, count] : c) counts[std::uint8_t(symbol)] = count;
  };
  const std::uint64_t lines = n / 192 + 1;
  set({{'A', n / 4}, {'C', n / 4}, {'G', n / 4}, {'T', n / 4}});
  CHECK_FALSE(strix::fm_layout_needs_lines(counts));
  CHECK(strix::choose_fm_layout(counts, {}) == strix::fm_rank_layout::occurrence_table);
  set({{'A', n / 4}, {'C', n / 4}, {'G', n / 4}, {'T', n / 4 - n / 64}, {'N', n / 64}});  // few others
  CHECK(strix::choose_fm_layout(counts, {lines, lines}) == strix::fm_rank_layout::occurrence_table);
  set({{'A', n / 5}, {'C', n / 5}, {'G', n / 5}, {'T', n / 5}, {'N', n / 5}});  // many others
  CHECK(strix::fm_layout_needs_lines(counts));
  CHECK(strix::choose_fm_layout(counts, {lines / 5 + 2, 2}) == strix::fm_rank_layout::occurrence_table);  // in runs
  CHECK(strix::choose_fm_layout(counts, {lines, lines}) == strix::fm_rank_layout::huffman_tree);  // spread
  CHECK(strix::choose_fm_layout(counts, {lines / 5 + lines / 30, lines / 30}) == strix::fm_rank_layout::huffman_tree);
  // Half the text of four others in runs: their exceptions would make the table 1.36x the tree.
  set({{'A', n / 8}, {'C', n / 8}, {'G', n / 8}, {'T', n / 8}, {'W', n / 8}, {'X', n / 8}, {'Y', n / 8}, {'Z', n / 8}});
  CHECK(strix::choose_fm_layout(counts, {lines / 2, 0}) == strix::fm_rank_layout::huffman_tree);
}

TEST_CASE_TEMPLATE_DEFINE("fm_index picks its layout by where the other symbols sit, and answers alike", C, fm_layouts) {
  std::mt19937_64 rng(21);
  const std::size_t n = 20000;
  bytes dna(n);
  for (auto& c : dna) c = "ACGT"[rng() % 4];
  bytes runs = dna, spread = dna;
  for (std::size_t i = 5000; i < 7000; ++i) runs[i] = 'N';  // 10 % of the text, one run
  for (std::size_t i = 0; i < n; i += 10) spread[i] = 'N';  // 10 %, every tenth symbol
  const std::pair<bytes, strix::fm_rank_layout> cases[] = {{runs, strix::fm_rank_layout::occurrence_table},
                                                           {spread, strix::fm_rank_layout::huffman_tree}};
  std::uint64_t seed = 40;
  for (const auto& [text, layout] : cases) {
    strix::text_index<typename C::space, typename C::index> index(typename C::space(), text.data(), text.size());
    index.bwt();
    CHECK(index.fm_index().layout() == layout);
    check_fm<C>(layout == strix::fm_rank_layout::occurrence_table ? "N run" : "N spread", index, text, {}, ++seed);
  }
}
TEST_CASE_TEMPLATE_APPLY(fm_layouts, all_configs);

TEST_CASE_TEMPLATE_DEFINE("fm_index of a reference: no match across the separator", C, fm_reference) {
  // Sequences joined by '\n': tiny, empty and repeated ones, and patterns that would only
  // match across a boundary.
  const std::string joined = "ACGT\n\nA\nACGTNNACGT\nACGT\nTTTT\nT";
  const bytes text(joined.begin(), joined.end());
  for (auto layout : layouts) {
    strix::fm_options options;
    options.layout = layout;
    options.separator = '\n';
    options.sample_rate = 2;
    options.kmer_length = 3;  // the separator is one of the table's four symbols here
    strix::text_index<typename C::space, typename C::index> index(typename C::space(), text.data(), text.size());
    index.bwt();
    check_fm<C>("reference", index, text, options, 7);
    const auto& fm = index.fm_index(options);
    CHECK(fm.count("TA") == 0);
    CHECK(fm.count("T\nA") == 0);
    CHECK(fm.count("TTTTT") == 0);
    CHECK(fm.count("ACGT") == 4);
    CHECK(fm.count("") == text.size() + 1);
    CHECK(fm.locate("ACGT") == std::vector<typename C::index>{0, 8, 14, 19});
  }
}
TEST_CASE_TEMPLATE_APPLY(fm_reference, all_configs);

TEST_CASE_TEMPLATE_DEFINE("fm_index on a large DNA text", C, fm_large) {
  using I = typename C::index;
  const std::size_t n = large_text_bytes(strix::is_host_space_v<typename C::space>) / 4;
  const auto text = dna_with_n(n, 11, 20000);
  strix::text_index<typename C::space, I> index(typename C::space(), text.data(), text.size());
  strix::run_stats stats;
  const auto& fm = index.fm_index({}, &stats);
  CHECK_FALSE(index.has(strix::index_part::suffix_array));  // built on the way, released
  CHECK_FALSE(index.has(strix::index_part::bwt));
  CHECK_FALSE(index.has(strix::index_part::sa_workspace));
  CHECK(fm.layout() == strix::fm_rank_layout::occurrence_table);
  CHECK(fm.kmer_length() >= 2);  // automatic: the table is 1/128 of the text or less
  CHECK(stats.peak_bytes >= fm.bytes());
  // The occurrence table: 2.67 bits per symbol, and a little for the rare exceptions.
  CHECK(fm.data().rank_bytes() * 8 < 3 * n);
  // The samples at rate 32: the marks a byte each and 1/16 bit per row, the two sample
  // arrays packed in the bits n / 32 needs.
  const int w = strix::packed_width(n / 32);
  CHECK(double(fm.data().locate_bytes() + fm.data().extract_bytes()) * 8 < ((8.0 + 2 * w) / 32 + 0.07) * double(n));
  std::mt19937_64 rng(5);
  std::vector<bytes> ps;
  for (int k = 0; k < 200; ++k) {
    const std::size_t len = 4 + rng() % 28, at = rng() % (n - len);
    ps.push_back(bytes(text.begin() + at, text.begin() + at + len));
  }
  const batch b(ps);
  const auto found = fm.locate(b.all.data(), b.offsets.data(), ps.size());
  for (std::size_t q = 0; q < ps.size(); ++q) {
    std::vector<std::uint64_t> got(found.positions.begin() + found.starts[q], found.positions.begin() + found.starts[q + 1]);
    REQUIRE(got == brute_force_starts(text, ps[q], -1));
  }
  const std::uint64_t start = n / 3;
  CHECK(fm.extract(start, 10000) == bytes(text.begin() + start, text.begin() + start + 10000));
}
TEST_CASE_TEMPLATE_APPLY(fm_large, all_configs);

TEST_SUITE_END();

// --- saved files ------------------------------------------------------------------
namespace {

std::string temp_path(const std::string& tag) {
  return "/tmp/strix_test_fm_" + std::to_string(::getpid()) + "_" + tag + ".idx";
}

bytes read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return bytes(std::istreambuf_iterator<char>(in), {});
}
void write_file(const std::string& path, const bytes& b) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

// Loading `path` fails with an invalid_input error whose message holds `says`.
// Every (input, layout) pair.
template <class Input>
std::vector<std::pair<Input, strix::fm_rank_layout>> cross(const Input (&inputs)[4],
                                                           std::initializer_list<strix::fm_rank_layout> layouts) {
  std::vector<std::pair<Input, strix::fm_rank_layout>> out;
  for (const auto& input : inputs)
    for (auto layout : layouts) out.push_back({input, layout});
  return out;
}

template <class C>
void check_refused(const std::string& path, const std::string& says) {
  CAPTURE(says);
  try {
    strix::io::container_reader file(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    strix::load_fm_index<typename C::space, typename C::index>(typename C::space(), file);
    FAIL("loaded a bad file");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
    CHECK(std::string(e.what()).find(says) != std::string::npos);
  }
}

}  // namespace

TEST_SUITE_BEGIN("fm_index");

TEST_CASE_TEMPLATE_DEFINE("fm_index files round-trip, and bad files are refused", C, fm_files) {
  using I = typename C::index;
  using space = typename C::space;
  const std::pair<std::string, bytes> inputs[] = {
      {"dna", dna_with_n(3000, 4)}, {"text", random_text(2000, 26, 8, 'a')}, {"empty", {}}, {"one byte", {'A'}}};
  for (const auto& input_layout : cross(inputs, {strix::fm_rank_layout::automatic, strix::fm_rank_layout::wavelet_matrix})) {
    // (Named, not bound: CAPTURE's lambda may capture a structured binding only from C++20.)
    const auto& input = input_layout.first;
    const auto layout = input_layout.second;
    CAPTURE(input.first);
    CAPTURE(int(layout));
    const auto& text = input.second;
    strix::text_index<space, I> index(space(), text.data(), text.size());
    strix::fm_options options;
    options.layout = layout;
    options.sample_rate = 8;
    options.separator = '\n';
    const auto& fm = index.fm_index(options);
    strix::reference_sequences sequences;
    bytes joined;
    sequences.append("only", text.data(), text.size(), joined);
    const std::string path = temp_path(input.first);
    strix::save_fm_index(fm, &sequences, path);
    strix::io::container_reader file(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    CHECK(strix::fm_index_file_width(file) == int(sizeof(I)));
    strix::reference_sequences loaded_sequences;
    const auto loaded = strix::load_fm_index<space, I>(space(), file, &loaded_sequences);
    CHECK(loaded_sequences.names == sequences.names);
    CHECK(loaded_sequences.starts == sequences.starts);
    CHECK(loaded.layout() == fm.layout());
    CHECK(loaded.sample_rate() == 8);
    CHECK(loaded.separator() == '\n');
    const auto ps = patterns_for(text, 3);
    const batch b(ps);
    CHECK(loaded.count(b.all.data(), b.offsets.data(), ps.size()) == fm.count(b.all.data(), b.offsets.data(), ps.size()));
    CHECK(loaded.locate(b.all.data(), b.offsets.data(), ps.size()).positions ==
          fm.locate(b.all.data(), b.offsets.data(), ps.size()).positions);
    CHECK(loaded.extract(0, text.size()) == text);
    CHECK(loaded.kmer_length() == fm.kmer_length());
    // The k-mer table is rebuilt on load, of the length asked for then.
    strix::fm_options with_table;
    with_table.kmer_length = 4;
    strix::io::container_reader again(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    const auto rebuilt = strix::load_fm_index<space, I>(space(), again, nullptr, with_table);
    CHECK(rebuilt.kmer_length() == (rebuilt.layout() == strix::fm_rank_layout::occurrence_table ? 4 : 0));
    CHECK(rebuilt.count(b.all.data(), b.offsets.data(), ps.size()) == fm.count(b.all.data(), b.offsets.data(), ps.size()));
    std::remove(path.c_str());
  }

  // Every class of bad file.
  const auto text = dna_with_n(3000, 5);
  strix::text_index<space, I> index(space(), text.data(), text.size());
  const auto& fm = index.fm_index();
  const std::string path = temp_path("good"), bad = temp_path("bad");
  strix::save_fm_index(fm, nullptr, path);
  const bytes good = read_file(path);
  write_file(bad, bytes(good.begin(), good.begin() + good.size() / 2));
  check_refused<C>(bad, "truncated");
  write_file(bad, bytes(good.begin(), good.begin() + 40));
  check_refused<C>(bad, "truncated");
  write_file(bad, from_string("a text file, not an index\n"));
  check_refused<C>(bad, "not a strix index file");
  bytes flipped = good;
  flipped[good.size() - 100] ^= 0x10;
  write_file(bad, flipped);
  check_refused<C>(bad, "checksum mismatch");
  bytes newer = good;
  newer[32] = 3;  // fm_index version 3, header checksum made right again
  const std::uint64_t sum = strix::io::checksum(newer.data(), 56);
  std::memcpy(newer.data() + 56, &sum, 8);
  write_file(bad, newer);
  check_refused<C>(bad, "version 3");
  // Files whose checksums hold but whose arrays lie: the occurrence table about its
  // symbols, the sampled rows, the samples; and a file of the older version.
  forge(path, bad, "occ.lines", [](section_bytes& b) { b.at(8 * 9) ^= 0x01; });  // a code in line 1
  check_refused<C>(bad, "does not match");
  // The occurrence table's other rules (occurrence_table_check_def.hpp), one broken at a time:
  // a line's header, the flag of the last line, a code past the text (3000 symbols: the last
  // line holds 120, its last code word none), an exception mark, the codes' table.
  forge(path, bad, "occ.lines", [](section_bytes& b) { occ_word(b, 5, 0) += 1; });
  check_refused<C>(bad, "does not match");
  forge(path, bad, "occ.lines", [](section_bytes& b) { occ_word(b, 15, 0) ^= std::uint64_t(1) << 24; });
  check_refused<C>(bad, "does not match");
  forge(path, bad, "occ.lines", [](section_bytes& b) { occ_word(b, 15, 7) = 1; });
  check_refused<C>(bad, "does not match");
  forge(path, bad, "exceptions.marks", [](section_bytes& b) { b.at(0) ^= 0xff; });
  check_refused<C>(bad, "does not match");
  {
    // As many marks, one moved: from an exception of the first flagged line onto a place of that
    // line whose code is not 0 (exceptions sit on code-0 places); and, in a text of six symbols
    // (exceptions in every line), from the last line's first exception to a place past the text.
    const auto lines_of = [](const std::string& file_path) {
      strix::io::container_reader file(file_path, strix::fm_index_file_kind, strix::fm_index_file_version);
      const auto section = file.section("occ.lines");
      std::vector<strix::occurrence_table_ref::line> lines(section.bytes / sizeof(strix::occurrence_table_ref::line));
      std::memcpy(lines.data(), section.data, lines.size() * sizeof(lines[0]));
      return lines;
    };
    const auto move_mark = [](section_bytes& b, std::uint64_t f, unsigned to) {
      auto* words = reinterpret_cast<std::uint64_t*>(b.data()) + 3 * f;
      unsigned from = 0;
      while (from < 192 && !((words[from / 64] >> (from % 64)) & 1)) ++from;
      REQUIRE(from < 192);
      words[from / 64] &= ~(std::uint64_t(1) << (from % 64));
      REQUIRE_FALSE(((words[to / 64] >> (to % 64)) & 1));
      words[to / 64] |= std::uint64_t(1) << (to % 64);
    };
    const auto lines = lines_of(path);
    const auto first = std::find_if(lines.begin(), lines.end(), [](const auto& l) { return l.flagged(); });
    REQUIRE(first != lines.end());
    // (Onto coded places in each mark word and each half of one: the check tests 32 places at once.)
    for (unsigned from : {0u, 40u, 70u, 100u, 140u, 170u}) {
      CAPTURE(from);
      unsigned coded = from;
      while (coded < 192 && first->code_at(coded) == 0) ++coded;
      REQUIRE(coded < 192);
      forge(path, bad, "exceptions.marks", [&](section_bytes& b) { move_mark(b, 0, coded); });
      check_refused<C>(bad, "does not match");
    }

    const auto six = random_text(3000, 6, 77, 'a');
    strix::text_index<space, I> six_index(space(), six.data(), six.size());
    strix::fm_options table;
    table.layout = strix::fm_rank_layout::occurrence_table;
    const std::string six_path = temp_path("six symbols");
    strix::save_fm_index(six_index.fm_index(table), nullptr, six_path);
    const auto six_lines = lines_of(six_path);
    REQUIRE(six_lines.back().flagged());
    REQUIRE(six.size() % 192 < 191);  // place 191 of the last line lies past the text
    const std::uint64_t last_flagged =
        std::count_if(six_lines.begin(), six_lines.end(), [](const auto& l) { return l.flagged(); }) - 1;
    forge(six_path, bad, "exceptions.marks", [&](section_bytes& b) { move_mark(b, last_flagged, 191); });
    check_refused<C>(bad, "does not match");
    std::remove(six_path.c_str());
  }
  forge(path, bad, "occ.code_of", [](section_bytes& b) { std::swap(b.at('A'), b.at('C')); });
  check_refused<C>(bad, "codes do not match");
  forge(path, bad, "sa.low", [](section_bytes& b) { b.back() = 0xff; });  // beyond the last row
  check_refused<C>(bad, "sampled rows are damaged");
  forge(path, bad, "sa.block", [](section_bytes& b) { b.at(2) = b.at(3) = 0xff; });  // block 1 after 65535 marks
  check_refused<C>(bad, "sampled rows are damaged");
  forge(path, bad, "sa.samples", [](section_bytes& b) { b.at(0) ^= 0x01; });  // two samples alike, or one too large
  check_refused<C>(bad, "samples are damaged");
  forge(path, bad, "isa.samples", [](section_bytes& b) { b.at(1) ^= 0x01; });
  check_refused<C>(bad, "samples are damaged");
  // The first two extract samples swapped: still a permutation of the right values, no
  // longer the inverse of the locate samples (the check that compares the two tells).
  forge(path, bad, "isa.samples", [&](section_bytes& b) {
    const std::uint64_t expected = text.size() / fm.sample_rate() + 1;
    int width = 0;
    while ((std::uint64_t(1) << width) < expected) ++width;
    REQUIRE((width >= 1 && width <= 32 && b.size() >= 8));
    std::uint64_t word = 0;
    std::memcpy(&word, b.data(), 8);
    const std::uint64_t mask = (std::uint64_t(1) << width) - 1, first = word & mask, second = (word >> width) & mask;
    REQUIRE(first != second);
    word = (word & ~((mask << width) | mask)) | (first << width) | second;
    std::memcpy(b.data(), &word, 8);
  });
  check_refused<C>(bad, "samples are damaged");
  // An extract sample out of range (every bit of its field set: at least `expected`), which
  // the one keyed pass refuses with the rest (no pair on the other side can match it).
  forge(path, bad, "isa.samples", [&](section_bytes& b) {
    const std::uint64_t expected = text.size() / fm.sample_rate() + 1;
    int width = 0;
    while ((std::uint64_t(1) << width) < expected) ++width;
    REQUIRE((width >= 1 && width <= 32 && b.size() >= 8 && (std::uint64_t(1) << width) - 1 >= expected));
    std::uint64_t word = 0;
    std::memcpy(&word, b.data(), 8);
    word |= (std::uint64_t(1) << width) - 1;
    std::memcpy(b.data(), &word, 8);
  });
  check_refused<C>(bad, "samples are damaged");
  forge(path, bad, "", [](section_bytes&) {}, 1);
  check_refused<C>(bad, "fm_index version 1, from an older strix");
  // Without extract samples the locate samples are checked alone: two alike are refused.
  {
    strix::fm_options no_extract;
    no_extract.extract = false;
    strix::text_index<space, I> other(space(), text.data(), text.size());
    const std::string lean = temp_path("lean");
    strix::save_fm_index(other.fm_index(no_extract), nullptr, lean);
    strix::io::container_reader file(lean, strix::fm_index_file_kind, strix::fm_index_file_version);
    CHECK(strix::load_fm_index<space, I>(space(), file).count("ACGT") == fm.count("ACGT"));
    forge(lean, bad, "sa.samples", [](section_bytes& b) { std::swap(b.at(0), b.at(8)); });
    check_refused<C>(bad, "samples are damaged");
    std::remove(lean.c_str());
  }
  // A file of container version 1 (before the blocked checksums) still loads.
  write_file(bad, as_container_version_1(good));
  {
    strix::io::container_reader file(bad, strix::fm_index_file_kind, strix::fm_index_file_version);
    const auto old = strix::load_fm_index<space, I>(space(), file);
    CHECK(old.count("ACGT") == fm.count("ACGT"));
    CHECK(old.extract(0, text.size()) == text);
  }
  bytes old_flipped = as_container_version_1(good);
  old_flipped[good.size() - 100] ^= 0x10;
  write_file(bad, old_flipped);
  check_refused<C>(bad, "checksum mismatch");
  // The other width.
  using other = std::conditional_t<sizeof(I) == 4, std::uint64_t, std::uint32_t>;
  try {
    strix::io::container_reader file(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    strix::load_fm_index<space, other>(space(), file);
    FAIL("loaded with the other width");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
  }
  std::remove(path.c_str());
  std::remove(bad.c_str());
}
TEST_CASE_TEMPLATE_APPLY(fm_files, all_configs);

// A load checks each line's header against the line before it, except at a superblock's
// first line (2^16 lines, 12.6 M symbols), whose header is zero, and sums the superblocks:
// a text of a superblock and a part, rare symbols flagging lines in both.
TEST_CASE_TEMPLATE_DEFINE("fm_index files across the occurrence table's superblocks", C, fm_superblocks) {
  using I = typename C::index;
  using space = typename C::space;
  if (sizeof(I) != 4) return;  // the table is the same for both widths
  const std::uint64_t per_super = (std::uint64_t(1) << strix::occ_superblock_log2) * strix::occ_line_symbols;
  const std::size_t n = per_super + 5000;
  const auto text = dna_with_n(n, 23, 50000);
  strix::text_index<space, I> index(space(), text.data(), text.size());
  const auto& fm = index.fm_index();
  REQUIRE(fm.layout() == strix::fm_rank_layout::occurrence_table);
  const std::string path = temp_path("superblocks"), bad = temp_path("superblocks-bad");
  strix::save_fm_index(fm, nullptr, path);
  std::mt19937_64 rng(9);
  std::vector<bytes> ps;
  for (const std::uint64_t around : {per_super, std::uint64_t(n) - 40})
    for (int k = 0; k < 20; ++k) {
      const std::size_t len = 6 + rng() % 10, at = around - 20 + rng() % 30;
      ps.push_back(bytes(text.begin() + at, text.begin() + std::min<std::size_t>(n, at + len)));
    }
  const batch b(ps);
  {
    strix::io::container_reader file(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    const auto loaded = strix::load_fm_index<space, I>(space(), file);
    CHECK(loaded.count(b.all.data(), b.offsets.data(), ps.size()) == fm.count(b.all.data(), b.offsets.data(), ps.size()));
    CHECK(loaded.extract(per_super - 100, 200) == bytes(text.begin() + per_super - 100, text.begin() + per_super + 100));
  }
  const std::uint64_t first_of_second = std::uint64_t(1) << strix::occ_superblock_log2;
  for (const std::uint64_t line : {first_of_second - 1, first_of_second, first_of_second + 1, n / strix::occ_line_symbols}) {
    CAPTURE(line);
    forge(path, bad, "occ.lines", [&](section_bytes& lines) { occ_word(lines, line, 1) += 1; });  // code 2's count
    check_refused<C>(bad, "does not match");
  }
  std::remove(path.c_str());
  std::remove(bad.c_str());
}
TEST_CASE_TEMPLATE_APPLY(fm_superblocks, all_configs);

TEST_CASE_TEMPLATE_DEFINE("fm_index files with a Huffman-shaped tree: checked against their counts", C, fm_huffman_files) {
  using I = typename C::index;
  using space = typename C::space;
  // Skewed letters: codes of 1 to 6 bits.
  std::mt19937_64 rng(17);
  bytes text(5000);
  for (auto& c : text) c = std::uint8_t('a' + std::min(25, __builtin_ctzll(rng() | (1ull << 25))));
  strix::text_index<space, I> index(space(), text.data(), text.size());
  const auto& fm = index.fm_index();
  REQUIRE(fm.layout() == strix::fm_rank_layout::huffman_tree);
  const std::string path = temp_path("huffman"), bad = temp_path("huffman_bad");
  strix::save_fm_index(fm, nullptr, path);
  using section_bytes = std::vector<unsigned char>;
  const auto forge = [&](const char* changed, const std::function<void(section_bytes&)>& change) {
    strix::io::container_reader file(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    strix::io::container_writer forged(strix::fm_index_file_kind, strix::fm_index_file_version);
    std::vector<section_bytes> keep;
    for (const char* name : {"meta", "huffman.counts", "huffman.lengths", "huffman.levels", "sa.super", "sa.block",
                             "sa.low", "sa.samples", "isa.samples"}) {
      const auto s = file.section(name);
      keep.emplace_back(s.data, s.data + s.bytes);
      if (std::string(name) == changed) change(keep.back());
      forged.add(name, keep.back().data(), keep.back().size());
    }
    forged.write(bad);
  };
  forge("", [](section_bytes&) {});  // unchanged: loads and answers alike
  {
    strix::io::container_reader file(bad, strix::fm_index_file_kind, strix::fm_index_file_version);
    const auto loaded = strix::load_fm_index<space, I>(space(), file);
    CHECK(loaded.layout() == strix::fm_rank_layout::huffman_tree);
    const auto ps = patterns_for(text, 9);
    const batch b(ps);
    CHECK(loaded.count(b.all.data(), b.offsets.data(), ps.size()) == fm.count(b.all.data(), b.offsets.data(), ps.size()));
    CHECK(loaded.extract(0, text.size()) == text);
  }
  forge("huffman.levels", [](section_bytes& b) { b.at(3) ^= 0x04; });  // a bit of the root's level
  check_refused<C>(bad, "disagree with its symbol counts");
  forge("huffman.lengths", [](section_bytes& b) { ++b.at('a'); });  // no longer a complete code
  check_refused<C>(bad, "not a complete prefix code");
  forge("huffman.lengths", [](section_bytes& b) { b.at('z' + 1) = 1; });  // a code for an absent byte
  check_refused<C>(bad, "do not match the symbol counts");
  forge("huffman.lengths", [](section_bytes& b) { b.resize(200); });
  check_refused<C>(bad, "Huffman code lengths");
  forge("huffman.counts", [](section_bytes& b) { b.at(8 * 'a') ^= 0x01; });  // one 'a' more or less
  check_refused<C>(bad, "the symbol counts");  // exceed the text, or do not add up to it
  forge("huffman.counts", [](section_bytes& b) {  // two symbols' counts swapped: the bits disagree
    std::swap_ranges(b.begin() + 8 * 'a', b.begin() + 8 * 'a' + 8, b.begin() + 8 * 'b');
  });
  check_refused<C>(bad, "");
  forge("huffman.levels", [](section_bytes& b) { b.resize(b.size() - 64); });
  check_refused<C>(bad, "wrong size");
  std::remove(path.c_str());
  std::remove(bad.c_str());
}
TEST_CASE_TEMPLATE_APPLY(fm_huffman_files, all_configs);

TEST_SUITE_END();
