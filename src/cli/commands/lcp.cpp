// SPDX-License-Identifier: BSD-3-Clause
// strix lcp INPUT -o OUT [--sa SAFILE] [--width 32|64]: the LCP array of a file.
#include <CLI/CLI.hpp>

#include "command.hpp"
#include "formats.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_lcp_command(CLI::App& app) {
  auto o = std::make_shared<indexed_input>();
  auto* sub = app.add_subcommand("lcp", "build the LCP array of INPUT (and its suffix array if needed)");
  add_indexed_input_options(sub, *o, "output: n raw little-endian integers");
  return [o] {
    auto run = start_indexed_run(*o);
    write_index_array(*run.out, run.index->lcp());
    if (o->common.stats) print_json(stats_json("lcp", run.n, *run.session));  // before the commit
    run.out->commit();
    return 0;
  };
}

}  // namespace strix::cli
