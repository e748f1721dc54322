// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A rank array that all ranks of one node read and write in place, split by text position:
// rank r holds positions [r·block, (r + 1)·block) and maps every other rank's part. On GPUs
// the parts are device memory mapped by CUDA IPC (NVLink or PCIe peer access:
// backends/cuda/peer_memory.hpp); on host ranks an MPI shared-memory window. Where neither
// applies (ranks on several hosts, GPUs without peer access) `usable` says no and the
// constructions keep their own copies (replicated_def.hpp) or partition (suffix_array_def.hpp).
//
// Measured on 2 H200s by NVLink (bench/RESULTS.md §50): a random 4-byte load of another GPU's
// memory costs ~4x a local one, a store ~2x; so a round reads each rank it needs in place once,
// and the ranks that change go to the rank whose part holds them, which stores them locally
// (replicated_def.hpp; RESULTS §59).
#include <mpi.h>
#include <sys/statvfs.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <strix/config.hpp>
#include <strix/distributed/communicator.hpp>
#include <strix/distributed/workspace.hpp>
#include <strix/error.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && STRIX_ETI_HAS_CUDA
#include <strix/backend/cuda/peer_memory.hpp>
#endif

namespace strix::distributed::detail {

inline bool mpi_finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

// Whether two communicators hold the same ranks in the same order (a duplicate counts).
inline bool same_group(MPI_Comm a, MPI_Comm b) {
  if (a == MPI_COMM_NULL || b == MPI_COMM_NULL) return false;
  int result = MPI_UNEQUAL;
  MPI_Comm_compare(a, b, &result);
  return result == MPI_IDENT || result == MPI_CONGRUENT;
}

// Position p's entry: part p / block, offset p % block (found by subtraction: a GPU has no
// 64-bit divider, and there are few parts). More ranks than max_parts on one node (no GPU
// node has them): shared ranks are not usable there (`auto` takes another construction).
template <class I>
struct split_ranks {
  static constexpr int max_parts = 16;
  I* part[max_parts] = {};
  std::uint64_t block = 1;
  int parts = 1;
  KOKKOS_INLINE_FUNCTION I& operator()(std::uint64_t p) const {
    int o = 0;
    while (o + 1 < parts && p >= block) {
      p -= block;
      ++o;
    }
    return part[o][p];
  }
};

// Host memory (host ranks): one MPI shared-memory window over the node.
template <class ExecSpace, bool HostMemory =
                               Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible>
class node_parts {
 public:
  static bool usable(const collective& c) {
    if (c.size() > split_ranks<std::uint64_t>::max_parts) return false;
    MPI_Comm node = MPI_COMM_NULL;
    MPI_Comm_split_type(c.comm(), MPI_COMM_TYPE_SHARED, c.rank(), MPI_INFO_NULL, &node);
    int node_ranks = 0;
    MPI_Comm_size(node, &node_ranks);
    MPI_Comm_free(&node);
    return c.min<int>(node_ranks == c.size() ? 1 : 0) == 1;
  }
  node_parts() = default;
  node_parts(const node_parts&) = delete;
  node_parts& operator=(const node_parts&) = delete;
  // Collective: `bytes` on this rank, every rank's part addressable (parts()).
  void allocate(const collective& c, std::uint64_t bytes) {
    // Open MPI makes the whole window in one file of its backing folder (/dev/shm unless
    // OMPI_MCA_osc_sm_backing_directory says otherwise), on one rank: where that folder is too
    // small, only that rank's call fails and the others wait in it for ever. So the room is
    // checked first, and a shortfall is every rank's error.
    const std::uint64_t total = c.sum<std::uint64_t>(std::max<std::uint64_t>(bytes, 64) + 4096);
    c.run([&] {
      if (c.rank() != 0) return;
      const char* folder = std::getenv("OMPI_MCA_osc_sm_backing_directory");
      struct statvfs room {};
      if (statvfs(folder && *folder ? folder : "/dev/shm", &room) != 0) return;  // another MPI, another place
      const std::uint64_t free = std::uint64_t(room.f_bavail) * std::uint64_t(room.f_frsize);
      if (free < total)
        throw error(error_code::host_out_of_memory,
                    "shared ranks need " + std::to_string(total) + " bytes of node-shared memory; " +
                        std::string(folder && *folder ? folder : "/dev/shm") + " has " + std::to_string(free) +
                        " free (STRIX_DISTRIBUTED_ALGORITHM=partitioned needs none)");
    });
    c.run([&] {
      MPI_Comm_dup(c.comm(), &comm_);
      MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN);
      void* base = nullptr;
      const int rc = MPI_Win_allocate_shared(MPI_Aint(std::max<std::uint64_t>(bytes, 64)), 1, MPI_INFO_NULL, comm_,
                                             &base, &window_);
      if (rc != MPI_SUCCESS)
        throw error(error_code::host_out_of_memory,
                    "cannot allocate " + std::to_string(bytes) + " bytes of node-shared memory for the rank array");
    });
    bytes_ = bytes;
    c.run([&] {
      MPI_Win_lock_all(MPI_MODE_NOCHECK, window_);
      locked_ = true;
      parts_.assign(std::size_t(c.size()), nullptr);
      for (int r = 0; r < c.size(); ++r) {
        MPI_Aint size = 0;
        int unit = 0;
        MPI_Win_shared_query(window_, r, &size, &unit, &parts_[r]);
      }
    });
  }
  const std::vector<void*>& parts() const { return parts_; }
  // Whether these parts serve `bytes` on this rank over `comm` (a workspace's kept parts).
  bool serves(MPI_Comm comm, std::uint64_t bytes) const { return same_group(comm_, comm) && bytes <= bytes_; }
  // Every rank's stores visible to every rank's loads (after the caller's fence).
  void sync(const collective& c) const {
    c.run([&] {
      MPI_Win_sync(window_);
      MPI_Barrier(c.comm());
      MPI_Win_sync(window_);
    });
  }
  ~node_parts() {
    if (mpi_finalized()) return;  // (a workspace kept past MPI_Finalize: MPI freed the window)
    if (locked_) MPI_Win_unlock_all(window_);
    if (window_ != MPI_WIN_NULL) MPI_Win_free(&window_);
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  MPI_Win window_ = MPI_WIN_NULL;
  bool locked_ = false;
  std::uint64_t bytes_ = 0;
  std::vector<void*> parts_;
};

// Device memory of a backend without peer mappings: never usable.
template <class ExecSpace>
class node_parts<ExecSpace, false> {
 public:
  static bool usable(const collective&) { return false; }
  void allocate(const collective&, std::uint64_t) { STRIX_REQUIRE(false); }
  const std::vector<void*>& parts() const { return parts_; }
  bool serves(MPI_Comm, std::uint64_t) const { return false; }
  void sync(const collective&) const {}

