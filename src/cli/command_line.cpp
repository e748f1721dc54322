// SPDX-License-Identifier: BSD-3-Clause
#include "command_line.hpp"

#include <CLI/CLI.hpp>
#include <utility>
#include <vector>

#include <strix/config.hpp>

#include "failure.hpp"

namespace strix::cli {

command_line parse_command_line(int argc, char** argv) {
  command_line parsed;
  parsed.app = std::make_shared<CLI::App>("strix: suffix arrays, BWT, LCP arrays, longest repeats and wavelet trees on GPUs and CPUs");
  CLI::App& app = *parsed.app;
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("strix ") + STRIX_VERSION_STRING +
                                        " (Kokkos backends: " + enabled_backends() +
                                        (STRIX_HAS_MPI ? "; MPI" : "") + (STRIX_HAS_NCCL ? "; NCCL" : "") + "; Kokkos " + kokkos_version() + ")");
  app.add_option("--threads", parsed.threads, "host threads (OpenMP backend; default: all)")
      ->check(CLI::Range(1, max_threads));
  const std::vector<std::pair<std::string, runner>> commands = {
#define STRIX_CLI_ADD_COMMAND(name) {#name, add_##name##_command(app)},
      STRIX_CLI_COMMANDS(STRIX_CLI_ADD_COMMAND)
#undef STRIX_CLI_ADD_COMMAND
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    parsed.exit_status = app.exit(e);  // --help, --version
    return parsed;
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty()) {
      parsed.exit_status = fail(argc > 1 && argv[1][0] != '-'
                                    ? "unknown subcommand '" + std::string(argv[1]) + "' (see strix --help)"
                                    : "a subcommand is required (see strix --help)", 2);
      return parsed;
    }
    // CLI11 checks required options before unknown ones; the unknown one is the real mistake.
    const auto extra = app.remaining(true);
    parsed.exit_status =
        fail(extra.empty() ? std::string(e.what()) : "unknown option or argument '" + extra.front() + "' (see strix --help)", 2);
    return parsed;
  } catch (const CLI::ParseError& e) {
    parsed.exit_status = fail(e.what(), 2);
    return parsed;
  }
  for (const auto& c : commands) {
    const CLI::App* sub = app.get_subcommand(c.first);
    if (!sub->parsed()) continue;
    parsed.run = c.second;
    // The options may sit on a nested subcommand (`strix wt build --backend serial`): the
    // innermost parsed one holds them.
    const CLI::App* leaf = sub;
    while (!leaf->get_subcommands().empty()) leaf = leaf->get_subcommands().front();
    const CLI::Option* backend = leaf->get_option_no_throw("--backend");
    if (backend && backend->count() > 0) parsed.backend = backend->as<std::string>();
    const CLI::Option* distributed = leaf->get_option_no_throw("--distributed");
    parsed.distributed = distributed && distributed->count() > 0;
  }
  return parsed;
}

}  // namespace strix::cli
