// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What every part of the Python module shares: the one thread that calls Kokkos (started on
// first use, stopped at interpreter exit), the backends this build has and the dispatch to
// one of them, and the objects that hold device memory, freed before Kokkos stops.
#include <pybind11/pybind11.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <strix/config.hpp>
#include <strix/core/length.hpp>
#include <strix/error.hpp>

namespace strix::python {

namespace py = pybind11;

enum class backend_id { cuda, openmp, serial };

// The thread count host backends start with; only before Kokkos starts.
void set_threads(int threads);
std::vector<std::string> backend_names();
backend_id parse_backend(const std::optional<std::string>& name);
const char* backend_name(backend_id b);

// Runs `task` on the module's Kokkos thread, one task at a time, and rethrows what it threw.
// Kokkos starts there on first use and stops there at interpreter exit: its host backends
// take calls only from the thread that started them (Kokkos 3's OpenMP refuses a reduction
// from another thread and runs a parallel_for on one thread), and Python calls come from any
// thread. Called with the GIL held; the GIL is released while the task runs, and the task
// must not touch Python objects.
void in_kokkos(const std::function<void()>& task);

// An object that owns device memory: its release() drops its arrays. Live ones are released
// before Kokkos stops at interpreter exit; a derived destructor releases on the Kokkos
// thread (release_in_destructor).
class resident {
 public:
  resident();
  virtual ~resident();
  resident(const resident&) = delete;
  resident& operator=(const resident&) = delete;
  virtual void release() = 0;

 protected:
  void release_in_destructor() noexcept;
};

// The index width: 32 bits when n fits and the caller did not ask for 64.
inline int choose_width(std::uint64_t n, const std::optional<int>& width) {
  if (width && *width != 32 && *width != 64)
    throw error(error_code::invalid_input, "width is 32 or 64, not " + std::to_string(*width));
  if (width && *width == 32) {
    check_length<std::uint32_t>(n, "text of " + std::to_string(n) + " symbols");
    return 32;
  }
  if (width) return 64;
  return n <= max_length<std::uint32_t>() ? 32 : 64;
}

// f(space) for the backend's execution space; every branch must return the same type.
template <class F>
decltype(auto) on_backend(backend_id b, F&& f) {
  switch (b) {
#if STRIX_ETI_HAS_CUDA
    case backend_id::cuda: return f(Kokkos::Cuda());
#endif
#if STRIX_ETI_HAS_OPENMP
    case backend_id::openmp: return f(Kokkos::OpenMP());
#endif
#if STRIX_ETI_HAS_SERIAL
    case backend_id::serial: return f(Kokkos::Serial());
#endif
    default: break;
  }
  throw error(error_code::invalid_input, std::string("this build of strix has no backend ") + backend_name(b));
}

// f(space, index) for the backend and width (index: a std::uint32_t or std::uint64_t zero).
template <class F>
decltype(auto) on_backend_and_width(backend_id b, int width, F&& f) {
  return on_backend(b, [&](auto space) -> decltype(auto) {
    if (width == 64) return f(space, std::uint64_t(0));
    return f(space, std::uint32_t(0));
  });
}

}  // namespace strix::python
