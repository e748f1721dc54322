// SPDX-License-Identifier: BSD-3-Clause
#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace strix::cli {
namespace {

// Inputs this large print per-phase lines even when nobody asked (they take seconds on a
// CPU backend).
constexpr std::uint64_t large_input_bytes = 256ull << 20;
// On a terminal, runs that last longer than this get the live line unasked.
constexpr auto live_after = std::chrono::seconds(1);
constexpr auto redraw_every = std::chrono::milliseconds(200);

bool stderr_is_terminal() {
  const char* term = std::getenv("TERM");
  return isatty(STDERR_FILENO) && !(term && std::strcmp(term, "dumb") == 0);
}

std::string seconds_text(double s) {
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%d min %02d s", int(s) / 60, int(s) % 60);
  else std::snprintf(buf, sizeof buf, "%d h %02d min", int(s) / 3600, int(s) % 3600 / 60);
  return buf;
}

}  // namespace

progress_display& progress() {
  static progress_display display;
  return display;
}

void progress_display::configure(bool requested, bool quiet, std::uint64_t input_bytes) {
  stop();
  std::lock_guard<std::mutex> lock(mutex_);
  stopping_ = false;
  drawn_ = false;
  run_start_ = stage_start_ = clock::now();
  if (quiet || muted_) mode_ = mode::off;
  else if (stderr_is_terminal()) mode_ = mode::live;
  else mode_ = requested || input_bytes >= large_input_bytes ? mode::lines : mode::off;
  draw_now_ = requested;
  if (mode_ == mode::live) painter_ = std::thread([this] { redraw_loop(); });
}

void progress_display::stage(const std::string& name) {
  std::lock_guard<std::mutex> lock(mutex_);
  stage_ = name;
  phase_.clear();
  fraction_ = previous_fraction_ = -1;
  stage_start_ = clock::now();
}

void progress_display::step(const std::string& phase, double fraction) {
  std::lock_guard<std::mutex> lock(mutex_);
  phase_ = phase;
  if (fraction >= 0) record_locked(fraction);
}

void progress_display::advance(double fraction) {
  std::lock_guard<std::mutex> lock(mutex_);
  record_locked(fraction);
}

void progress_display::record_locked(double fraction) {
  if (fraction == fraction_) return;
  const auto now = clock::now();
  previous_fraction_ = fraction_ < 0 ? 0 : fraction_;
  previous_at_ = fraction_ < 0 ? stage_start_ : fraction_at_;
  fraction_ = fraction;
  fraction_at_ = now;
}

void progress_display::phase_done(const std::string& phase, double seconds) {
  if (mode_ != mode::lines) return;
  std::fprintf(stderr, "strix: %-24s %9.3f ms\n", phase.c_str(), seconds * 1e3);
}

void progress_display::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (painter_.joinable()) painter_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  if (drawn_) std::fputs("\r\033[K", stderr);
  drawn_ = false;
}

void progress_display::redraw_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  if (draw_now_) draw_locked();
  while (!wake_.wait_for(lock, redraw_every, [this] { return stopping_; }))
    if (draw_now_ || clock::now() - run_start_ >= live_after) draw_locked();
}

// "strix: suffix array | sort | 63% | 4.2 s elapsed | ETA 2.5 s", overwriting the last one.
void progress_display::draw_locked() {
  const auto now = clock::now();
  std::string line = "\rstrix: " + (stage_.empty() ? std::string("starting") : stage_);
  if (!phase_.empty()) line += " | " + phase_;
  if (fraction_ >= 0) {
    char pct[16];
    std::snprintf(pct, sizeof pct, "%.0f%%", 100 * fraction_);
    line += std::string(" | ") + pct;
  }
  line += " | " + seconds_text(std::chrono::duration<double>(now - run_start_).count()) + " elapsed";
  // The rate between the last two reports: right for stages that advance evenly (reading,
  // writing) and for those that slow down as they go (prefix doubling, where each round
  // costs what is left to sort).
  if (fraction_ >= 0.01 && fraction_ < 1 && fraction_ > previous_fraction_) {
    const double rate = (fraction_ - previous_fraction_) /
                        std::max(1e-9, std::chrono::duration<double>(fraction_at_ - previous_at_).count());
    line += " | ETA " + seconds_text((1 - fraction_) / rate);
  }
  line += "\033[K";
  std::fputs(line.c_str(), stderr);
  std::fflush(stderr);
  drawn_ = true;
}

}  // namespace strix::cli
