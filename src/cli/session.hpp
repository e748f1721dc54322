// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's one path to a Kokkos backend: a session holds the execution space the
// user picked and the index width, host staging memory (pinned for GPUs), the stage timer,
// the progress display's hooks and the run's report. Every subcommand opens one; a feature
// (features/*.hpp) calls the library through it, and its Kokkos side reaches the typed
// execution space once through on_space() (session_dispatch.hpp). This header has no Kokkos
// types, so that the subcommands compile as plain C++.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

#include <strix/core/stats.hpp>

namespace strix::cli {

// Host memory owned by the session's allocator (pinned for GPU backends).
struct host_buffer {
  std::shared_ptr<std::uint8_t> owner;
  std::uint8_t* data = nullptr;
  std::size_t bytes = 0;
};

// What a run did, stage by stage (wall seconds, device synchronised), and the library's
// phases, counters and peak memory.
struct run_report {
  run_stats stages;             // its phases: copy_to_device, suffix_array, ...
  double allocate_seconds = 0;  // buffers set up before the timed stages
  run_stats library;
  double total_seconds() const { return stages.total_seconds(); }
};

// The backends libstrix can be compiled for (STRIX_ETI_SPACES).
enum class backend_kind { cuda, openmp, serial };

class session {
 public:
  using clock = std::chrono::steady_clock;

  virtual ~session() = default;
  session(const session&) = delete;
  session& operator=(const session&) = delete;

  backend_kind kind() const { return kind_; }
  int width() const { return width_; }  // bits per index: 32 or 64
  virtual std::string backend() const = 0;  // Kokkos' name of the execution space
  virtual std::string device() const = 0;   // the GPU's name, or the CPU's and its threads
  // Staging memory for transfers; throws host_out_of_memory.
  virtual host_buffer allocate_host(std::size_t bytes) = 0;
  virtual void fence() = 0;

  // A stage of the tool: shown by the progress display as `shown`, timed from now.
  clock::time_point begin_stage(const char* shown);
  // Ends a stage begun at t0 (the device synchronised first) and records it as `name`.
  void end_stage(const std::string& name, clock::time_point t0);
  // Time spent setting up buffers since t0 (outside the timed stages).
  void add_allocate_time(clock::time_point t0);
  // Records the library's peak when it exceeds the report's.
  void note_peak(std::size_t bytes);

  // Starts a new report (e.g. between repeated runs of `strix demo`); the library's phases
  // and progress go to the display.
  void reset_report();
  run_report& report() { return report_; }
  const run_report& report() const { return report_; }
  // Statistics for one library call, reporting to the display like the report's own.
  static run_stats watched_stats();

 protected:
  session(backend_kind kind, int width);

 private:
  backend_kind kind_;
  int width_;
  run_report report_;
};

// The session `backend` (default, cuda, openmp or serial) and `width` (32 or 64) ask for;
// invalid_input when this build has no such backend.
std::unique_ptr<session> open_session(const std::string& backend, int width);

// Empty when this build has no CUDA backend or finds a usable GPU; else why not. Throws
// host_out_of_memory when CUDA cannot start for want of memory.
std::string gpu_unusable_reason();
// Starts Kokkos for the tool's lifetime (stopped when the returned object is destroyed)
// with `threads` host threads (0: Kokkos' default) on GPU `device` modulo the GPUs there are
// (-1: Kokkos' default). Never sees the user's arguments.
std::shared_ptr<void> start_kokkos(int threads, int device = -1);
// The Kokkos backends this build enables, e.g. "cuda, openmp, serial".
std::string enabled_backends();
// The Kokkos version libstrix is compiled against, e.g. "3.4.01".
std::string kokkos_version();
// True when `backend` (openmp or serial) is a host backend that this CUDA build's library is
// not compiled for (STRIX_ETI_SPACES): its host fallback strix-host runs it. Defined with the
// sessions, so that strix-host, which shares the Kokkos-free parts, answers for itself.
bool host_backend_elsewhere(const std::string& backend);
// Backend names compare without case ("OpenMP" is "openmp").
bool same_backend_name(const std::string& a, const std::string& b);

}  // namespace strix::cli
