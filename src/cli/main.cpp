// strix command-line tool: suffix arrays, BWT, LCP arrays, longest repeats, checks and
// wavelet trees on any Kokkos backend. The subcommands live in commands/, one file each.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <strix/config.hpp>
#include <strix/error.hpp>

#include "command.hpp"
#include "engine.hpp"
#include "files.hpp"

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

// One line whatever the message holds (file names may contain newlines).
int fail(const std::string& message, int status) {
  std::string line;
  for (char c : message) {
    if (c == '\n') line += "\\n";
    else if (c == '\r') line += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20) line += '?';
    else line += c;
  }
  std::fprintf(stderr, "strix: error: %s\n", line.c_str());
  return status;
}

// Kokkos' OpenMP backend keeps at most 512 threads (OpenMP MAX_THREAD_COUNT in 3.4 and 4.x);
// more overflow its thread pool.
constexpr int max_threads = 512;

// A thread count from the environment: unset is fine, anything but 1..max_threads is not.
void check_thread_variable(const char* name) {
  const char* value = std::getenv(name);
  if (!value) return;
  char* end = nullptr;
  const long n = std::strtol(value, &end, 10);
  STRIX_USER_REQUIRE(end != value && *end == '\0' && n >= 1 && n <= max_threads,
                     std::string(name) + "='" + value + "' is not a number of threads in 1.." +
                         std::to_string(max_threads) + " (unset it, or use --threads)");
}

}  // namespace

int main(int argc, char** argv) {
  using namespace strix::cli;
  CLI::App app{"strix: suffix arrays, BWT, LCP arrays and longest repeats on GPUs and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("strix ") + STRIX_VERSION_STRING +
                                        " (Kokkos backends: " + enabled_backends() + ")");
  int threads = 0;
  app.add_option("--threads", threads, "host threads (OpenMP backend; default: all)")
      ->check(CLI::Range(1, max_threads));
  std::vector<std::pair<std::string, runner>> commands = {
      {"sa", add_sa_command(app)},           {"bwt", add_bwt_command(app)},
      {"unbwt", add_unbwt_command(app)},     {"check", add_check_command(app)},
      {"lcp", add_lcp_command(app)},         {"repeats", add_repeats_command(app)},
      {"demo", add_demo_command(app)},       {"wt", add_wt_command(app)}};
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);  // --help, --version
  } catch (const CLI::RequiredError& e) {
    if (app.get_subcommands().empty())
      return fail(argc > 1 && argv[1][0] != '-'
                      ? "unknown subcommand '" + std::string(argv[1]) + "' (see strix --help)"
                      : "a subcommand is required (see strix --help)", 2);
    // CLI11 checks required options before unknown ones; the unknown one is the real mistake.
    const auto extra = app.remaining(true);
    if (!extra.empty()) return fail("unknown option or argument '" + extra.front() + "' (see strix --help)", 2);
    return fail(e.what(), 2);
  } catch (const CLI::ParseError& e) {
    return fail(e.what(), 2);
  }

  install_signal_cleanup();
  // Quiet Kokkos' OpenMP binding advice; users who set OMP_PROC_BIND keep theirs.
  setenv("OMP_PROC_BIND", "false", 0);
  try {
    check_thread_variable("KOKKOS_NUM_THREADS");
    check_thread_variable("OMP_NUM_THREADS");
    if (threads == 0 && std::getenv("OMP_NUM_THREADS") == nullptr && std::getenv("KOKKOS_NUM_THREADS") == nullptr &&
        std::thread::hardware_concurrency() > unsigned(max_threads))
      threads = max_threads;
    if (threads > 0 && unsigned(threads) > std::thread::hardware_concurrency())
      std::fprintf(stderr, "strix: note: --threads %d is more than the %u hardware threads\n", threads,
                   std::thread::hardware_concurrency());
    auto kokkos = start_kokkos(threads);
    int status = 0;
    for (const auto& c : commands)
      if (app.get_subcommand(c.first)->parsed()) status = c.second();
    return status;
  } catch (const strix::error& e) {
    return fail(e.what(), exit_status(e.code()));
  } catch (const std::bad_alloc&) {
    return fail("out of host memory", exit_status(strix::error_code::host_out_of_memory));
  } catch (const std::exception& e) {
    return fail(e.what(), exit_status(strix::error_code::internal));
  }
}
