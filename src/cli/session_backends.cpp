// SPDX-License-Identifier: BSD-3-Clause
// The session's Kokkos half: opening one on the backend the user picked, and what the tool
// asks of Kokkos before any session (is there a GPU, start it, which backends).
#include <Kokkos_Core.hpp>
#include <fstream>
#include <vector>

#ifdef KOKKOS_ENABLE_OPENMP
#include <omp.h>
#endif

#include <strix/core/stats.hpp>
#include <strix/error.hpp>
#include <strix/io/container.hpp>
#include <strix/version.hpp>

#include "host_fallback.hpp"
#include "session_dispatch.hpp"

namespace strix::cli {

std::string host_cpu_name() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 < line.size()) return line.substr(colon + 2);
    }
  return "unknown CPU";
}

std::unique_ptr<session> open_session(const std::string& backend, int width) {
  STRIX_REQUIRE(width == 32 || width == 64);
  const std::string pick = backend == "default" ? std::string(Kokkos::DefaultExecutionSpace::name()) : backend;
#if STRIX_ETI_HAS_CUDA
  if (same_backend_name(pick, "cuda")) return std::make_unique<space_session<Kokkos::Cuda>>(width);
#endif
#if STRIX_ETI_HAS_OPENMP
  if (same_backend_name(pick, "openmp")) return std::make_unique<space_session<Kokkos::OpenMP>>(width);
#endif
#if STRIX_ETI_HAS_SERIAL
  if (same_backend_name(pick, "serial")) return std::make_unique<space_session<Kokkos::Serial>>(width);
#endif
  throw error(error_code::invalid_input, "backend '" + backend + "' is not compiled into this build");
}

std::string gpu_unusable_reason() {
#ifdef KOKKOS_ENABLE_CUDA
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  // Out of memory while starting CUDA (e.g. under `ulimit -v`) is not a missing GPU.
  if (status == cudaErrorMemoryAllocation)
    throw error(error_code::host_out_of_memory, std::string("not enough memory to start CUDA (") +
                                                    cudaGetErrorString(status) + ")");
  if (status != cudaSuccess) return cudaGetErrorString(status);
  if (devices == 0) return "no CUDA device";
#endif
  return {};
}

std::shared_ptr<void> start_kokkos(int threads, int device) {
  // Kokkos initialises every backend it was built with, CUDA included, and aborts without a
  // GPU; main() turns to the host fallback before this point, so here one line suffices.
  const std::string no_gpu = gpu_unusable_reason();
  if (!no_gpu.empty())
    throw error(error_code::device_error, "this strix is built for CUDA and finds no usable GPU (" + no_gpu + ")");
  // Kokkos reads only what strix passes: the program name and, given, the thread count and
  // the GPU (a distributed run's ranks on one node take one each, round robin).
  std::vector<std::string> args = {"strix", "--kokkos-disable-warnings"};
#if KOKKOS_VERSION >= 40000
  if (threads > 0) args.push_back("--kokkos-num-threads=" + std::to_string(threads));
#else
  if (threads > 0) args.push_back("--kokkos-threads=" + std::to_string(threads));
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (device >= 0) {
    int devices = 1;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices < 1) devices = 1;
    args.push_back("--kokkos-device-id=" + std::to_string(device % devices));
  }
#else
  (void)device;
#endif
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int argc = int(args.size());
#ifdef KOKKOS_ENABLE_OPENMP
  // Kokkos' OpenMP start-up counts its threads in a parallel region of OpenMP's default size
  // (every core) before it applies the count: the pool starts at `threads` instead.
  if (threads > 0) omp_set_num_threads(threads);
#endif
  auto guard = std::make_shared<Kokkos::ScopeGuard>(argc, argv.data());
  // The index container's checksums use as many threads as the host backend (--threads,
  // OMP_NUM_THREADS), or the process's CPUs where that backend is serial.
  const int host_threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  if (threads > 0 || host_threads > 1) io::set_threads(threads > 0 ? threads : host_threads);
  return guard;
}

std::string enabled_backends() {
  std::string s = strix::enabled_backends();
#ifdef KOKKOS_ENABLE_CUDA
  // The host backends this CUDA build is not compiled for run in strix-host, when it is there.
  std::string elsewhere;
  for (const char* b : {"openmp", "serial"})
    if (host_backend_elsewhere(b)) elsewhere += std::string(elsewhere.empty() ? "" : ", ") + b;
  if (!elsewhere.empty() && host_fallback_present()) s += ", " + elsewhere + " (strix-host)";
#endif
  return s;
}

std::string kokkos_version() { return strix::kokkos_version(); }

bool host_backend_elsewhere(const std::string& backend) {
#ifdef KOKKOS_ENABLE_CUDA
  return (same_backend_name(backend, "openmp") && !STRIX_ETI_HAS_OPENMP) ||
         (same_backend_name(backend, "serial") && !STRIX_ETI_HAS_SERIAL);
#else
  (void)backend;
  return false;
#endif
}

}  // namespace strix::cli
