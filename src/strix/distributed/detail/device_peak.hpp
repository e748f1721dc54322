// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The peak of device memory a distributed construction takes on its rank, for --stats: the
// device's bytes in use are read after every allocation the construction makes (memory only
// grows at an allocation, so the largest reading is the peak), less what was in use when it
// began. Known on CUDA (cudaMemGetInfo); host backends report 0 here (their resident memory
// is the process's).
#include <Kokkos_Core.hpp>
#include <cstddef>

#include <strix/core/device_memory.hpp>

namespace strix::distributed::detail {

using strix::detail::device_memory_in_use;

struct peak_reading {
  std::size_t base = 0, peak = 0;
};
inline peak_reading*& active_peak_reading() {
  static thread_local peak_reading* r = nullptr;
  return r;
}

// Called after each allocation of a distributed construction.
template <class ExecSpace>
void note_device_memory() {
  if (peak_reading* r = active_peak_reading()) {
    const std::size_t now = device_memory_in_use<ExecSpace>::bytes();
    if (now > r->peak) r->peak = now;
  }
}

// Watches the device memory of one construction on this thread, from construction to end.
template <class ExecSpace>
class device_peak_watch {
 public:
  device_peak_watch() : outer_(active_peak_reading()) {
    reading_.base = reading_.peak = device_memory_in_use<ExecSpace>::bytes();
    active_peak_reading() = &reading_;
  }
  ~device_peak_watch() { active_peak_reading() = outer_; }
  device_peak_watch(const device_peak_watch&) = delete;
  device_peak_watch& operator=(const device_peak_watch&) = delete;
  // Bytes above what was in use at the start (0 where the backend cannot tell).
  std::size_t added() const { return reading_.peak - reading_.base; }

 private:
  peak_reading reading_;
  peak_reading* outer_;
};

}  // namespace strix::distributed::detail
