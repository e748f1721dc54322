// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What count, locate and extract share: an index file opened on a session of its width, and
// the patterns read as the index asks (folded for a folded reference).
#include <memory>
#include <string>

#include "command.hpp"
#include "features/fm_job.hpp"

namespace strix::cli {

struct fm_query_options {
  std::string index, patterns, output;
  bool fasta = false;
  common_options common;
};
// INDEX, PATTERNS (unless `with_patterns` is false), -o/--output, --fasta and the common options.
void add_fm_query_options(CLI::App* sub, fm_query_options& o, bool with_patterns);

struct fm_query_run {
  std::unique_ptr<session> s;
  std::unique_ptr<fm_job> fm;
  reference_sequences sequences;
  bool folded = false;
};
// Opens the index (and its session) and loads it; with `reverse`, its reversed text's index too
// (strix search).
fm_query_run open_fm_query(const fm_query_options& o, bool reverse = false);
// The patterns, from their file or standard input, as FASTA/FASTQ when asked or so named
// (the stage read_input).
pattern_batch read_query_patterns(const fm_query_options& o, const fm_query_run& run);

// Where the answers go: -o FILE (all or nothing, at commit) or standard output. --stats
// prints on standard output too, so it needs -o. Made before the index is loaded, so that a bad
// output fails at once; never the index or the patterns file.
class answer_output {
 public:
  explicit answer_output(const fm_query_options& o);
  ~answer_output();
  void write(const std::string& text);
  // A descriptor of the output for htslib's BGZF (which closes it); see atomic_output.
  int descriptor_copy();
  void commit();

 private:
  std::unique_ptr<atomic_output> file_;
};

}  // namespace strix::cli
