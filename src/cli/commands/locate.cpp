// SPDX-License-Identifier: BSD-3-Clause
// strix locate INDEX PATTERNS [-o OUT] [--max-occ N]: every occurrence of each pattern, as
// lines pattern_no<TAB>position (a text) or pattern_no<TAB>sequence<TAB>position (a
// reference), positions ascending per pattern.
#include <CLI/CLI.hpp>

#include <string>

#include "command.hpp"
#include "answer_format.hpp"
#include "fm_query.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_locate_command(CLI::App& app) {
  auto o = std::make_shared<fm_query_options>();
  auto max_occ = std::make_shared<std::uint64_t>(0);
  auto* sub = app.add_subcommand("locate", "list where each pattern occurs in an FM-index");
  add_fm_query_options(sub, *o, true);
  sub->add_option("--max-occ", *max_occ,
                  "at most N occurrences per pattern (0: all); a capped pattern's line count is N, "
                  "and stderr says how many patterns were capped");
  return [o, max_occ] {
    answer_output out(*o);
    auto run = open_fm_query(*o);
    const auto patterns = read_query_patterns(*o, run);
    const auto found = run.fm->locate(patterns, *max_occ);
    const auto t0 = run.s->begin_stage("write output");
    std::string text;
    std::uint64_t capped = 0;
    const bool reference = !run.sequences.empty();
    std::string number;
    for (std::size_t q = 0; q < patterns.size(); ++q) {
      if (found.starts[q + 1] - found.starts[q] < found.counts[q]) ++capped;
      if (found.starts[q + 1] == found.starts[q]) continue;
      number.clear();
      append_decimal(number, q);
      number += '\t';
      for (std::uint64_t k = found.starts[q]; k < found.starts[q + 1]; ++k) {
        text += number;
        if (reference) {
          const auto [sequence, offset] = run.sequences.locate(found.positions[k]);
          text += run.sequences.names[sequence];
          text += '\t';
          append_decimal(text, offset);
        } else {
          append_decimal(text, found.positions[k]);
        }
        text += '\n';
      }
      if (text.size() > (1u << 22)) {
        out.write(text);
        text.clear();
      }
    }
    out.write(text);
    run.s->end_stage("write_output", t0);
    if (capped) std::fprintf(stderr, "strix: %llu patterns had more than %llu occurrences (capped)\n",
                             static_cast<unsigned long long>(capped), static_cast<unsigned long long>(*max_occ));
    if (o->common.stats) {
      auto j = stats_json("locate", run.fm->size(), *run.s);
      j["patterns"] = patterns.size();
      j["occurrences"] = found.positions.size();
      j["capped_patterns"] = capped;
      print_json(j);
    }
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
