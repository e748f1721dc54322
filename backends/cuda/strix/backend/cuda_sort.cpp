// CUB-backed definitions of the CUDA sort primitives (see cuda_sort.hpp).
#include <strix/backend/cuda_sort.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include <cstdint>
#include <string>

#include <strix/error.hpp>

namespace strix::backend::cuda {
namespace {

void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // clear the sticky-free error state
  const std::string msg = std::string(what) + ": " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation)
    throw strix::error(strix::error_code::device_out_of_memory, msg);
  throw strix::error(strix::error_code::device_error, msg);
}

}  // namespace

template <class K, class V>
std::size_t radix_sort_pairs_temp_bytes(std::size_t n, int begin_bit, int end_bit) {
  cub::DoubleBuffer<K> k(nullptr, nullptr);
  cub::DoubleBuffer<V> v(nullptr, nullptr);
  std::size_t bytes = 0;
  check(cub::DeviceRadixSort::SortPairs(nullptr, bytes, k, v, n, begin_bit, end_bit),
        "cub::DeviceRadixSort (size query)");
  return bytes;
}

template <class K, class V>
void radix_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                      K* keys_alt, V* vals, V* vals_alt, std::size_t n, int begin_bit,
                      int end_bit, bool& swapped) {
  swapped = false;
  if (n < 2 || begin_bit >= end_bit) return;
  cub::DoubleBuffer<K> k(keys, keys_alt);
  cub::DoubleBuffer<V> v(vals, vals_alt);
  check(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, n, begin_bit, end_bit,
                                        space.cuda_stream()),
        "cub::DeviceRadixSort::SortPairs");
  swapped = (k.Current() != keys);
}

template <class K, class V, class O>
std::size_t segmented_sort_pairs_temp_bytes(std::size_t n, std::size_t num_segments) {
  cub::DoubleBuffer<K> k(nullptr, nullptr);
  cub::DoubleBuffer<V> v(nullptr, nullptr);
  std::size_t bytes = 0;
  const O* offsets = nullptr;
  check(cub::DeviceSegmentedSort::SortPairs(nullptr, bytes, k, v, static_cast<std::int64_t>(n),
                                            static_cast<std::int64_t>(num_segments), offsets,
                                            offsets + 1),
        "cub::DeviceSegmentedSort (size query)");
  return bytes;
}

template <class K, class V, class O>
void segmented_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                          K* keys_alt, V* vals, V* vals_alt, std::size_t n, const O* offsets,
                          std::size_t num_segments, bool& swapped) {
  swapped = false;
  if (n < 2 || num_segments == 0) return;
  cub::DoubleBuffer<K> k(keys, keys_alt);
  cub::DoubleBuffer<V> v(vals, vals_alt);
  check(cub::DeviceSegmentedSort::SortPairs(temp, temp_bytes, k, v, static_cast<std::int64_t>(n),
                                            static_cast<std::int64_t>(num_segments), offsets,
                                            offsets + 1, space.cuda_stream()),
        "cub::DeviceSegmentedSort::SortPairs");
  swapped = (k.Current() != keys);
}

#define STRIX_INSTANTIATE_RADIX(K, V)                                                        \
  template std::size_t radix_sort_pairs_temp_bytes<K, V>(std::size_t, int, int);            \
  template void radix_sort_pairs<K, V>(const Kokkos::Cuda&, void*, std::size_t, K*, K*, V*, \
                                       V*, std::size_t, int, int, bool&);
#define STRIX_INSTANTIATE_SEGMENTED(K, V, O)                                                  \
  template std::size_t segmented_sort_pairs_temp_bytes<K, V, O>(std::size_t, std::size_t);   \
  template void segmented_sort_pairs<K, V, O>(const Kokkos::Cuda&, void*, std::size_t, K*, K*, \
                                              V*, V*, std::size_t, const O*, std::size_t, bool&);

STRIX_INSTANTIATE_RADIX(std::uint64_t, std::uint32_t)
STRIX_INSTANTIATE_RADIX(std::uint64_t, std::uint64_t)
STRIX_INSTANTIATE_RADIX(std::uint32_t, std::uint32_t)
STRIX_INSTANTIATE_RADIX(std::uint32_t, std::uint64_t)
STRIX_INSTANTIATE_SEGMENTED(std::uint32_t, std::uint32_t, std::uint32_t)
STRIX_INSTANTIATE_SEGMENTED(std::uint64_t, std::uint64_t, std::uint64_t)

}  // namespace strix::backend::cuda
#endif
