// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// How the distributed constructions move arrays between ranks, chosen once per call:
//   host_memory  the arrays are in host memory (host backends): MPI reads and writes them;
//   nccl         GPU to GPU through NCCL on the rank's stream (STRIX_ENABLE_NCCL builds);
//   mpi_device   device pointers handed to a CUDA-aware MPI (MPIX_Query_cuda_support);
//   host_staged  copied to host memory, sent by MPI, copied back (any MPI, any device).
// STRIX_DISTRIBUTED_TRANSPORT=nccl|mpi|staged asks for one (auto: the first that applies, in
// that order). The NCCL overload lives in backends/cuda and names no NCCL type here.
#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // Open MPI's MPIX_Query_cuda_support
#endif

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <strix/config.hpp>
#include <strix/core/stats.hpp>
#include <strix/distributed/communicator.hpp>
#include <strix/error.hpp>

namespace strix::distributed::detail {

// (The CLI's --stats names them in this order: src/cli/distributed.cpp.)
enum class transport_kind : int { host_memory = 0, nccl = 1, mpi_device = 2, host_staged = 3 };

// Device-to-device all-to-all for an execution space: none by default.
template <class ExecSpace>
struct device_transport {
  static constexpr bool available = false;
  static bool usable(MPI_Comm) { return false; }
  static void* communicator(MPI_Comm) { return nullptr; }
  static void all_to_all(const ExecSpace&, void*, int, int, const void*, const std::uint64_t*, void*,
                         const std::uint64_t*) {}
  static void all_gather(const ExecSpace&, void*, int, int, const void*, std::uint64_t, void*, const std::uint64_t*) {}
};

// Whether this MPI takes device pointers (known only to Open MPI's extension; others: no).
inline bool mpi_accepts_device_memory() {
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

}  // namespace strix::distributed::detail

#if STRIX_HAS_NCCL && defined(KOKKOS_ENABLE_CUDA)
#include <strix/backend/cuda/nccl_transport.hpp>

namespace strix::distributed::detail {
template <>
struct device_transport<Kokkos::Cuda> {
  static constexpr bool available = true;
  static bool usable(MPI_Comm comm) { return backend::cuda::nccl_devices_distinct(comm); }
  static void* communicator(MPI_Comm comm) { return backend::cuda::nccl_communicator(comm); }
  static void all_to_all(const Kokkos::Cuda& space, void* nccl, int ranks, int rank, const void* send,
                         const std::uint64_t* send_offsets, void* recv, const std::uint64_t* recv_offsets) {
    backend::cuda::nccl_all_to_all(nccl, ranks, rank, send, send_offsets, recv, recv_offsets, space.cuda_stream());
  }
  static void all_gather(const Kokkos::Cuda& space, void* nccl, int ranks, int rank, const void* send,
                         std::uint64_t bytes, void* recv, const std::uint64_t* recv_offsets) {
    backend::cuda::nccl_all_gather(nccl, ranks, rank, send, bytes, recv, recv_offsets, space.cuda_stream());
  }
};
}  // namespace strix::distributed::detail
#endif

namespace strix::distributed::detail {

// The transport's counters under `prefix`: bytes and messages this rank sent to others, the
// transport (transport_kind), and microseconds inside MPI's transfers (NCCL's run on the
// stream, inside the phases).
inline void report_transport(const collective& c, run_stats* stats, const std::string& prefix) {
  stats->set_counter(prefix + "_bytes_sent", c.bytes_sent());
  stats->set_counter(prefix + "_messages", c.messages_sent());
  stats->set_counter(prefix + "_transport", std::uint64_t(c.transport()));
  stats->set_counter(prefix + "_mpi_transfer_us", std::uint64_t(c.transport_seconds() * 1e6));
}

// Picks the transport for arrays in ExecSpace's memory and sets it up (an NCCL communicator
// is made once per MPI communicator). Collective; every rank picks the same.
template <class ExecSpace>
void choose_transport(collective& c) {
  using memory = typename ExecSpace::memory_space;
  const char* asked_env = std::getenv("STRIX_DISTRIBUTED_TRANSPORT");
  const std::string asked = asked_env ? asked_env : "auto";
  c.run([&] {
    STRIX_USER_REQUIRE(asked == "auto" || asked == "nccl" || asked == "mpi" || asked == "staged",
                       "STRIX_DISTRIBUTED_TRANSPORT is '" + asked + "'; it takes auto, nccl, mpi or staged");
  });
  transport_kind kind = transport_kind::host_staged;
  if (c.size() == 1) {
    // Nothing crosses ranks: no communicator to make (a rank's own part is a copy).
    c.use_transport(int(Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory>::accessible ? transport_kind::host_memory
                                                                                          : transport_kind::host_staged),
                    nullptr);
    return;
  }
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, memory>::accessible) {
    kind = transport_kind::host_memory;  // MPI reads the arrays themselves, whatever was asked
  } else if ((asked == "auto" || asked == "nccl") && device_transport<ExecSpace>::available &&
             c.run([&] { return device_transport<ExecSpace>::usable(c.comm()); })) {
    kind = transport_kind::nccl;  // (not with two ranks on one GPU, which NCCL refuses)
  } else if ((asked == "auto" || asked == "mpi") && mpi_accepts_device_memory()) {
    kind = transport_kind::mpi_device;
  }
  c.run([&] {
    STRIX_USER_REQUIRE(!(asked == "nccl" && kind == transport_kind::host_staged),
                       "STRIX_DISTRIBUTED_TRANSPORT=nccl: this strix is built without NCCL (STRIX_ENABLE_NCCL), or "
                       "two ranks share a GPU");
    STRIX_USER_REQUIRE(!(asked == "mpi" && kind == transport_kind::host_staged),
                       "STRIX_DISTRIBUTED_TRANSPORT=mpi: this MPI does not report CUDA support");
  });
  // Every rank must agree (an MPI that is CUDA-aware on some nodes only stages everywhere).
  const bool everywhere = c.min<int>(kind == transport_kind::mpi_device ? 1 : 0) == 1;
  if (kind == transport_kind::mpi_device && !everywhere) kind = transport_kind::host_staged;
  void* handle = nullptr;
  if (kind == transport_kind::nccl) handle = c.run([&] { return device_transport<ExecSpace>::communicator(c.comm()); });
  c.use_transport(int(kind), handle);
}

}  // namespace strix::distributed::detail
