// strix command-line tool: suffix arrays, BWT and checks on any Kokkos backend.
#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <iostream>
#include <new>

#include <strix/error.hpp>
#include <strix/version.hpp>

#include "commands.hpp"
#include "lcp_repeats_commands.hpp"

namespace {

// Exit statuses: 1 = a checked suffix array is wrong (run_check), the rest errors.
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
  CLI::App app{"strix: suffix arrays, BWT and suffix-array checks on GPUs and CPUs"};
  app.require_subcommand(1);
  app.set_version_flag("--version",
                       "strix " + strix::version() + " (Kokkos backends: " +
                           strix::enabled_backends() + ")");
  common_options common;
  auto add_common = [&common](CLI::App* sub) {
    sub->add_option("--backend", common.backend,
                    "Kokkos backend: default, cuda, openmp or serial (enabled ones: " +
                        strix::enabled_backends() + ")");
    sub->add_flag("--stats", common.stats, "print one JSON object with timings and memory on stdout");
    sub->add_flag("--progress", common.progress, "print per-phase times on stderr");
  };

  sa_command sa;
  auto* sa_app = app.add_subcommand("sa", "build the suffix array of INPUT");
  sa_app->add_option("INPUT", sa.input, "input text (any bytes)")->required();
  sa_app->add_option("-o,--output", sa.output, "output: raw little-endian integers")->required();
  sa_app->add_option("--width", sa.width, "bits per entry, 32 or 64 (default: 32 if n < 2^32)");
  add_common(sa_app);

  bwt_command bw;
  auto* bwt_app = app.add_subcommand("bwt", "Burrows-Wheeler transform of INPUT (divbwt layout)");
  bwt_app->add_option("INPUT", bw.input, "input text")->required();
  bwt_app->add_option("-o,--output", bw.output, "output: n bytes; the primary index is printed")->required();
  add_common(bwt_app);

  unbwt_command ub;
  auto* unbwt_app = app.add_subcommand("unbwt", "invert a BWT made by `strix bwt` (host)");
  unbwt_app->add_option("INPUT", ub.input, "BWT file")->required();
  unbwt_app->add_option("-o,--output", ub.output, "output text")->required();
  unbwt_app->add_option("--primary", ub.primary, "primary index printed by `strix bwt`")->required();

  check_command ck;
  auto* check_app = app.add_subcommand("check", "check that SAFILE is the suffix array of INPUT");
  check_app->add_option("INPUT", ck.input, "input text")->required();
  check_app->add_option("SAFILE", ck.sa_file, "suffix array (32- or 64-bit, from the size)")->required();
  add_common(check_app);

  demo_command demo;
  auto* demo_app = app.add_subcommand(
      "demo", "build and check the suffix array of a generated English-like text; print throughput");
  demo_app->add_option("--size", demo.size, "bytes of generated text (default 32 MiB)");
  demo_app->add_option("--repeats", demo.repeats, "constructions to time (median is reported)");
  add_common(demo_app);

  lcp_repeats_subcommands lcp_repeats(app);  // `strix lcp` and `strix repeats`
  add_common(lcp_repeats.lcp_app);
  add_common(lcp_repeats.repeats_app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }

  // Quiet Kokkos' OpenMP binding advice; users who set OMP_PROC_BIND keep theirs.
  setenv("OMP_PROC_BIND", "false", 0);
  int status = 0;
  Kokkos::ScopeGuard kokkos(argc, argv);
  try {
    if (*sa_app) status = run_sa(sa, common);
    else if (*bwt_app) status = run_bwt(bw, common);
    else if (*unbwt_app) status = run_unbwt(ub, common);
    else if (*check_app) status = run_check(ck, common);
    else if (*demo_app) status = run_demo(demo, common);
    else if (lcp_repeats.selected()) status = lcp_repeats.run(common);
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
