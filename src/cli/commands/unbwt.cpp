// SPDX-License-Identifier: BSD-3-Clause
// strix unbwt BWT -o OUT --primary P: the text back from a BWT, on the GPU or the host.
#include <CLI/CLI.hpp>
#include <charconv>

#include "command.hpp"
#include "features/index_job.hpp"
#include "formats.hpp"
#include "progress.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_unbwt_command(CLI::App& app) {
  struct options {
    std::string input, output;
    std::string primary;  // parsed here: CLI11 turns "-1" into 2^64 - 1
    common_options common;  // --backend, --stats, --progress, --quiet
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("unbwt", "invert a BWT made by `strix bwt`");
  sub->add_option("INPUT", o->input, "BWT file")->required();
  sub->add_option("-o,--output", o->output, "output text")->required();
  sub->add_option("--primary", o->primary, "primary index printed by `strix bwt`")->required();
  add_common_options(sub, o->common);
  return [o] {
    std::uint64_t primary = 0;
    const char* first = o->primary.data();
    const char* last = first + o->primary.size();
    const auto parsed = std::from_chars(first, last, primary);
    STRIX_USER_REQUIRE(!o->primary.empty() && parsed.ec == std::errc() && parsed.ptr == last,
                       "--primary must be a whole number (the primary index `strix bwt` printed), not '" +
                           o->primary + "'");
    input_file in(o->input);
    const std::uint64_t n = in.size();
    atomic_output out(o->output, {&in});
    auto s = open_session(o->common, 32, n);
    const host_buffer bwt = read_text(*s, in);
    const host_buffer text = invert_bwt(*s, bwt, n, primary);
    write_bytes(out, text.data, n);
    if (o->common.stats) {
      auto j = stats_json("unbwt", n, *s);
      j["primary_index"] = primary;
      print_json(j);
    }
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
