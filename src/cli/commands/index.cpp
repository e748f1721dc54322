// SPDX-License-Identifier: BSD-3-Clause
// strix index INPUT -o FILE [--sample-rate S] [--fasta] [--keep-case] [--no-extract]
// [--approximate]: the FM-index of a text, or of a FASTA/FASTQ reference's sequences, saved to
// an index file (with --approximate, that of the reversed text too, for strix search).
#include <CLI/CLI.hpp>

#include <strix/sa/algorithm.hpp>

#include "command.hpp"
#include "features/fm_job.hpp"
#include "formats.hpp"
#include "report.hpp"
#include "sequence_input.hpp"

namespace strix::cli {

runner add_index_command(CLI::App& app) {
  struct options {
    std::string input, output;
    std::uint64_t sample_rate = 32;
    bool fasta = false, keep_case = false, no_extract = false, approximate = false;
    int width = 0;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("index", "build the FM-index of INPUT (for count, locate and extract)");
  sub->add_option("INPUT", o->input,
                  "input: a FASTA/FASTQ reference (by --fasta or its name: .fa .fasta .fna .fq .fastq, also .gz), "
                  "else any bytes")
      ->required();
  sub->add_option("-o,--output", o->output, "the index file")->required();
  sub->add_option("--sample-rate", o->sample_rate,
                  "a suffix-array sample every S text positions: locate takes < S steps per occurrence")
      ->check(CLI::Range(std::uint64_t(1), std::uint64_t(1) << 30));
  sub->add_flag("--fasta", o->fasta, "read INPUT as FASTA/FASTQ whatever its name");
  sub->add_flag("--keep-case", o->keep_case, "keep a reference's lower-case letters (default: upper-case them)");
  sub->add_flag("--no-extract", o->no_extract, "leave out the samples extract needs (log2(n / S) / S bits per byte: 0.7 at S = 32 for 150 MB)");
  sub->add_flag("--approximate", o->approximate,
                "also index the reversed text, for `strix search` (twice the build time and the file's size)");
  sub->add_option("--width", o->width, "bits per position, 32 or 64 (default: the narrowest that holds n)");
  add_common_options(sub, o->common);
  add_algorithm_option(sub, o->common);
  return [o] {
    const bool reference = o->fasta || is_sequence_file_name(o->input);
    input_file in(o->input);
    reference_text ref;
    if (reference) {
      ref = read_reference(o->input, o->keep_case);
    } else {
      ref.text.resize(in.size());
      in.read_into(ref.text.data());
    }
    const std::uint64_t n = ref.text.size();
    const int width = choose_width(n, o->width);
    atomic_output out(o->output, {&in});
    auto s = open_session(o->common, width, n);
    host_buffer staged = s->allocate_host(n);
    if (n) std::memcpy(staged.data, ref.text.data(), n);
    ref.text = {};
    fm_job fm(*s);
    fm_build_options build;
    build.sample_rate = o->sample_rate;
    build.extract = !o->no_extract;
    build.separator = reference ? reference_separator : -1;
    build.algorithm = o->common.algorithm;
    build.approximate = o->approximate;
    fm.build(staged, n, build);
    fm.save([&](const void* data, std::size_t bytes) { out.write(data, bytes); },
            reference ? &ref.sequences : nullptr, reference && !o->keep_case);
    if (o->common.stats) {
      auto j = stats_json("index", n, *s);
      j["index_bytes"] = fm.bytes();
      j["bits_per_symbol"] = n ? 8.0 * double(fm.bytes()) / double(n) : 0.0;
      j["rank_layout"] = fm.layout();
      j["sequences"] = reference ? ref.sequences.size() : 0;
      print_json(j);
    }
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
