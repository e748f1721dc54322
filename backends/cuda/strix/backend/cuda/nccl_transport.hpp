// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// NCCL transport of the distributed constructions (STRIX_ENABLE_NCCL): device arrays go from
// GPU to GPU (NVLink, PCIe or the network, as NCCL finds), on the rank's CUDA stream, with no
// host copy and no host wait. One NCCL communicator per MPI communicator, made on first use
// (collective) and kept as the MPI communicator's attribute until it is freed or MPI ends.
// No NCCL or CUDA runtime type here (nccl_transport.cpp holds them).
#include <mpi.h>

#include <cstddef>
#include <cstdint>

namespace strix::backend::cuda {

// Whether every rank of `comm` has a GPU of its own (NCCL needs that). Collective.
bool nccl_devices_distinct(MPI_Comm comm);

// The NCCL communicator over `comm`'s ranks, each on its current CUDA device; made by the
// first call on every rank of `comm` together. Throws strix::error if NCCL fails.
void* nccl_communicator(MPI_Comm comm);

// Personalised all-to-all of device memory on `stream`: bytes send[send_offsets[r] ..
// send_offsets[r + 1]) to rank r, recv[recv_offsets[r] ..) from rank r (byte offsets, P + 1
// each). Returns once queued; the stream orders it with the kernels before and after.
void nccl_all_to_all(void* nccl, int ranks, int rank, const void* send, const std::uint64_t* send_offsets,
                     void* recv, const std::uint64_t* recv_offsets, void* stream);

// Every rank's `bytes` at `send` to every rank: recv[recv_offsets[r] ..) gets rank r's (byte
// offsets, P + 1; an empty own range leaves this rank's part out). Queued on `stream` like
// nccl_all_to_all.
void nccl_all_gather(void* nccl, int ranks, int rank, const void* send, std::uint64_t bytes, void* recv,
                     const std::uint64_t* recv_offsets, void* stream);

}  // namespace strix::backend::cuda
