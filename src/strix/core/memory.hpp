// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Allocation of strix's working arrays: out-of-memory becomes a typed strix::error,
// and every byte is accounted so that --stats can report the peak.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <new>
#include <string>
#include <type_traits>

#include <strix/core/host_memory.hpp>
#include <strix/error.hpp>

namespace strix::detail {

// Bytes strix currently holds and the peak over a run (one tracker per run).
class memory_tracker {
 public:
  void acquire(std::size_t bytes) {
    current_ += bytes;
    if (current_ > peak_) peak_ = current_;
  }
  void release(std::size_t bytes) { current_ -= bytes < current_ ? bytes : current_; }
  std::size_t peak() const { return peak_; }
  std::size_t current() const { return current_; }

 private:
  std::size_t current_ = 0, peak_ = 0;
};

template <class MemorySpace>
constexpr bool is_host_memory_v = std::is_same<MemorySpace, Kokkos::HostSpace>::value;

// Allocates an uninitialised 1-D view of n elements in MemorySpace.
template <class T, class MemorySpace>
Kokkos::View<T*, MemorySpace> allocate(const std::string& label, std::size_t n,
                                       memory_tracker* tracker = nullptr) {
  try {
    Kokkos::View<T*, MemorySpace> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), n);
    if constexpr (is_host_memory_v<MemorySpace>) advise_huge_pages(v.data(), n * sizeof(T));
    if (tracker) tracker->acquire(n * sizeof(T));
    return v;
  } catch (const std::bad_alloc&) {
    throw error(is_host_memory_v<MemorySpace> ? error_code::host_out_of_memory
                                              : error_code::device_out_of_memory,
                "cannot allocate " + std::to_string(n * sizeof(T)) + " bytes for '" + label +
                    "' in " + MemorySpace::name());
  } catch (const std::runtime_error& e) {
    // Kokkos 3.x reports some device allocation failures as runtime_error.
    const std::string what = e.what();
    if (what.find("alloc") != std::string::npos || what.find("memory") != std::string::npos)
      throw error(is_host_memory_v<MemorySpace> ? error_code::host_out_of_memory
                                                : error_code::device_out_of_memory,
                  "cannot allocate " + std::to_string(n * sizeof(T)) + " bytes for '" + label +
                      "' in " + MemorySpace::name());
    throw error(error_code::device_error, what);
  }
}

// Drops a view early and returns its bytes to the tracker.
template <class View>
void release(View& v, memory_tracker* tracker = nullptr) {
  if (tracker && v.data()) tracker->release(v.span() * sizeof(typename View::value_type));
  v = View();
}

}  // namespace strix::detail
