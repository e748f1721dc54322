// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Device memory that every rank of a node reads and writes directly (CUDA IPC over NVLink or
// PCIe peer access): each rank allocates its part, and maps every other rank's into its own
// address space. The shared-rank distributed construction keeps its rank array so, split by
// text position, with no copy on any rank. No CUDA runtime type here.
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace strix::backend::cuda {

// Whether every rank of `comm` runs on this host and can map every other rank's memory (the
// same GPU, or peer access between the two). Collective.
bool peer_memory_usable(MPI_Comm comm);

// One part a rank: `parts[r]` is rank r's part as this rank addresses it (its own is the
// allocation; the others' are mappings, filled in by peer_map).
struct peer_block {
  std::vector<void*> parts;
  void* own = nullptr;
  std::vector<char> handle;  // this rank's IPC handle
};

// `bytes` on this rank's current device (ranks may ask different sizes); local, so that a
// failure (device_out_of_memory) can be agreed on before anything collective.
peer_block peer_allocate(std::size_t bytes);

// Maps every other rank's part (an all-gather of the handles). Collective.
void peer_map(peer_block& block, MPI_Comm comm);

// Unmaps the others' parts, waits for every rank to have done so, frees the own part.
// Collective (a barrier between the unmapping and the freeing).
void peer_release(peer_block& block, MPI_Comm comm);

}  // namespace strix::backend::cuda
