// SPDX-License-Identifier: BSD-3-Clause
// strix bwt INPUT -o OUT: the BWT of a file in divbwt layout; prints the primary index.
#include <CLI/CLI.hpp>
#include <iostream>

#include <strix/sa/algorithm.hpp>

#include "command.hpp"
#include "distributed.hpp"
#include "formats.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_bwt_command(CLI::App& app) {
  struct options {
    std::string input, output, primary_out;
    bool distributed = false;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("bwt", "Burrows-Wheeler transform of INPUT (divbwt layout)");
  sub->add_option("INPUT", o->input, "input text")->required();
  sub->add_option("-o,--output", o->output, "output: n bytes; the primary index is printed")->required();
  sub->add_option("--primary-out", o->primary_out, "also write the primary index (a decimal line) to this file");
  add_distributed_option(sub, o->distributed);
  add_common_options(sub, o->common);
  add_algorithm_option(sub, o->common);
  return [o] {
    if (o->distributed) return run_distributed_bwt(o->input, o->output, o->primary_out, o->common);
    input_file text(o->input);
    const std::uint64_t n = text.size();
    const int width = choose_width(n, 0);
    atomic_output out(o->output, {&text});
    std::unique_ptr<atomic_output> primary_out;
    if (!o->primary_out.empty()) primary_out = std::make_unique<atomic_output>(o->primary_out, std::initializer_list<const input_file*>{&text});
    auto s = open_session(o->common, width, n);
    index_job index(*s, parse_sa_options(o->common.algorithm));
    index.load_text(read_text(*s, text), n);
    std::uint64_t primary = 0;
    const host_buffer bwt = index.bwt(primary);
    write_bytes(out, bwt.data, bwt.bytes);
    if (primary_out) {
      const std::string line = std::to_string(primary) + "\n";
      primary_out->write(line.data(), line.size());
      primary_out->commit();
    }
    // The primary index is needed to invert the BWT: stdout (stderr with "-o -") must take it,
    // or the run fails and leaves no output.
    if (o->common.stats) {
      auto j = stats_json("bwt", n, *s);
      j["primary_index"] = primary;
      print_json(j);
    } else {
      progress().stop();
      std::ostream& to = report_stream();  // standard error when the BWT took standard output
      to << "primary index: " << primary << std::endl;
      if (!to) throw error(error_code::io_error, "cannot write the primary index");
    }
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
