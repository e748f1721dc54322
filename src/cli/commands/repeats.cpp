// SPDX-License-Identifier: BSD-3-Clause
// strix repeats INPUT -o OUT [--all] [--method raw|compact] [--format binary|tsv]
// [--sa SAFILE] [--width 32|64]: the longest repeat(s) covering every position.
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "formats.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_repeats_command(CLI::App& app) {
  struct options : indexed_input {
    std::string method = "compact";  // raw | compact
    std::string format = "binary";   // binary | tsv
    bool all = false;                // every longest repeat, not only the leftmost
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("repeats", "longest repeat covering every position of INPUT (leftmost, or --all)");
  add_indexed_input_options(sub, *o, "output: (start, length) records; see the README");
  sub->add_flag("--all", o->all, "every longest repeat of every position");
  sub->add_option("--method", o->method, "raw or compact LLR array (default compact)");
  sub->add_option("--format", o->format, "binary (default) or tsv");
  return [o] {
    STRIX_USER_REQUIRE(o->method == "raw" || o->method == "compact",
                       "--method must be raw or compact, not '" + o->method + "'");
    STRIX_USER_REQUIRE(o->format == "binary" || o->format == "tsv",
                       "--format must be binary or tsv, not '" + o->format + "'");
    auto run = start_indexed_run(*o);
    const auto result = run.index->repeats(o->all, o->method == "raw");
    write_repeats(*run.out, result, run.n, run.width, o->all, o->format == "tsv");
    if (o->common.stats) {  // before the commit: all or nothing
      auto j = stats_json("repeats", run.n, *run.session);
      j["method"] = o->method;
      j["mode"] = o->all ? "all" : "leftmost";
      print_json(j);
    }
    run.out->commit();
    return 0;
  };
}

}  // namespace strix::cli
