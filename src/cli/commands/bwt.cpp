// strix bwt INPUT -o OUT: the BWT of a file in divbwt layout; prints the primary index.
#include <iostream>

#include "command.hpp"
#include "formats.hpp"
#include "report.hpp"

namespace strix::cli {

runner add_bwt_command(CLI::App& app) {
  struct options {
    std::string input, output;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("bwt", "Burrows-Wheeler transform of INPUT (divbwt layout)");
  sub->add_option("INPUT", o->input, "input text")->required();
  sub->add_option("-o,--output", o->output, "output: n bytes; the primary index is printed")->required();
  add_common_options(sub, o->common);
  return [o] {
    const std::uint64_t n = input_size(o->input);
    const int width = choose_width(n, 0);
    atomic_output out(o->output);
    auto e = open_engine(o->common, width, n >= (256ull << 20));
    e->load_text(read_text(*e, o->input), n);
    std::uint64_t primary = 0;
    const host_buffer bwt = e->bwt(primary);
    write_bytes(out, bwt.data, bwt.bytes);
    out.commit();
    if (o->common.stats) {
      auto j = stats_json("bwt", n, *e);
      j["primary_index"] = primary;
      print_json(j);
    } else {
      std::cout << "primary index: " << primary << std::endl;
    }
    return 0;
  };
}

}  // namespace strix::cli
