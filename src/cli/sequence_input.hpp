// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Texts and patterns for the FM-index commands: FASTA/FASTQ through htslib (plain or
// gzip-compressed), lines of bytes otherwise.
#include <cstdint>
#include <string>
#include <vector>

#include <strix/fm_index/reference.hpp>

#include "features/fm_job.hpp"

namespace strix::cli {

// True for the names a FASTA/FASTQ file goes by: .fa .fasta .fna .fq .fastq, each also .gz.
bool is_sequence_file_name(const std::string& path);

// A reference: its sequences joined by reference_separator, their names and places. Letters
// are upper-cased unless keep_case (other bytes, IUPAC codes included, are kept as they are).
struct reference_text {
  std::vector<std::uint8_t> text;
  reference_sequences sequences;
};
reference_text read_reference(const std::string& path, bool keep_case);

// Patterns: one per line (any bytes but newline; a last line without newline counts; "-" is
// standard input), or the sequences of a FASTA/FASTQ file when `sequences`. Upper-cased when
// `fold` (the index's reference was).
pattern_batch read_patterns(const std::string& path, bool sequences, bool fold);

}  // namespace strix::cli
