// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's command line, parsed (CLI11) without running anything: what main()
// runs, or the exit status of a run that ended while parsing (help, version, usage error).
#include <memory>
#include <string>

#include "command.hpp"

namespace strix::cli {

// Kokkos' OpenMP backend keeps at most 512 threads (OpenMP MAX_THREAD_COUNT in 3.4 and 4.x);
// more overflow its thread pool.
constexpr int max_threads = 512;

struct command_line {
  int exit_status = -1;             // >= 0: done (--help, --version, or a usage error reported)
  int threads = 0;                  // --threads, 0 when not given
  std::string backend = "default";  // the subcommand's --backend
  bool distributed = false;         // the subcommand's --distributed: start MPI first
  runner run;                       // the subcommand, once Kokkos is up
  std::shared_ptr<CLI::App> app;    // kept alive for the runner, which may ask its subcommands
};

// Usage errors are reported as one "strix: error:" line (exit status 2).
command_line parse_command_line(int argc, char** argv);

}  // namespace strix::cli
