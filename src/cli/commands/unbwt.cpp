// strix unbwt BWT -o OUT --primary P: the text back from a BWT (host only).
#include <strix/bwt/inverse_bwt.hpp>

#include "command.hpp"
#include "formats.hpp"

namespace strix::cli {

runner add_unbwt_command(CLI::App& app) {
  struct options {
    std::string input, output;
    std::uint64_t primary = 0;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("unbwt", "invert a BWT made by `strix bwt` (host)");
  sub->add_option("INPUT", o->input, "BWT file")->required();
  sub->add_option("-o,--output", o->output, "output text")->required();
  sub->add_option("--primary", o->primary, "primary index printed by `strix bwt`")->required();
  return [o] {
    atomic_output out(o->output);
    const auto bwt = read_bytes(o->input);
    const auto text = inverse_bwt(bwt.data(), bwt.size(), o->primary);
    write_bytes(out, text.data(), text.size());
    out.commit();
    return 0;
  };
}

}  // namespace strix::cli
