// SPDX-License-Identifier: BSD-3-Clause
#include <cuda_runtime.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <strix/backend/cuda/error.hpp>
#include <strix/backend/cuda/peer_memory.hpp>

namespace strix::backend::cuda {

bool peer_memory_usable(MPI_Comm comm) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  // Every rank on this host: the ranks that share memory with this one are all of comm.
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_ranks = 0;
  MPI_Comm_size(node, &node_ranks);
  MPI_Comm_free(&node);
  int ok = node_ranks == ranks ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (!all) return false;
  // Then a trial: one page a rank, mapped by every other (what decides is whether CUDA maps
  // it: peer access, GPUs this process cannot see, MIG instances and containers without a
  // shared IPC namespace all answer here), released again.
  peer_block trial;
  try {
    trial = peer_allocate(1);
  } catch (const error&) {
    ok = 0;
  }
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  if (all) {
    try {
      peer_map(trial, comm);
    } catch (const error&) {
      ok = 0;
    }
  }
  peer_release(trial, comm);
  (void)cudaGetLastError();
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, comm);
  return all == 1;
}

peer_block peer_allocate(std::size_t bytes) {
  peer_block block;
  // Whole 2 MiB pages (an empty part gets one: cudaIpcGetMemHandle needs an allocation): an
  // allocation of 1 GiB + 123456 bytes took the other GPU's random 4-byte loads and stores
  // from 7.6 to 0.11 G/s (bench/peer_access_probe.cu, RESULTS §51; small pages for the mapping).
  const std::size_t page = std::size_t(2) << 20;
  check(cudaMalloc(&block.own, std::max<std::size_t>(page, (bytes + page - 1) / page * page)), "cudaMalloc (shared ranks)");
  cudaIpcMemHandle_t handle{};
  const cudaError_t got = cudaIpcGetMemHandle(&handle, block.own);
  if (got != cudaSuccess) {
    cudaFree(block.own);
    check(got, "cudaIpcGetMemHandle");
  }
  block.handle.assign(reinterpret_cast<const char*>(&handle), reinterpret_cast<const char*>(&handle) + sizeof handle);
  return block;
}

void peer_map(peer_block& block, MPI_Comm comm) {
  int ranks = 1, rank = 0;
  MPI_Comm_size(comm, &ranks);
  MPI_Comm_rank(comm, &rank);
  const int size = int(sizeof(cudaIpcMemHandle_t));
  std::vector<char> all(std::size_t(size) * std::size_t(ranks));
  block.handle.resize(std::size_t(size));  // (a rank whose allocation failed sends zeros)
  MPI_Allgather(block.handle.data(), size, MPI_BYTE, all.data(), size, MPI_BYTE, comm);
  block.parts.assign(std::size_t(ranks), nullptr);
  block.parts[rank] = block.own;
  for (int r = 0; r < ranks; ++r) {
    if (r == rank) continue;
    cudaIpcMemHandle_t handle{};
    std::memcpy(&handle, all.data() + std::size_t(size) * std::size_t(r), std::size_t(size));
    check(cudaIpcOpenMemHandle(&block.parts[r], handle, cudaIpcMemLazyEnablePeerAccess),
          ("cudaIpcOpenMemHandle (rank " + std::to_string(r) + "'s part)").c_str());
  }
}

void peer_release(peer_block& block, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  cudaDeviceSynchronize();  // no kernel of this rank still touches another's part
  for (std::size_t r = 0; r < block.parts.size(); ++r)
    if (int(r) != rank && block.parts[r]) cudaIpcCloseMemHandle(block.parts[r]);
  MPI_Barrier(comm);
  if (block.own) cudaFree(block.own);
  block = peer_block{};
}

}  // namespace strix::backend::cuda
