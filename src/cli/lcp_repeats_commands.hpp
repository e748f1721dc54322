#pragma once
// `strix lcp` and `strix repeats`: LCP arrays and longest-repeat queries from the CLI.
#include <CLI/CLI.hpp>
#include <string>

#include "commands.hpp"

namespace strix::cli {

struct lcp_command {
  std::string input, output, sa_file;  // sa_file: a suffix array to use instead of building one
  int width = 0;                       // 0: 32 when n < 2^32 (or the SA file's width), else 64
};
int run_lcp(const lcp_command& cmd, const common_options& common);

struct repeats_command {
  std::string input, output, sa_file;
  std::string method = "compact";  // raw | compact
  std::string format = "binary";   // binary | tsv
  bool all = false;                // every longest repeat, not only the leftmost
  int width = 0;
};
int run_repeats(const repeats_command& cmd, const common_options& common);

// Registers both subcommands on `app`; keep the object alive while parsing and running.
class lcp_repeats_subcommands {
 public:
  explicit lcp_repeats_subcommands(CLI::App& app);
  lcp_repeats_subcommands(const lcp_repeats_subcommands&) = delete;
  lcp_repeats_subcommands& operator=(const lcp_repeats_subcommands&) = delete;

  bool selected() const { return lcp_app->parsed() || repeats_app->parsed(); }
  int run(const common_options& common) const;

  CLI::App* lcp_app = nullptr;
  CLI::App* repeats_app = nullptr;

 private:
  lcp_command lcp_;
  repeats_command repeats_;
};

}  // namespace strix::cli
