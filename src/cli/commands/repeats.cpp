// strix repeats INPUT -o OUT [--all] [--method raw|compact] [--format binary|tsv]
// [--sa SAFILE] [--width 32|64]: the longest repeat(s) covering every position.
#include "command.hpp"
#include "formats.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_repeats_command(CLI::App& app) {
  struct options {
    std::string input, output, sa_file;
    std::string method = "compact";  // raw | compact
    std::string format = "binary";   // binary | tsv
    bool all = false;                // every longest repeat, not only the leftmost
    int width = 0;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("repeats", "longest repeat covering every position of INPUT (leftmost, or --all)");
  sub->add_option("INPUT", o->input, "input text (any bytes)")->required();
  sub->add_option("-o,--output", o->output, "output: (start, length) records; see the README")->required();
  sub->add_flag("--all", o->all, "every longest repeat of every position");
  sub->add_option("--method", o->method, "raw or compact LLR array (default compact)");
  sub->add_option("--format", o->format, "binary (default) or tsv");
  sub->add_option("--sa", o->sa_file, "use this suffix array of INPUT (checked)");
  sub->add_option("--width", o->width, "bits per integer, 32 or 64 (default: 32 if n < 2^32)");
  add_common_options(sub, o->common);
  return [o] {
    STRIX_USER_REQUIRE(o->method == "raw" || o->method == "compact",
                       "--method must be raw or compact, not '" + o->method + "'");
    STRIX_USER_REQUIRE(o->format == "binary" || o->format == "tsv",
                       "--format must be binary or tsv, not '" + o->format + "'");
    const std::uint64_t n = input_size(o->input);
    const int width = resolve_width(n, o->width, o->sa_file);
    atomic_output out(o->output);
    auto e = open_engine(o->common, width);
    e->load_text(read_text(*e, o->input), n);
    if (!o->sa_file.empty()) e->load_suffix_array(read_index_array(*e, o->sa_file, n));
    const auto result = e->repeats(o->all, o->method == "raw");
    write_repeats(out, result, n, width, o->all, o->format == "tsv");
    out.commit();
    if (o->common.stats) {
      auto j = stats_json("repeats", n, *e);
      j["method"] = o->method;
      j["mode"] = o->all ? "all" : "leftmost";
      print_json(j);
    }
    return 0;
  };
}

}  // namespace strix::cli
