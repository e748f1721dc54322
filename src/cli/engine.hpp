// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's one path to the library: a text_index on the backend the user picked,
// behind an interface without Kokkos types, so that the subcommands compile as plain C++.
// Host memory comes from the engine (pinned when the backend is a GPU), every transfer
// goes through it, and it times each stage.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <strix/core/stats.hpp>
#include <strix/sa/algorithm.hpp>

namespace strix::cli {

// Host memory owned by the engine's allocator (pinned for GPU backends).
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

struct repeats_result {
  host_buffer records;  // strix::repeat<I> records
  host_buffer offsets;  // --all: n + 1 uint64 offsets
  std::uint64_t count = 0;
};

class engine {
 public:
  virtual ~engine() = default;
  virtual std::string backend() const = 0;
  virtual std::string device() const = 0;
  virtual int width() const = 0;  // bits per index

  virtual host_buffer allocate_host(std::size_t bytes) = 0;
  // Copies the text (n bytes of `text`) to the backend; the first call of a run.
  virtual void load_text(const host_buffer& text, std::uint64_t n) = 0;
  // Allocates what building the suffix array needs, outside the timed stages.
  virtual void prepare_suffix_array() = 0;
  virtual void build_suffix_array() = 0;
  // Uses a suffix array from a file (n entries of width() bits), checked first.
  virtual void load_suffix_array(const host_buffer& sa) = 0;
  // Empty when `sa` is the text's suffix array, else what is wrong.
  virtual std::string check_suffix_array(const host_buffer& sa) = 0;
  virtual host_buffer suffix_array() = 0;
  virtual host_buffer lcp() = 0;
  virtual host_buffer bwt(std::uint64_t& primary) = 0;
  virtual repeats_result repeats(bool all, bool raw_method) = 0;
  // Starts a new report (e.g. between repeated runs of `strix demo`).
  virtual void reset_report() = 0;
  virtual const run_report& report() const = 0;
};

// Empty when this build has no CUDA backend or finds a usable GPU; else why not. Throws
// host_out_of_memory when CUDA cannot start for want of memory.
std::string gpu_unusable_reason();
// Starts Kokkos for the tool's lifetime (stopped when the returned object is destroyed)
// with `threads` host threads (0: Kokkos' default). Never sees the user's arguments.
std::shared_ptr<void> start_kokkos(int threads);
// The Kokkos backends this build enables, e.g. "cuda, openmp, serial".
std::string enabled_backends();
// True when `backend` (openmp or serial) is a host backend that this CUDA build's library is
// not compiled for (STRIX_ETI_SPACES): its host fallback strix-host runs it. Defined with the
// engine, so that strix-host, which shares the Kokkos-free parts, answers for itself.
bool host_backend_elsewhere(const std::string& backend);

// backend: default, cuda, openmp or serial; width: 32 or 64. The engine reports its
// stages and the library's phases to progress() (progress.hpp).
// `algorithm`: how the suffix array is built.
std::unique_ptr<engine> make_engine(const std::string& backend, int width, const sa_options& algorithm = {});

}  // namespace strix::cli
