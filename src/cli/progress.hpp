// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What a run shows on stderr while it works. On a terminal: one line, redrawn in place,
// with the stage, the library's current phase, the percent of the input done (where the
// stage knows it), the elapsed time and an ETA. Redirected stderr gets one plain line per
// library phase instead. Short runs show nothing unless asked (--progress); --quiet
// silences both. One display per process: the subcommands, file readers and the session
// report to it without passing it around.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>

namespace strix::cli {

class progress_display {
 public:
  enum class mode { off, lines, live };

  // Picks the mode for a run: off when quiet; else live on a terminal (drawn at once when
  // `requested`, after the first second otherwise); else per-phase lines when requested
  // or the input is large.
  void configure(bool requested, bool quiet, std::uint64_t input_bytes);
  mode current_mode() const { return mode_; }
  // Shows nothing from now on, whatever configure() is asked (the ranks of a distributed
  // run other than rank 0).
  void mute() { muted_ = true; }

  // A stage of the tool ("read input", "suffix array", "write output").
  void stage(const std::string& name);
  // A library phase began, or progress within the stage: `fraction` of the input done
  // (negative: unknown).
  void step(const std::string& phase, double fraction = -1);
  // A library phase ended after `seconds`.
  void phase_done(const std::string& phase, double seconds);
  // Fraction of the stage done, without naming a phase (e.g. bytes read so far).
  void advance(double fraction);
  // Erases the live line and stops redrawing; call before printing anything else on stderr.
  void stop();

  ~progress_display() { stop(); }

 private:
  using clock = std::chrono::steady_clock;
  void redraw_loop();
  void draw_locked();
  void record_locked(double fraction);

  mode mode_ = mode::off;
  bool muted_ = false;
  bool draw_now_ = false;  // live: draw from the start rather than after a second
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread painter_;
  bool stopping_ = false;
  bool drawn_ = false;
  clock::time_point run_start_ = clock::now(), stage_start_ = clock::now();
  std::string stage_, phase_;
  double fraction_ = -1, previous_fraction_ = -1;  // the last two reports, and when
  clock::time_point fraction_at_, previous_at_;
};

// The process' display.
progress_display& progress();

}  // namespace strix::cli
