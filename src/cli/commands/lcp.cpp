// strix lcp INPUT -o OUT [--sa SAFILE] [--width 32|64]: the LCP array of a file.
#include "command.hpp"
#include "formats.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_lcp_command(CLI::App& app) {
  struct options {
    std::string input, output, sa_file;  // sa_file: a suffix array to use instead of building one
    int width = 0;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("lcp", "build the LCP array of INPUT (and its suffix array if needed)");
  sub->add_option("INPUT", o->input, "input text (any bytes)")->required();
  sub->add_option("-o,--output", o->output, "output: n raw little-endian integers")->required();
  sub->add_option("--sa", o->sa_file, "use this suffix array of INPUT (checked) instead of building one");
  sub->add_option("--width", o->width, "bits per entry, 32 or 64 (default: 32 if n < 2^32)");
  add_common_options(sub, o->common);
  return [o] {
    const std::uint64_t n = input_size(o->input);
    const int width = resolve_width(n, o->width, o->sa_file);
    atomic_output out(o->output);
    auto e = open_engine(o->common, width);
    e->load_text(read_text(*e, o->input), n);
    if (!o->sa_file.empty()) e->load_suffix_array(read_index_array(*e, o->sa_file, n));
    write_index_array(out, e->lcp());
    out.commit();
    if (o->common.stats) print_json(stats_json("lcp", n, *e));
    return 0;
  };
}

}  // namespace strix::cli
