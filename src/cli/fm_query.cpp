// SPDX-License-Identifier: BSD-3-Clause
// What count, locate and extract share (fm_query.hpp).
#include "fm_query.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>

#include <cstdio>

#include "files.hpp"
#include "sequence_input.hpp"

namespace strix::cli {

void add_fm_query_options(CLI::App* sub, fm_query_options& o, bool with_patterns) {
  sub->add_option("INDEX", o.index, "an index file of `strix index`")->required();
  if (with_patterns)
    sub->add_option("PATTERNS", o.patterns,
                    "patterns: one per line (any bytes but newline), - for standard input, or FASTA/FASTQ reads "
                    "(--fasta, or by the name: .fa .fasta .fna .fq .fastq, also .gz)")
        ->required();
  sub->add_option("-o,--output", o.output, "output file (default: standard output)");
  if (with_patterns) sub->add_flag("--fasta", o.fasta, "read PATTERNS as FASTA/FASTQ whatever its name");
  add_common_options(sub, o.common);
}

fm_query_run open_fm_query(const fm_query_options& o, bool reverse) {
  STRIX_USER_REQUIRE(!o.common.stats || !o.output.empty(), "--stats prints on standard output: give the answers -o FILE");
  const auto facts = read_fm_file_facts(o.index);
  fm_query_run run;
  run.folded = facts.folded;
  run.s = open_session(o.common, facts.width, 0);
  run.fm = std::make_unique<fm_job>(*run.s);
  run.fm->load(o.index, run.sequences, reverse);
  return run;
}

pattern_batch read_query_patterns(const fm_query_options& o, const fm_query_run& run) {
  const auto t0 = run.s->begin_stage("read input");
  auto patterns = read_patterns(o.patterns, o.fasta || is_sequence_file_name(o.patterns), run.folded);
  run.s->end_stage("read_input", t0);
  return patterns;
}

answer_output::answer_output(const fm_query_options& o) {
  if (o.output.empty()) return;
  // The inputs as files, only to refuse an output that would replace one of them.
  const auto index = std::make_unique<input_file>(o.index);
  std::unique_ptr<input_file> patterns;
  if (!o.patterns.empty() && o.patterns != "-") patterns = std::make_unique<input_file>(o.patterns);
  file_ = std::make_unique<atomic_output>(o.output, std::initializer_list<const input_file*>{index.get(), patterns.get()});
}
answer_output::~answer_output() = default;

void answer_output::write(const std::string& text) {
  if (file_) {
    file_->write(text.data(), text.size());
  } else {
    STRIX_USER_REQUIRE(std::fwrite(text.data(), 1, text.size(), stdout) == text.size(),
                       "cannot write the answers to standard output");
  }
}

int answer_output::descriptor_copy() {
  if (file_) return file_->descriptor_copy();
  STRIX_USER_REQUIRE(std::fflush(stdout) == 0, "cannot write the answers to standard output");
  const int fd = ::dup(1);
  STRIX_USER_REQUIRE(fd >= 0, "cannot write the answers to standard output");
  return fd;
}

void answer_output::commit() {
  if (file_) file_->commit();
  else STRIX_USER_REQUIRE(std::fflush(stdout) == 0, "cannot write the answers to standard output");
}

}  // namespace strix::cli
