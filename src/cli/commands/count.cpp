// SPDX-License-Identifier: BSD-3-Clause
// strix count INDEX PATTERNS [-o OUT]: occurrences of each pattern, one decimal per line.
#include <CLI/CLI.hpp>

#include <string>

#include "command.hpp"
#include "answer_format.hpp"
#include "fm_query.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_count_command(CLI::App& app) {
  auto o = std::make_shared<fm_query_options>();
  auto* sub = app.add_subcommand("count", "count the occurrences of each pattern in an FM-index");
  add_fm_query_options(sub, *o, true);
  return [o] {
    answer_output out(*o);
    auto run = open_fm_query(*o);
    const auto patterns = read_query_patterns(*o, run);
    const auto answers = run.fm->count(patterns);
    const auto t0 = run.s->begin_stage("write output");
    out.write(decimal_lines(answers.counts));
    run.s->end_stage("write_output", t0);
    if (o->common.stats) {
      auto j = stats_json("count", run.fm->size(), *run.s);
      j["patterns"] = patterns.size();
      print_json(j);
    }
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
