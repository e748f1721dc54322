#pragma once
// Phase timing: fences the execution space so that device work is counted where it ran.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <string>

#include <strix/options.hpp>

namespace strix::detail {

template <class ExecSpace>
class phase_timer {
 public:
  phase_timer(const ExecSpace& space, run_stats* stats, bool progress)
      : space_(space), stats_(stats), progress_(progress), start_(clock::now()) {}

  // Ends the current phase under `name` and starts the next one.
  void lap(const std::string& name) {
    if (!stats_ && !progress_) return;
    space_.fence();
    const auto now = clock::now();
    const double s = std::chrono::duration<double>(now - start_).count();
    if (stats_) stats_->add(name, s);
    if (progress_) std::fprintf(stderr, "strix: %-24s %9.3f ms\n", name.c_str(), s * 1e3);
    start_ = now;
  }

 private:
  using clock = std::chrono::steady_clock;
  ExecSpace space_;
  run_stats* stats_;
  bool progress_;
  clock::time_point start_;
};

}  // namespace strix::detail
