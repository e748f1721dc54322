// SPDX-License-Identifier: BSD-3-Clause
// strix command-line tool: suffix arrays, BWT, LCP arrays, longest repeats, checks and
// wavelet trees on any Kokkos backend. The subcommands live in commands/, one file each.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <thread>

#ifdef __linux__
#include <sched.h>
#endif

#include <strix/error.hpp>

#include "command_line.hpp"
#include "distributed.hpp"
#include "failure.hpp"
#include "files.hpp"
#include "host_fallback.hpp"
#include "progress.hpp"
#include "session.hpp"

namespace {

// A thread count from the environment: unset is fine, anything but 1..max_threads is not.
void check_thread_variable(const char* name) {
  using strix::cli::max_threads;
  const char* value = std::getenv(name);
  if (!value) return;
  char* end = nullptr;
  const long n = std::strtol(value, &end, 10);
  STRIX_USER_REQUIRE(end != value && *end == '\0' && n >= 1 && n <= max_threads,
                     std::string(name) + "='" + value + "' is not a number of threads in 1.." +
                         std::to_string(max_threads) + " (unset it, or use --threads)");
}

// The host threads when neither --threads nor the environment says: the CPUs this process may
// run on (at most max_threads), shared by the ranks of a distributed run whose CPUs overlap its
// own (unbound ranks of a whole node's threads each oversubscribe it several times over).
int default_threads(int sharing) {
  int cpus = int(std::thread::hardware_concurrency());
#ifdef __linux__
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) cpus = CPU_COUNT(&set);
#endif
  return std::clamp(cpus / std::max(sharing, 1), 1, strix::cli::max_threads);
}

}  // namespace

int main(int argc, char** argv) {
  using namespace strix::cli;
  command_line cl = parse_command_line(argc, argv);
  if (cl.exit_status >= 0) return cl.exit_status;

  // A CUDA build compiled for CUDA alone runs the host backends in strix-host, at once (the
  // GPU probe below would start CUDA's driver first). Without a usable GPU it runs its host
  // twin too, unless the user asked for CUDA (then start_kokkos fails in one line).
  try {
    if (host_backend_elsewhere(cl.backend)) exec_host_backend(argv, cl.backend);
    const std::string no_gpu = gpu_unusable_reason();
    if (!no_gpu.empty() && !same_backend_name(cl.backend, "cuda")) exec_host_fallback(argv, no_gpu, cl.backend == "default");
  } catch (const strix::error& e) {
    return fail(e.what(), exit_status(e.code()));
  }

  // A distributed run starts MPI before Kokkos (which then takes the node's GPUs round robin)
  // and stops it after; rank 0 alone shows progress and the failures all ranks agreed on.
  std::shared_ptr<void> mpi;  // finalises MPI when main returns
  const bool distributed = cl.distributed;
  if (distributed) {
    try {
      mpi = start_mpi(argc, argv);
    } catch (const strix::error& e) {
      return fail(e.what(), exit_status(e.code()));
    }
    if (mpi_rank() != 0) progress().mute();
  }
  const auto report = [&](const std::exception& e, const std::string& message, int status) {
    if (distributed && mpi_rank() != 0 && agreed_failure(e)) return status;
    return fail(message, status);
  };

  install_signal_cleanup();
  // Quiet Kokkos' OpenMP binding advice; users who set OMP_PROC_BIND keep theirs.
  setenv("OMP_PROC_BIND", "false", 0);
  try {
    check_thread_variable("KOKKOS_NUM_THREADS");
    check_thread_variable("OMP_NUM_THREADS");
    int threads = cl.threads;
    if (threads == 0 && std::getenv("OMP_NUM_THREADS") == nullptr && std::getenv("KOKKOS_NUM_THREADS") == nullptr)
      threads = default_threads(distributed ? mpi_ranks_sharing_cpus() : 1);
    if (threads > 0 && unsigned(threads) > std::thread::hardware_concurrency())
      std::fprintf(stderr, "strix: note: --threads %d is more than the %u hardware threads\n", threads,
                   std::thread::hardware_concurrency());
    auto kokkos = start_kokkos(threads, distributed ? mpi_local_rank() : -1);
    const int status = cl.run();
    progress().stop();
    return status;
  } catch (const strix::error& e) {
    return report(e, e.what(), exit_status(e.code()));
  } catch (const std::bad_alloc& e) {
    return report(e, "out of host memory", exit_status(strix::error_code::host_out_of_memory));
  } catch (const std::exception& e) {
    return report(e, e.what(), exit_status(strix::error_code::internal));
  }
}