 private:
  std::vector<void*> parts_;
};

#if defined(KOKKOS_ENABLE_CUDA) && STRIX_ETI_HAS_CUDA
// CUDA: each rank's part on its GPU, the others' mapped by CUDA IPC.
template <>
class node_parts<Kokkos::Cuda, false> {
 public:
  static bool usable(const collective& c) {
    if (c.size() > split_ranks<std::uint64_t>::max_parts) return false;
    return c.run([&] { return backend::cuda::peer_memory_usable(c.comm()); });
  }
  node_parts() = default;
  node_parts(const node_parts&) = delete;
  node_parts& operator=(const node_parts&) = delete;
  void allocate(const collective& c, std::uint64_t bytes) {
    MPI_Comm_dup(c.comm(), &comm_);  // (its own: the release may come after the caller's is gone)
    bytes_ = bytes;
    c.run([&] { block_ = backend::cuda::peer_allocate(bytes); });
    c.run([&] { backend::cuda::peer_map(block_, c.comm()); });
  }
  const std::vector<void*>& parts() const { return block_.parts; }
  bool serves(MPI_Comm comm, std::uint64_t bytes) const { return same_group(comm_, comm) && bytes <= bytes_; }
  // (Kernel completion makes a GPU's stores to a peer's memory visible to the peer's later
  // kernels: the caller's fence, then every rank past the barrier.)
  void sync(const collective& c) const {
    c.run([&] { MPI_Barrier(c.comm()); });
  }
  ~node_parts() {
    // Every rank reaches here together (allocate's failures are agreed; a workspace's parts go
    // collectively): the release's barrier matches. Past MPI_Finalize only the own part goes.
    if (comm_ == MPI_COMM_NULL) return;
    if (mpi_finalized()) {
      if (block_.own) cudaFree(block_.own);
      return;
    }
    backend::cuda::peer_release(block_, comm_);
    MPI_Comm_free(&comm_);
  }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::uint64_t bytes_ = 0;
  backend::cuda::peer_block block_;
};
#endif

// Entries in each part of a rank array of n entries over P ranks: ceil(n / P), at least 1.
inline std::uint64_t part_block(std::uint64_t n, int ranks) {
  return std::max<std::uint64_t>(1, (n + std::uint64_t(ranks) - 1) / std::uint64_t(ranks));
}

// Entries rank r's part holds (the last parts fewer, or none).
inline std::uint64_t part_entries(std::uint64_t n, int ranks, int r) {
  const std::uint64_t block = part_block(n, ranks), begin = std::min<std::uint64_t>(n, block * std::uint64_t(r));
  return std::min<std::uint64_t>(block, n - begin);
}

// The construction's rank array over `parts`: n entries in parts of part_block(n, P).
template <class I, class ExecSpace>
split_ranks<I> split_over(const node_parts<ExecSpace>& parts, std::uint64_t n) {
  split_ranks<I> s;
  const auto& p = parts.parts();
  STRIX_REQUIRE(int(p.size()) <= split_ranks<I>::max_parts && !p.empty());
  s.block = part_block(n, int(p.size()));
  s.parts = int(p.size());
  for (std::size_t r = 0; r < p.size(); ++r) s.part[r] = static_cast<I*>(p[r]);
  return s;
}

// This rank's part of `bytes` and every other rank's, kept in `pool` from call to call: made and
// mapped once (on 4 H200s about 40 ms a call, bench/RESULTS.md §59), made again only where a
// part falls short or the communicator differs. Collective.
template <class ExecSpace>
node_parts<ExecSpace>& held_node_parts(named_buffers& pool, const collective& c, std::uint64_t bytes) {
  using parts_type = node_parts<ExecSpace>;
  const parts_type* kept = pool.object<parts_type>();
  const bool reuse = c.min<int>(kept && kept->serves(c.comm(), bytes) ? 1 : 0) == 1;
  if (reuse) return *pool.object<parts_type>();
  pool.drop_object();  // (collective: every rank drops together)
  auto made = std::make_shared<parts_type>();
  made->allocate(c, bytes);
  return pool.keep_object<parts_type, typename ExecSpace::memory_space>(std::move(made), bytes);
}

// Whether `pool` holds parts mapped over `c` already (their trial need not run again), the same
// answer on every rank. A workspace's parts belong to the communicator (and execution space)
// they were made for: only that communicator's ranks can release them together (the release's
// barrier), so a call on another one, or for another space, or with a workspace that holds
// parts on some ranks and not on others, is refused on every rank of the call alike. Collective.
template <class ExecSpace>
bool node_parts_held(const named_buffers& pool, const collective& c) {
  const auto* kept = pool.object<node_parts<ExecSpace>>();
  const bool foreign = pool.holds_object() && !(kept && kept->serves(c.comm(), 0));
  const int holding = pool.holds_object() ? 1 : 0;
  const bool mixed = c.min<int>(holding) != c.max<int>(holding);
  c.run([&] {
    STRIX_USER_REQUIRE(!foreign && !mixed,
                       "distributed workspace: it holds shared ranks' memory mapped on another communicator or "
                       "execution space (or on some ranks only); release it on the ranks that made it first "
                       "(a workspace serves one communicator)");
  });
  return holding == 1;  // (past the check: held on every rank, or on none)
}

}  // namespace strix::distributed::detail
