// SPDX-License-Identifier: BSD-3-Clause
// The session's Kokkos-free half: stage timing, the report and its hooks (session.hpp).
#include "session.hpp"

#include <cctype>

#include "progress.hpp"

namespace strix::cli {
namespace {

double seconds_since(session::clock::time_point t0) {
  return std::chrono::duration<double>(session::clock::now() - t0).count();
}

}  // namespace

session::session(backend_kind kind, int width) : kind_(kind), width_(width) { reset_report(); }

session::clock::time_point session::begin_stage(const char* shown) {
  progress().stage(shown);
  return clock::now();
}

void session::end_stage(const std::string& name, clock::time_point t0) {
  fence();
  report_.stages.add_phase(name, seconds_since(t0));
}

void session::add_allocate_time(clock::time_point t0) {
  fence();
  report_.allocate_seconds += seconds_since(t0);
}

void session::note_peak(std::size_t bytes) {
  if (bytes > report_.library.peak_bytes) report_.library.peak_bytes = bytes;
}

run_stats session::watched_stats() {
  run_stats s;
  s.on_phase = [](const std::string& phase, double seconds) { progress().phase_done(phase, seconds); };
  s.on_progress = [](const std::string& phase, double fraction) { progress().step(phase, fraction); };
  return s;
}

void session::reset_report() {
  report_ = run_report{};
  report_.library = watched_stats();
}

bool same_backend_name(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

}  // namespace strix::cli
