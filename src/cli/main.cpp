// strix command-line tool: suffix arrays, BWT, LCP arrays, longest repeats and checks on
// any Kokkos backend. The subcommands live in commands/, one file each.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <utility>
#include <vector>

#include <strix/config.hpp>
#include <strix/error.hpp>

#include "command.hpp"
#include "engine.hpp"

namespace {

// Exit statuses: 1 = a checked suffix array is wrong (strix check), the rest errors.
int exit_status(strix::error_code code) {
  switch (code) {
    case strix::error_code::invalid_input: return 2;
    case strix::error_code::io_error: return 3;
    case strix::error_code::host_out_of_memory:
    case strix::error_code::device_out_of_memory: return 4;
    default: return 5;
  }
}

}  // namespace

int main(int argc, char** argv) {
  using namespace strix::cli;
  CLI::App app{"strix: suffix arrays, BWT, LCP arrays and longest repeats on GPUs and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("strix ") + STRIX_VERSION_STRING +
                                        " (Kokkos backends: " + enabled_backends() + ")");
  std::vector<std::pair<std::string, runner>> commands = {
      {"sa", add_sa_command(app)},           {"bwt", add_bwt_command(app)},
      {"unbwt", add_unbwt_command(app)},     {"check", add_check_command(app)},
      {"lcp", add_lcp_command(app)},         {"repeats", add_repeats_command(app)},
      {"demo", add_demo_command(app)}};
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  // Quiet Kokkos' OpenMP binding advice; users who set OMP_PROC_BIND keep theirs.
  setenv("OMP_PROC_BIND", "false", 0);
  int status = 0;
  auto kokkos = start_kokkos(argc, argv);
  try {
    for (const auto& c : commands)
      if (app.get_subcommand(c.first)->parsed()) status = c.second();
  } catch (const strix::error& e) {
    std::fprintf(stderr, "strix: error: %s\n", e.what());
    status = exit_status(e.code());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "strix: error: out of host memory\n");
    status = exit_status(strix::error_code::host_out_of_memory);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "strix: error: %s\n", e.what());
    status = exit_status(strix::error_code::internal);
  }
  return status;
}
