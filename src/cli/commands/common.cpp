// SPDX-License-Identifier: BSD-3-Clause
// Options every backend-using subcommand shares, and the session they ask for.
#include "command.hpp"
#include "formats.hpp"
#include "progress.hpp"
#include "report.hpp"

#include <CLI/CLI.hpp>
#include <strix/sa/algorithm.hpp>

namespace strix::cli {

void add_progress_options(CLI::App* sub, common_options& common) {
  sub->add_flag("--progress", common.progress,
                "show progress on stderr: one updating line on a terminal, per-phase times otherwise");
  sub->add_flag("--quiet", common.quiet, "no progress output, not even for long runs");
}

void add_common_options(CLI::App* sub, common_options& common) {
  sub->add_option("--backend", common.backend,
                  "Kokkos backend: default, cuda, openmp or serial (enabled ones: " +
                      enabled_backends() + ")");
  sub->add_flag("--stats", common.stats, "print one JSON object with timings and memory on stdout");
  add_progress_options(sub, common);
}

void add_algorithm_option(CLI::App* sub, common_options& common) {
  std::string names;
  for (const auto& name : sa_algorithm_names()) names += (names.empty() ? "" : ", ") + name;
  sub->add_option("--algorithm", common.algorithm,
                  "suffix-array algorithm: " + names + " (default auto: picked per backend and input; --stats says which)")
      ->check([](const std::string& name) -> std::string {
        try {
          parse_sa_options(name);
          return {};
        } catch (const strix::error& e) {
          return e.what();
        }
      });
}

void add_distributed_option(CLI::App* sub, bool& distributed) {
  sub->add_flag("--distributed", distributed,
                "run across the ranks of mpirun/srun (a build with MPI): each reads its slice of INPUT "
                "and writes its part of the output");
}

void start_progress(const common_options& common, std::uint64_t input_bytes) {
  progress().configure(common.progress, common.quiet, input_bytes);
}

std::unique_ptr<session> open_session(const common_options& common, int width, std::uint64_t input_bytes) {
  start_progress(common, input_bytes);
  return open_session(common.backend, width);
}

void add_indexed_input_options(CLI::App* sub, indexed_input& o, const std::string& output_help) {
  sub->add_option("INPUT", o.input, "input text (any bytes)")->required();
  sub->add_option("-o,--output", o.output, output_help)->required();
  sub->add_option("--sa", o.sa_file, "use this suffix array of INPUT (checked) instead of building one");
  sub->add_option("--width", o.width, "bits per integer, 32 or 64 (default: the narrowest that holds n)");
  add_common_options(sub, o.common);
  add_algorithm_option(sub, o.common);
}

indexed_run start_indexed_run(const indexed_input& o) {
  indexed_run run;
  run.text = std::make_unique<input_file>(o.input);
  if (!o.sa_file.empty()) run.sa = std::make_unique<input_file>(o.sa_file);
  run.n = run.text->size();
  run.width = resolve_width(run.n, o.width, run.sa.get());
  run.out = std::make_unique<atomic_output>(o.output, std::initializer_list<const input_file*>{run.text.get(), run.sa.get()});
  run.session = open_session(o.common, run.width, run.n);
  run.index = std::make_unique<index_job>(*run.session, parse_sa_options(o.common.algorithm));
  run.index->load_text(read_text(*run.session, *run.text), run.n);
  if (run.sa) run.index->load_suffix_array(read_index_array(*run.session, *run.sa, run.n));
  return run;
}

}  // namespace strix::cli
