// SPDX-License-Identifier: BSD-3-Clause
// CUB-backed CUDA sort of small listed segments (see small_segment_sort.hpp). Segments are
// grouped by the caller into one size class a call; the class's power-of-two capacity picks
// the tile: a logical warp of W threads with IPT items each sorts one segment (several
// segments a block) up to 256 pairs, a whole block beyond. A tile is padded with
// (max, max) pairs, which sort after every other pair or are indistinguishable from it.
#include <strix/backend/cuda/small_segment_sort.hpp>

#include <cub/block/block_merge_sort.cuh>
#include <cub/warp/warp_merge_sort.cuh>

#include <limits>

#include <strix/backend/cuda/error.hpp>
#include <strix/error.hpp>

namespace strix::backend::cuda {
namespace {

template <class T>
struct kv_pair {
  T key, val;
};

// Sorting by (key, value) makes pads compare last and the result deterministic.
template <class T>
struct kv_less {
  __device__ bool operator()(const kv_pair<T>& a, const kv_pair<T>& b) const {
    return a.key < b.key || (a.key == b.key && a.val < b.val);
  }
};

constexpr int warp_kernel_threads = 128;

template <class T, int IPT>
__device__ void load_tile(kv_pair<T> (&items)[IPT], const T* keys, const T* vals, std::size_t lo,
                          std::size_t len, int rank) {
  constexpr T pad = static_cast<T>(~T(0));  // the largest T
  for (int q = 0; q < IPT; ++q) {
    const std::size_t i = std::size_t(rank) * IPT + q;
    items[q] = i < len ? kv_pair<T>{keys[lo + i], vals[lo + i]} : kv_pair<T>{pad, pad};
  }
}

template <class T, int IPT>
__device__ void store_tile(const kv_pair<T> (&items)[IPT], T* keys, T* vals, std::size_t lo,
                           std::size_t len, int rank) {
  for (int q = 0; q < IPT; ++q) {
    const std::size_t i = std::size_t(rank) * IPT + q;
    if (i < len) {
      keys[lo + i] = items[q].key;
      vals[lo + i] = items[q].val;
    }
  }
}

// One segment per logical warp of W threads.
template <class T, int W, int IPT>
__global__ void __launch_bounds__(warp_kernel_threads)
    warp_sort_kernel(T* keys, T* vals, const T* offsets, const T* segments, std::size_t count) {
  using sorter = cub::WarpMergeSort<kv_pair<T>, IPT, W>;
  constexpr int per_block = warp_kernel_threads / W;
  __shared__ typename sorter::TempStorage temp[per_block];
  const int local = threadIdx.x / W, lane = threadIdx.x % W;
  const std::size_t g = std::size_t(blockIdx.x) * per_block + local;
  if (g >= count) return;  // the whole logical warp leaves together
  const T s = segments[g];
  const std::size_t lo = offsets[s], len = offsets[s + 1] - lo;
  kv_pair<T> items[IPT];
  load_tile<T, IPT>(items, keys, vals, lo, len, lane);
  sorter(temp[local]).Sort(items, kv_less<T>());
  store_tile<T, IPT>(items, keys, vals, lo, len, lane);
}

// One segment per block of B threads.
template <class T, int B, int IPT>
__global__ void __launch_bounds__(B)
    block_sort_kernel(T* keys, T* vals, const T* offsets, const T* segments) {
  using sorter = cub::BlockMergeSort<kv_pair<T>, B, IPT>;
  __shared__ typename sorter::TempStorage temp;
  const T s = segments[blockIdx.x];
  const std::size_t lo = offsets[s], len = offsets[s + 1] - lo;
  kv_pair<T> items[IPT];
  load_tile<T, IPT>(items, keys, vals, lo, len, threadIdx.x);
  sorter(temp).Sort(items, kv_less<T>());
  store_tile<T, IPT>(items, keys, vals, lo, len, threadIdx.x);
}

template <class T, int W, int IPT>
void launch_warp(cudaStream_t stream, T* keys, T* vals, const T* offsets, const T* segments, std::size_t count) {
  constexpr int per_block = warp_kernel_threads / W;
  const std::size_t blocks = (count + per_block - 1) / per_block;
  warp_sort_kernel<T, W, IPT><<<static_cast<unsigned>(blocks), warp_kernel_threads, 0, stream>>>(
      keys, vals, offsets, segments, count);
}

template <class T, int B, int IPT>
void launch_block(cudaStream_t stream, T* keys, T* vals, const T* offsets, const T* segments, std::size_t count) {
  block_sort_kernel<T, B, IPT><<<static_cast<unsigned>(count), B, 0, stream>>>(keys, vals, offsets, segments);
}

}  // namespace

template <class T>
void sort_small_segments(const Kokkos::Cuda& space, T* keys, T* vals, const T* offsets, const T* segments,
                         std::size_t count, std::size_t max_len) {
  if (count == 0 || max_len < 2) return;
  STRIX_REQUIRE(max_len <= 2048);  // primitives::small_segment_max
  STRIX_REQUIRE(count < (std::size_t(1) << 31));
  const cudaStream_t st = space.cuda_stream();
  if (max_len <= 4) launch_warp<T, 4, 1>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 8) launch_warp<T, 8, 1>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 16) launch_warp<T, 16, 1>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 32) launch_warp<T, 32, 1>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 64) launch_warp<T, 32, 2>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 128) launch_warp<T, 32, 4>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 256) launch_warp<T, 32, 8>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 512) launch_block<T, 128, 4>(st, keys, vals, offsets, segments, count);
  else if (max_len <= 1024) launch_block<T, 128, 8>(st, keys, vals, offsets, segments, count);
  else launch_block<T, 256, 8>(st, keys, vals, offsets, segments, count);
  check(cudaGetLastError(), "strix small-segment sort launch");
}

template void sort_small_segments<std::uint32_t>(const Kokkos::Cuda&, std::uint32_t*, std::uint32_t*,
                                                 const std::uint32_t*, const std::uint32_t*, std::size_t,
                                                 std::size_t);
template void sort_small_segments<std::uint64_t>(const Kokkos::Cuda&, std::uint64_t*, std::uint64_t*,
                                                 const std::uint64_t*, const std::uint64_t*, std::size_t,
                                                 std::size_t);

}  // namespace strix::backend::cuda
