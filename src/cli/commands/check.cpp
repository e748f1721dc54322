// SPDX-License-Identifier: BSD-3-Clause
// strix check INPUT SAFILE [--generalized]: exit 0 if SAFILE is INPUT's suffix array (or its
// generalized suffix array), 1 if not.
#include <CLI/CLI.hpp>
#include <iostream>

#include "command.hpp"
#include "distributed.hpp"
#include "formats.hpp"
#include "progress.hpp"

namespace strix::cli {

runner add_check_command(CLI::App& app) {
  struct options {
    std::string input, sa_file;
    bool distributed = false, generalized = false;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("check", "check that SAFILE is the suffix array of INPUT");
  sub->add_option("INPUT", o->input, "input text")->required();
  sub->add_option("SAFILE", o->sa_file, "suffix array (32- or 64-bit, from the size)")->required();
  add_distributed_option(sub, o->distributed);
  sub->add_flag("--generalized", o->generalized,
                "SAFILE is a generalized suffix array (strix sa --generalized: each 0x00 byte ends a string)")
      ->excludes("--distributed");
  add_common_options(sub, o->common);
  return [o] {
    if (o->distributed) return run_distributed_check(o->input, o->sa_file, o->common);
    input_file text(o->input), sa(o->sa_file);
    const std::uint64_t n = text.size();
    const int width = suffix_array_file_width(n, sa);
    auto s = open_session(o->common, width == 64 ? 64 : 32, n);
    index_job index(*s);
    index.load_text(read_text(*s, text), n);
    const auto entries = read_index_array(*s, sa, n);
    const std::string wrong =
        o->generalized ? index.check_generalized_suffix_array(entries) : index.check_suffix_array(entries);
    progress().stop();
    if (!wrong.empty()) {
      std::cerr << "strix: " << (o->generalized ? "generalized " : "") << "suffix array is wrong: " << wrong
                << std::endl;
      return 1;
    }
    std::cout << "ok: correct " << s->width() << "-bit " << (o->generalized ? "generalized " : "") << "suffix array of "
              << n << " bytes" << std::endl;
    if (!std::cout) throw error(error_code::io_error, "cannot write to standard output");
    return 0;
  };
}

}  // namespace strix::cli
