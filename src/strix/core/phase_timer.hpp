// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Phases of an algorithm: each is a Kokkos profiling region (so Kokkos tools see strix's
// phases) and, when the caller asked for statistics, a timed interval that fences the
// execution space so that device work is counted where it ran.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <string>

#include <strix/core/stats.hpp>

namespace strix::detail {

template <class ExecSpace>
class phase_timer {
 public:
  phase_timer(const ExecSpace& space, run_stats* stats) : space_(space), stats_(stats) {}
  ~phase_timer() { close(); }
  phase_timer(const phase_timer&) = delete;
  phase_timer& operator=(const phase_timer&) = delete;

  // Ends the running phase, if any, and starts `name` ("strix::<name>" for Kokkos tools).
  void begin(const std::string& name) {
    end();
    Kokkos::Profiling::pushRegion("strix::" + name);
    open_ = true;
    name_ = name;
    start_ = clock::now();
    if (stats_ && stats_->on_progress) stats_->on_progress(name_, -1);
  }
  // Reports that `fraction` of the input is done, within the running phase.
  void progress(double fraction) {
    if (stats_ && stats_->on_progress) stats_->on_progress(name_, fraction);
  }
  // Ends the running phase and records it.
  void end() {
    if (!open_) return;
    if (stats_) {
      space_.fence();
      const double s = std::chrono::duration<double>(clock::now() - start_).count();
      stats_->add_phase(name_, s);
      if (stats_->on_phase) stats_->on_phase(name_, s);
    }
    Kokkos::Profiling::popRegion();
    open_ = false;
  }

 private:
  void close() noexcept {
    if (open_) Kokkos::Profiling::popRegion();  // unwinding: no fence, no record
    open_ = false;
  }
  using clock = std::chrono::steady_clock;
  ExecSpace space_;
  run_stats* stats_;
  bool open_ = false;
  std::string name_;
  clock::time_point start_;
};

}  // namespace strix::detail
