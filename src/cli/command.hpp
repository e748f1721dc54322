#pragma once
// The subcommands of the strix tool, one file each in commands/. Each registers itself on
// the CLI11 app and returns what runs it once Kokkos is up; a runner returns the exit
// status and throws strix::error for failures main() turns into one line.
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>

#include "engine.hpp"

namespace strix::cli {

struct common_options {
  std::string backend = "default";
  bool stats = false;     // one JSON object on stdout
  bool progress = false;  // per-phase lines on stderr
};

using runner = std::function<int()>;

// --backend, --stats, --progress on a subcommand.
void add_common_options(CLI::App* sub, common_options& common);

// The engine the common options ask for; `progress` also turns on phase lines.
std::unique_ptr<engine> open_engine(const common_options& common, int width, bool progress = false);

runner add_sa_command(CLI::App& app);
runner add_bwt_command(CLI::App& app);
runner add_unbwt_command(CLI::App& app);
runner add_check_command(CLI::App& app);
runner add_lcp_command(CLI::App& app);
runner add_repeats_command(CLI::App& app);
runner add_demo_command(CLI::App& app);

}  // namespace strix::cli
