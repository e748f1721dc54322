// SPDX-License-Identifier: BSD-3-Clause
// Byte histogram on CUDA (see histogram.hpp). CUB's DeviceHistogram adds every byte with a
// shared-memory atomic; on a small alphabet (a DNA text, σ = 4) all 32 lanes of a warp hit
// the same few bins and serialise (49 ms for 2 GB at σ = 4 on an H200 against 16 ms at
// σ = 256). Here the lanes holding equal bytes are grouped first (__match_any_sync) and one
// lane adds the group's size, into a copy of the bins private to its warp: at most one
// atomic per distinct byte per warp step, whatever the alphabet.
#include <strix/backend/cuda/histogram.hpp>

#include <cuda_runtime.h>

#include <strix/backend/cuda/error.hpp>

namespace strix::backend::cuda {
// A named namespace: nvcc's stubs cannot name kernels in an anonymous one in a unity batch.
namespace byte_histogram_impl {

constexpr int hist_threads = 256;
constexpr int hist_warps = hist_threads / 32;

__device__ __forceinline__ void add_byte(unsigned* bins, unsigned byte, unsigned lane) {
  const unsigned peers = __match_any_sync(0xffffffffu, byte);
  if (lane == static_cast<unsigned>(__ffs(peers) - 1)) atomicAdd(bins + byte, static_cast<unsigned>(__popc(peers)));
}

__device__ __forceinline__ void add_word(unsigned* bins, unsigned word, unsigned lane) {
  add_byte(bins, word & 0xffu, lane);
  add_byte(bins, (word >> 8) & 0xffu, lane);
  add_byte(bins, (word >> 16) & 0xffu, lane);
  add_byte(bins, word >> 24, lane);
}

// Persistent blocks; 16-byte loads over the aligned middle, single bytes at the ends (the
// tail lanes add a byte value 256 — a spare bin — so that every lane takes part in the match).
__global__ void byte_histogram_kernel(const std::uint8_t* values, std::size_t n, unsigned long long* counts) {
  // 32-bit bins: a warp adds at most n / (blocks * hist_warps) bytes, far below 2^32 for any
  // text a device holds.
  __shared__ unsigned bins[hist_warps][257];
  for (int i = threadIdx.x; i < hist_warps * 257; i += hist_threads) (&bins[0][0])[i] = 0;
  __syncthreads();
  const unsigned lane = threadIdx.x & 31u;
  unsigned* mine = bins[threadIdx.x >> 5];
  const std::size_t head = (16 - (reinterpret_cast<std::uintptr_t>(values) & 15)) & 15;
  const std::size_t first = head < n ? head : n;
  const std::size_t vectors = (n - first) / 16;
  const uint4* v = reinterpret_cast<const uint4*>(values + first);
  const std::size_t stride = std::size_t(gridDim.x) * hist_threads;
  // Whole warps iterate together (match needs all lanes): the range is rounded up to warps.
  const std::size_t warp_span = (vectors + 31) / 32 * 32;
  for (std::size_t i = std::size_t(blockIdx.x) * hist_threads + threadIdx.x; i - lane < warp_span; i += stride) {
    if (i < vectors) {
      const uint4 x = v[i];
      add_word(mine, x.x, lane);
      add_word(mine, x.y, lane);
      add_word(mine, x.z, lane);
      add_word(mine, x.w, lane);
    } else {
      for (int b = 0; b < 16; ++b) add_byte(mine, 256u, lane);
    }
  }
  // The unaligned head and the tail (fewer than 16 + 15 bytes): block 0's first warp.
  if (blockIdx.x == 0 && threadIdx.x < 32) {
    const std::size_t tail = first + vectors * 16;
    for (std::size_t base = 0; base < first + (n - tail); base += 32) {
      const std::size_t j = base + lane;
      unsigned byte = 256u;
      if (j < first) byte = values[j];
      else if (j < first + (n - tail)) byte = values[tail + (j - first)];
      add_byte(mine, byte, lane);
    }
  }
  __syncthreads();
  for (int c = threadIdx.x; c < 256; c += hist_threads) {
    unsigned long long total = 0;
    for (int w = 0; w < hist_warps; ++w) total += bins[w][c];
    if (total) atomicAdd(counts + c, total);
  }
}

}  // namespace byte_histogram_impl

std::size_t byte_histogram_temp_bytes(std::size_t) { return 0; }

void byte_histogram(const Kokkos::Cuda& space, void*, std::size_t, const std::uint8_t* values, std::size_t n,
                    std::uint64_t* counts) {
  using namespace byte_histogram_impl;
  const cudaStream_t stream = space.cuda_stream();
  check(cudaMemsetAsync(counts, 0, 256 * sizeof(std::uint64_t), stream), "cudaMemsetAsync");
  if (n == 0) return;
  int device = 0, sms = 0, per_sm = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device), "cudaDeviceGetAttribute");
  check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, byte_histogram_kernel, hist_threads, 0),
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  const std::size_t wanted = (n / 16 + hist_threads - 1) / hist_threads + 1;
  const std::size_t most = std::size_t(sms) * std::size_t(per_sm > 0 ? per_sm : 1);
  const unsigned blocks = static_cast<unsigned>(wanted < most ? wanted : most);
  byte_histogram_kernel<<<blocks, hist_threads, 0, stream>>>(values, n, reinterpret_cast<unsigned long long*>(counts));
  check(cudaGetLastError(), "byte_histogram_kernel launch");
}

}  // namespace strix::backend::cuda
