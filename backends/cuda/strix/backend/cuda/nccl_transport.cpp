// SPDX-License-Identifier: BSD-3-Clause
// NCCL transport of the distributed constructions (nccl_transport.hpp).
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstring>
#include <set>
#include <string>
#include <vector>

#include <strix/backend/cuda/error.hpp>
#include <strix/backend/cuda/nccl_transport.hpp>
#include <strix/error.hpp>

namespace strix::backend::cuda {
namespace {

void check_nccl(ncclResult_t status, const char* what) {
  if (status == ncclSuccess) return;
  throw strix::error(strix::error_code::device_error, std::string(what) + ": " + ncclGetErrorString(status));
}

// MPI calls this when the communicator is freed, or at MPI_Finalize for MPI_COMM_WORLD and
// MPI_COMM_SELF's attributes (MPI_COMM_SELF's go first, while CUDA is still up).
int destroy_attribute(MPI_Comm, int, void* value, void*) {
  ncclCommDestroy(static_cast<ncclComm_t>(value));
  return MPI_SUCCESS;
}

int keyval() {
  static int key = [] {
    int k = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, destroy_attribute, &k, nullptr);
    return k;
  }();
  return key;
}

// MPI_COMM_WORLD's attributes may outlive CUDA at MPI_Finalize: its communicator is destroyed
// from an attribute of MPI_COMM_SELF instead, which MPI_Finalize deletes first.
int destroy_world(MPI_Comm, int, void* value, void*) {
  void* nccl = nullptr;
  int found = 0;
  MPI_Comm_get_attr(MPI_COMM_WORLD, keyval(), &nccl, &found);
  if (found) MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval());
  (void)value;
  return MPI_SUCCESS;
}

}  // namespace

bool nccl_devices_distinct(MPI_Comm comm) {
  // The device's PCI address and the host's name: NCCL refuses two ranks on one GPU.
  char mine[MPI_MAX_PROCESSOR_NAME + 64] = {};
  int device = 0, length = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetPCIBusId(mine, 63, device), "cudaDeviceGetPCIBusId");
  const std::size_t at = std::strlen(mine);
  mine[at] = '@';
  MPI_Get_processor_name(mine + at + 1, &length);
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  std::vector<char> all(sizeof(mine) * std::size_t(ranks));
  MPI_Allgather(mine, int(sizeof(mine)), MPI_CHAR, all.data(), int(sizeof(mine)), MPI_CHAR, comm);
  std::set<std::string> seen;
  for (int r = 0; r < ranks; ++r) seen.insert(std::string(all.data() + sizeof(mine) * std::size_t(r)));
  return int(seen.size()) == ranks;
}

void* nccl_communicator(MPI_Comm comm) {
  void* cached = nullptr;
  int found = 0;
  MPI_Comm_get_attr(comm, keyval(), &cached, &found);
  if (found) return cached;
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  ncclUniqueId id{};
  if (rank == 0) check_nccl(ncclGetUniqueId(&id), "ncclGetUniqueId");
  MPI_Bcast(&id, int(sizeof(id)), MPI_BYTE, 0, comm);
  ncclComm_t nccl = nullptr;
  check_nccl(ncclCommInitRank(&nccl, ranks, id, rank), "ncclCommInitRank");
  MPI_Comm_set_attr(comm, keyval(), nccl);
  int same = 0;
  MPI_Comm_compare(comm, MPI_COMM_WORLD, &same);
  if (same == MPI_IDENT) {
    int self_key = MPI_KEYVAL_INVALID;
    MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, destroy_world, &self_key, nullptr);
    MPI_Comm_set_attr(MPI_COMM_SELF, self_key, nullptr);
  }
  return nccl;
}

void nccl_all_to_all(void* nccl, int ranks, int rank, const void* send, const std::uint64_t* send_offsets,
                     void* recv, const std::uint64_t* recv_offsets, void* stream) {
  auto comm = static_cast<ncclComm_t>(nccl);
  auto s = static_cast<cudaStream_t>(stream);
  const auto* from = static_cast<const char*>(send);
  auto* to = static_cast<char*>(recv);
  // What a rank keeps is a copy on its own stream.
  const std::uint64_t kept = send_offsets[rank + 1] - send_offsets[rank];
  if (kept)
    check(cudaMemcpyAsync(to + recv_offsets[rank], from + send_offsets[rank], kept, cudaMemcpyDeviceToDevice, s),
          "cudaMemcpyAsync");
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (int r = 0; r < ranks; ++r) {
    if (r == rank) continue;
    const std::uint64_t out = send_offsets[r + 1] - send_offsets[r], in = recv_offsets[r + 1] - recv_offsets[r];
    if (out) check_nccl(ncclSend(from + send_offsets[r], out, ncclUint8, r, comm, s), "ncclSend");
    if (in) check_nccl(ncclRecv(to + recv_offsets[r], in, ncclUint8, r, comm, s), "ncclRecv");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
}

void nccl_all_gather(void* nccl, int ranks, int rank, const void* send, std::uint64_t bytes, void* recv,
                     const std::uint64_t* recv_offsets, void* stream) {
  auto comm = static_cast<ncclComm_t>(nccl);
  auto s = static_cast<cudaStream_t>(stream);
  auto* to = static_cast<char*>(recv);
  // (An empty own range: the caller gathers the other ranks' parts only.)
  if (bytes && recv_offsets[rank + 1] > recv_offsets[rank])
    check(cudaMemcpyAsync(to + recv_offsets[rank], send, bytes, cudaMemcpyDeviceToDevice, s), "cudaMemcpyAsync");
  check_nccl(ncclGroupStart(), "ncclGroupStart");
  for (int r = 0; r < ranks; ++r) {
    if (r == rank) continue;
    const std::uint64_t in = recv_offsets[r + 1] - recv_offsets[r];
    if (bytes) check_nccl(ncclSend(send, bytes, ncclUint8, r, comm, s), "ncclSend");
    if (in) check_nccl(ncclRecv(to + recv_offsets[r], in, ncclUint8, r, comm, s), "ncclRecv");
  }
  check_nccl(ncclGroupEnd(), "ncclGroupEnd");
}

}  // namespace strix::backend::cuda
