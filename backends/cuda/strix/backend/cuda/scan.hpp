// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA overloads of strix::primitives::scan (warp scans of strix's own, below) and
// select_indices (CUB's single-pass selection). Templates on the caller's functor, so they are defined here and compiled
// where an algorithm instantiates them, inside libstrix; only algorithm sources that are
// compiled into the library include this (through strix/primitives/scan.hpp).
#include <Kokkos_Core.hpp>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_select.cuh>
#include <cub/util_ptx.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <cstddef>
#include <cstdint>

#include <strix/backend/cuda/error.hpp>
#include <strix/primitives/views.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::backend::cuda {

// The scan with a user functor, in three launches (reduce, then scan): each warp takes 512
// consecutive elements in 16 coalesced rounds of 32 and folds their contributions in order
// (warp scans), its total to global memory; one device scan over those totals gives every warp
// its prefix; each warp then walks its elements again, giving each its exclusive prefix and
// running the functor's final pass. Each element is read twice from DRAM, but no tile waits on
// its predecessors: CUB's single-pass scan of a value of more than 8 bytes (the round scans'
// 12-byte states) looks back through a status word and a separate value with a fence each, and
// ran at ~30 % of the H200's DRAM rate (bench/RESULTS.md §70 (c)).
constexpr int scan_warp_rounds = 16;
constexpr int scan_block_threads = 256;
constexpr std::int64_t scan_warp_elements = 32 * scan_warp_rounds;
constexpr int scan_block_warps = scan_block_threads / 32;

template <class Functor>
struct scan_combine {
  Functor f;
  __host__ __device__ typename Functor::value_type operator()(
      const typename Functor::value_type& a, const typename Functor::value_type& b) const {
    typename Functor::value_type r = a;
    f.join(r, b);
    return r;
  }
};

// Element i's own contribution (the functor's update of the identity), the identity past n.
template <class Functor>
__device__ __forceinline__ typename Functor::value_type scan_contribution(const Functor& f, std::int64_t i,
                                                                          std::int64_t n) {
  typename Functor::value_type v;
  f.init(v);
  if (i < n) f(i, v, false);
  return v;
}

// The inclusive scan of v over the warp's lanes, in lane order.
template <class Functor>
__device__ __forceinline__ typename Functor::value_type warp_inclusive(const Functor& f,
                                                                       typename Functor::value_type v, int lane) {
  using value_type = typename Functor::value_type;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const value_type up = cub::ShuffleUp<32>(v, d, 0, 0xffffffffu);
    if (lane >= d) {
      value_type r = up;
      f.join(r, v);
      v = r;
    }
  }
  return v;
}

template <class Functor>
__global__ void __launch_bounds__(scan_block_threads)
    scan_warp_totals(const Functor f, const std::int64_t n, typename Functor::value_type* totals) {
  using value_type = typename Functor::value_type;
  const int lane = threadIdx.x & 31;
  const std::int64_t warp = std::int64_t(blockIdx.x) * scan_block_warps + (threadIdx.x >> 5);
  const std::int64_t base = warp * scan_warp_elements;
  if (base >= n) return;
  value_type total;
  f.init(total);
  for (int r = 0; r < scan_warp_rounds; ++r) {
    const value_type inclusive = warp_inclusive(f, scan_contribution(f, base + 32 * r + lane, n), lane);
    f.join(total, cub::ShuffleIndex<32>(inclusive, 31, 0xffffffffu));
  }
  if (lane == 0) totals[warp] = total;
}

template <class Functor>
__global__ void __launch_bounds__(scan_block_threads)
    scan_warp_finish(const Functor f, const std::int64_t n, const typename Functor::value_type* prefixes,
                     typename Functor::value_type* total) {
  using value_type = typename Functor::value_type;
  const int lane = threadIdx.x & 31;
  const std::int64_t warp = std::int64_t(blockIdx.x) * scan_block_warps + (threadIdx.x >> 5);
  const std::int64_t base = warp * scan_warp_elements;
  if (base >= n) return;
  value_type prefix = prefixes[warp];
  for (int r = 0; r < scan_warp_rounds; ++r) {
    const std::int64_t i = base + 32 * r + lane;
    const value_type inclusive = warp_inclusive(f, scan_contribution(f, i, n), lane);
    value_type before = cub::ShuffleUp<32>(inclusive, 1, 0, 0xffffffffu);
    value_type exclusive = prefix;
    if (lane > 0) f.join(exclusive, before);
    if (i < n) {
      f(i, exclusive, true);  // (exclusive becomes element i's inclusive prefix)
      if (i + 1 == n) *total = exclusive;
    }
    f.join(prefix, cub::ShuffleIndex<32>(inclusive, 31, 0xffffffffu));
  }
}

