// SPDX-License-Identifier: BSD-3-Clause
#include "runtime.hpp"

#include <set>
#if defined(KOKKOS_ENABLE_CUDA)
#include <cuda_runtime_api.h>
#endif

namespace strix::python {

namespace {

int requested_threads = 0;

// The live residents (never destroyed: residents may outlive static objects), under their
// own lock: they are made inside Kokkos calls, which hold the Kokkos lock.
std::set<resident*>& residents() {
  static auto* live = new std::set<resident*>();
  return *live;
}
std::mutex& residents_mutex() {
  static auto* m = new std::mutex();
  return *m;
}

// At interpreter exit: free what live objects hold, then stop Kokkos (which must outlive
// every array it allocated).
void stop_kokkos() {
  std::lock_guard<std::mutex> lock(kokkos_mutex());
  {
    std::lock_guard<std::mutex> live(residents_mutex());
    for (auto* r : residents()) r->release();
  }
  if (Kokkos::is_initialized()) Kokkos::finalize();
}

}  // namespace

std::mutex& kokkos_mutex() {
  static std::mutex m;
  return m;
}

// Called with the GIL held (kokkos_call), which serialises the first calls.
void ensure_kokkos() {
  if (Kokkos::is_initialized()) return;
#if defined(KOKKOS_ENABLE_CUDA)
  // Kokkos aborts the process when it finds no GPU: an exception instead.
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    throw error(error_code::device_error, "no usable CUDA device: this strix module was built for CUDA");
#endif
#if KOKKOS_VERSION >= 40000
  Kokkos::InitializationSettings settings;
  if (requested_threads > 0) settings.set_num_threads(requested_threads);
  settings.set_disable_warnings(true);
  Kokkos::initialize(settings);
#else
  Kokkos::InitArguments args;
  if (requested_threads > 0) args.num_threads = requested_threads;
  args.disable_warnings = true;
  Kokkos::initialize(args);
#endif
  py::module_::import("atexit").attr("register")(py::cpp_function(&stop_kokkos));
}

void set_threads(int threads) {
  if (threads < 1) throw error(error_code::invalid_input, "set_threads needs at least 1 thread");
  if (Kokkos::is_initialized())
    throw error(error_code::invalid_input, "set_threads must come before strix's first call (Kokkos has started)");
  requested_threads = threads;
}

const char* backend_name(backend_id b) {
  switch (b) {
    case backend_id::cuda: return "cuda";
    case backend_id::openmp: return "openmp";
    case backend_id::serial: return "serial";
  }
  return "?";
}

std::vector<std::string> backend_names() {
  std::vector<std::string> names;
#if STRIX_ETI_HAS_CUDA
  names.push_back("cuda");
#endif
#if STRIX_ETI_HAS_OPENMP
  names.push_back("openmp");
#endif
#if STRIX_ETI_HAS_SERIAL
  names.push_back("serial");
#endif
  return names;
}

backend_id parse_backend(const std::optional<std::string>& name) {
  if (!name) {  // Kokkos' default execution space, when this build has it; else the first
    const std::string first = backend_names().at(0);
#if defined(KOKKOS_ENABLE_CUDA)
    if (STRIX_ETI_HAS_CUDA) return backend_id::cuda;
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
    if (STRIX_ETI_HAS_OPENMP) return backend_id::openmp;
#endif
    return parse_backend(first);
  }
  for (const auto& [text, id] : {std::pair<const char*, backend_id>{"cuda", backend_id::cuda},
                                 {"openmp", backend_id::openmp},
                                 {"serial", backend_id::serial}}) {
    if (*name != text) continue;
    for (const auto& have : backend_names())
      if (have == text) return id;
  }
  std::string have;
  for (const auto& b : backend_names()) have += (have.empty() ? "" : ", ") + b;
  throw error(error_code::invalid_input, "unknown or absent backend '" + *name + "' (this build has " + have + ")");
}

resident::resident() {
  std::lock_guard<std::mutex> lock(residents_mutex());
  residents().insert(this);
}

resident::~resident() {
  std::lock_guard<std::mutex> lock(residents_mutex());
  residents().erase(this);
}

}  // namespace strix::python
