// SPDX-License-Identifier: BSD-3-Clause
// strix sa INPUT -o OUT [--width 32|64] [--generalized]: the suffix array of a file (with
// --generalized, of the strings its 0x00 bytes end).
#include <CLI/CLI.hpp>

#include <strix/sa/algorithm.hpp>

#include "command.hpp"
#include "distributed.hpp"
#include "formats.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_sa_command(CLI::App& app) {
  struct options {
    std::string input, output;
    int width = 0;  // 0: the narrowest that holds n
    bool distributed = false, generalized = false;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("sa", "build the suffix array of INPUT");
  sub->add_option("INPUT", o->input, "input text (any bytes)")->required();
  sub->add_option("-o,--output", o->output, "output: raw little-endian integers")->required();
  sub->add_option("--width", o->width, "bits per entry, 32 or 64 (default: 32 if n < 2^32)");
  add_distributed_option(sub, o->distributed);
  sub->add_flag("--generalized", o->generalized,
                "each 0x00 byte ends a string: suffixes compare up to it, and two that reach 0x00s at the same "
                "offset in the order of those bytes (a generalized suffix array, libsais' gsa order)")
      ->excludes("--distributed");
  add_common_options(sub, o->common);
  add_algorithm_option(sub, o->common);
  return [o] {
    if (o->distributed) return run_distributed_sa(o->input, o->output, o->width, o->common);
    input_file text(o->input);
    const std::uint64_t n = text.size();
    const int width = choose_width(n, o->width);
    atomic_output out(o->output, {&text});  // fails early on a bad output path
    auto s = open_session(o->common, width, n);
    index_job index(*s, parse_sa_options(o->common.algorithm));
    index.load_text(read_text(*s, text), n);
    if (o->generalized) {
      write_index_array(out, index.generalized_suffix_array());
    } else {
      index.build_suffix_array();
      write_index_array(out, index.suffix_array());
    }
    if (o->common.stats) print_json(stats_json("sa", n, *s));  // before the commit: all or nothing
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