// The scratch of a scan of n elements: the warps' totals, their prefixes, CUB's scan of them.
template <class Functor>
struct scan_scratch_layout {
  using value_type = typename Functor::value_type;
  std::int64_t warps = 0;
  std::size_t array_bytes = 0, cub_bytes = 0;
  explicit scan_scratch_layout(std::int64_t n) {
    warps = (n + scan_warp_elements - 1) / scan_warp_elements;
    array_bytes = (std::size_t(warps) * sizeof(value_type) + 255) / 256 * 256;
    value_type init;
    Functor{}.init(init);
    check(cub::DeviceScan::ExclusiveScan(nullptr, cub_bytes, static_cast<value_type*>(nullptr),
                                         static_cast<value_type*>(nullptr), scan_combine<Functor>{Functor{}}, init,
                                         warps),
          "cub::DeviceScan (size query)");
  }
  std::size_t bytes() const { return 2 * array_bytes + cub_bytes; }
};

// Runs the scan on `stream` with scratch `temp` (layout.bytes()); the total into *total.
template <class Functor>
void functor_scan(void* temp, const scan_scratch_layout<Functor>& layout, const Functor& f, std::int64_t n,
                  typename Functor::value_type* total, cudaStream_t stream) {
  using value_type = typename Functor::value_type;
  auto* totals = static_cast<value_type*>(temp);
  auto* prefixes = reinterpret_cast<value_type*>(static_cast<char*>(temp) + layout.array_bytes);
  void* cub_temp = static_cast<char*>(temp) + 2 * layout.array_bytes;
  const unsigned blocks = static_cast<unsigned>((layout.warps + scan_block_warps - 1) / scan_block_warps);
  scan_warp_totals<<<blocks, scan_block_threads, 0, stream>>>(f, n, totals);
  check(cudaGetLastError(), "scan_warp_totals launch");
  value_type init;
  f.init(init);
  std::size_t cub_bytes = layout.cub_bytes;
  check(cub::DeviceScan::ExclusiveScan(cub_temp, cub_bytes, totals, prefixes, scan_combine<Functor>{f}, init,
                                       layout.warps, stream),
        "cub::DeviceScan::ExclusiveScan (warp totals)");
  scan_warp_finish<<<blocks, scan_block_threads, 0, stream>>>(f, n, prefixes, total);
  check(cudaGetLastError(), "scan_warp_finish launch");
}

template <class Predicate>
struct index_predicate {
  Predicate pred;
  template <class I>
  __host__ __device__ bool operator()(const I i) const {
    return pred(static_cast<std::int64_t>(i));
  }
};

}  // namespace strix::backend::cuda

namespace strix::primitives {

template <class Functor>
std::size_t scan_scratch_bytes(const Kokkos::Cuda&, std::int64_t n) {
  return backend::cuda::scan_scratch_layout<Functor>(n).bytes();
}

template <class Functor>
void scan(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws, const char* /*label*/,
          const Functor& functor, std::int64_t n, typename Functor::value_type& total) {
  using value_type = typename Functor::value_type;
  functor.init(total);
  if (n <= 0) return;
  auto* device_total = static_cast<value_type*>(ws.result(sizeof(value_type)));
  const backend::cuda::scan_scratch_layout<Functor> layout(n);
  void* temp = ws.reserve(layout.bytes());
  backend::cuda::functor_scan(temp, layout, functor, n, device_total, space.cuda_stream());
  backend::cuda::check(cudaMemcpyAsync(&total, device_total, sizeof(value_type), cudaMemcpyDeviceToHost,
                                       space.cuda_stream()),
                       "cudaMemcpyAsync (scan total)");
  space.fence();
}

template <class Predicate, class I>
std::uint64_t select_indices(const Kokkos::Cuda& space, workspace<Kokkos::Cuda>& ws, std::int64_t n,
                             const Predicate& pred, const device_view<I, Kokkos::Cuda>& out) {
  if (n <= 0) return 0;
  auto* device_count = static_cast<std::int64_t*>(ws.result(sizeof(std::int64_t)));
  const thrust::counting_iterator<I> in(0);
  const backend::cuda::index_predicate<Predicate> select{pred};
  std::size_t bytes = 0;
  backend::cuda::check(cub::DeviceSelect::If(nullptr, bytes, in, out.data(), device_count, n, select),
                       "cub::DeviceSelect (size query)");
  void* temp = ws.reserve(bytes);
  backend::cuda::check(cub::DeviceSelect::If(temp, bytes, in, out.data(), device_count, n, select,
                                             space.cuda_stream()),
                       "cub::DeviceSelect::If");
  std::int64_t count = 0;
  backend::cuda::check(cudaMemcpyAsync(&count, device_count, sizeof(count), cudaMemcpyDeviceToHost,
                                       space.cuda_stream()),
                       "cudaMemcpyAsync (selected count)");
  space.fence();
  return static_cast<std::uint64_t>(count);
}

}  // namespace strix::primitives
