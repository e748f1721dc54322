// strix check INPUT SAFILE: exit 0 if SAFILE is INPUT's suffix array, 1 if not.
#include <iostream>

#include "command.hpp"
#include "formats.hpp"

namespace strix::cli {

runner add_check_command(CLI::App& app) {
  struct options {
    std::string input, sa_file;
    common_options common;
  };
  auto o = std::make_shared<options>();
  auto* sub = app.add_subcommand("check", "check that SAFILE is the suffix array of INPUT");
  sub->add_option("INPUT", o->input, "input text")->required();
  sub->add_option("SAFILE", o->sa_file, "suffix array (32- or 64-bit, from the size)")->required();
  add_common_options(sub, o->common);
  return [o] {
    const std::uint64_t n = input_size(o->input);
    const int width = suffix_array_file_width(n, o->sa_file);
    auto e = open_engine(o->common, width == 64 ? 64 : 32);
    e->load_text(read_text(*e, o->input), n);
    const std::string wrong = e->check_suffix_array(read_index_array(*e, o->sa_file, n));
    if (!wrong.empty()) {
      std::cerr << "strix: suffix array is wrong: " << wrong << std::endl;
      return 1;
    }
    std::cout << "ok: correct " << e->width() << "-bit suffix array of " << n << " bytes" << std::endl;
    return 0;
  };
}

}  // namespace strix::cli
