// Options every backend-using subcommand shares, and the engine they ask for.
#include "command.hpp"
#include "report.hpp"

namespace strix::cli {

void add_common_options(CLI::App* sub, common_options& common) {
  sub->add_option("--backend", common.backend,
                  "Kokkos backend: default, cuda, openmp or serial (enabled ones: " +
                      enabled_backends() + ")");
  sub->add_flag("--stats", common.stats, "print one JSON object with timings and memory on stdout");
  sub->add_flag("--progress", common.progress, "print per-phase times on stderr");
}

std::unique_ptr<engine> open_engine(const common_options& common, int width, bool progress) {
  return make_engine(common.backend, width,
                     common.progress || progress ? progress_printer()
                                                 : std::function<void(const std::string&, double)>());
}

}  // namespace strix::cli
