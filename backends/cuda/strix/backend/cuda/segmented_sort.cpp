// SPDX-License-Identifier: BSD-3-Clause
// CUB-backed CUDA segmented sort of pairs (see segmented_sort.hpp).
#include <strix/backend/cuda/segmented_sort.hpp>

#include <cub/device/device_segmented_sort.cuh>

#include <strix/backend/cuda/error.hpp>

namespace strix::backend::cuda {

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
bool segmented_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                          K* keys_alt, V* vals, V* vals_alt, std::size_t n, const O* offsets,
                          std::size_t num_segments) {
  if (n < 2 || num_segments == 0) return false;
  cub::DoubleBuffer<K> k(keys, keys_alt);
  cub::DoubleBuffer<V> v(vals, vals_alt);
  check(cub::DeviceSegmentedSort::SortPairs(temp, temp_bytes, k, v, static_cast<std::int64_t>(n),
                                            static_cast<std::int64_t>(num_segments), offsets,
                                            offsets + 1, space.cuda_stream()),
        "cub::DeviceSegmentedSort::SortPairs");
  return k.Current() != keys;
}

#define STRIX_INSTANTIATE_SEGMENTED(T)                                                        \
  template std::size_t segmented_sort_pairs_temp_bytes<T, T, T>(std::size_t, std::size_t);   \
  template bool segmented_sort_pairs<T, T, T>(const Kokkos::Cuda&, void*, std::size_t, T*, T*, \
                                              T*, T*, std::size_t, const T*, std::size_t);
STRIX_INSTANTIATE_SEGMENTED(std::uint32_t)
STRIX_INSTANTIATE_SEGMENTED(std::uint64_t)

}  // namespace strix::backend::cuda
