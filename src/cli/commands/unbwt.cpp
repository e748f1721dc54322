// SPDX-License-Identifier: BSD-3-Clause
// strix unbwt BWT -o OUT --primary P: the text back from a BWT (host only).
#include <CLI/CLI.hpp>
#include <charconv>

#include <strix/bwt/inverse_bwt.hpp>

#include "command.hpp"
#include "formats.hpp"
#include "progress.hpp"

namespace strix::cli {

runner add_unbwt_command(CLI::App& app) {
  struct options {
    std::string input, output;
    std::string primary;  // parsed here: CLI11 turns "-1" into 2^64 - 1
    common_options common;  // --progress, --quiet
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("unbwt", "invert a BWT made by `strix bwt` (host)");
  sub->add_option("INPUT", o->input, "BWT file")->required();
  sub->add_option("-o,--output", o->output, "output text")->required();
  sub->add_option("--primary", o->primary, "primary index printed by `strix bwt`")->required();
  add_progress_options(sub, o->common);
  return [o] {
    std::uint64_t primary = 0;
    const char* first = o->primary.data();
    const char* last = first + o->primary.size();
    const auto parsed = std::from_chars(first, last, primary);
    STRIX_USER_REQUIRE(!o->primary.empty() && parsed.ec == std::errc() && parsed.ptr == last,
                       "--primary must be a whole number (the primary index `strix bwt` printed), not '" +
                           o->primary + "'");
    input_file in(o->input);
    atomic_output out(o->output, {&in});
    start_progress(o->common, in.size());
    const auto bwt = read_bytes(in);
    progress().stage("inverse bwt");
    const auto text = inverse_bwt(bwt.data(), bwt.size(), primary);
    write_bytes(out, text.data(), text.size());
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
