// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The tool's FM-index on a session: built from a text (through text_index) and saved, or
// loaded from an index file, then queried in batches (strix/fm_index). No Kokkos types
// here; fm_job.cpp is the Kokkos half.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <strix/approximate/search_scheme.hpp>
#include <strix/fm_index/reference.hpp>

#include "../session.hpp"

namespace strix::cli {

struct fm_build_options {
  std::uint64_t sample_rate = 32;
  bool extract = true;
  int separator = -1;  // reference_separator for a reference of many sequences
  std::string algorithm = "auto";
  bool approximate = false;  // also the FM-index of the reversed text (approximate search)
};

// What the index file says beside the index itself.
struct fm_file_facts {
  int width = 32;
  bool folded = false;  // its sequences were case-folded (a FASTA reference without --keep-case)
};
// Reads an index file's header and meta (no Kokkos): the width to open the session with.
fm_file_facts read_fm_file_facts(const std::string& path);

// A batch of patterns: pattern q is bytes[offsets[q], offsets[q + 1]).
struct pattern_batch {
  std::vector<std::uint8_t> bytes;
  std::vector<std::uint64_t> offsets{0};
  // From FASTA/FASTQ files: each pattern's name, and (FASTQ) its qualities, as `bytes` (empty
  // when there are none).
  std::vector<std::string> names;
  std::vector<std::uint8_t> qualities;
  std::size_t size() const { return offsets.size() - 1; }
};

struct fm_answers {
  std::vector<std::uint64_t> counts;
  std::vector<std::uint64_t> starts, positions;  // locate: pattern q's at [starts[q], starts[q + 1])
  std::vector<std::uint8_t> distances;           // search: each position's smallest distance
};

class fm_job {
 public:
  explicit fm_job(session& s);
  ~fm_job();

  // Builds the index of text (n bytes) with the stages copy, suffix array, bwt, fm index (and,
  // for options.approximate, the same of the reversed text: stages "reverse copy to device" …).
  void build(const host_buffer& text, std::uint64_t n, const fm_build_options& options);
  // Saves it (with the reference's sequences, for a FASTA input) through `out`.
  using sink = std::function<void(const void* data, std::size_t bytes)>;
  void save(const sink& out, const reference_sequences* sequences, bool folded);
  // Loads an index file (of the session's width) and its sequences; with `reverse`, also its
  // reversed text's index (a clear error when the file has none).
  void load(const std::string& path, reference_sequences& sequences, bool reverse = false);
  std::uint64_t size() const;
  std::size_t bytes() const;
  std::string layout() const;

  fm_answers count(const pattern_batch& patterns);
  fm_answers locate(const pattern_batch& patterns, std::uint64_t max_occ);
  std::vector<std::uint8_t> extract(std::uint64_t start, std::uint64_t length);
  // Each hit's read (reads.bytes[reads.offsets[a], ...)) aligned to the text from starts[a]
  // (lengths[a] symbols) with at most k edits, on the device (strix/approximate/edit_alignment.hpp):
  // hit a's operations at ops[reads.offsets[a] + a * k, ...), op_counts[a] of them, distances[a].
  struct alignments {
    std::vector<std::uint8_t> ops;
    std::vector<std::uint32_t> op_counts;
    std::vector<std::uint8_t> distances;
  };
  alignments align(const pattern_batch& reads, const std::vector<std::uint64_t>& starts,
                   const std::vector<std::uint64_t>& lengths, int k);
  // Every start within the scheme's errors of each pattern (substitutions, or edits when `edit`),
  // at its smallest distance (loaded with `reverse`).
  fm_answers search(const pattern_batch& patterns, const approximate::search_scheme& scheme, bool edit);

  struct typed;

 private:
  std::unique_ptr<typed> typed_;
};

}  // namespace strix::cli
