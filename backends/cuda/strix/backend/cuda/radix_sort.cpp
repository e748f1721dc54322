// SPDX-License-Identifier: BSD-3-Clause
// CUB-backed CUDA radix sort of pairs (see radix_sort.hpp), for every key and value type
// the header admits.
#include <strix/backend/cuda/radix_sort.hpp>

#include <cub/device/device_radix_sort.cuh>

#include <strix/backend/cuda/error.hpp>

namespace strix::backend::cuda {

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
bool radix_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                      K* keys_alt, V* vals, V* vals_alt, std::size_t n, int begin_bit, int end_bit) {
  if (n < 2 || begin_bit >= end_bit) return false;
  cub::DoubleBuffer<K> k(keys, keys_alt);
  cub::DoubleBuffer<V> v(vals, vals_alt);
  check(cub::DeviceRadixSort::SortPairs(temp, temp_bytes, k, v, n, begin_bit, end_bit,
                                        space.cuda_stream()),
        "cub::DeviceRadixSort::SortPairs");
  return k.Current() != keys;
}

#define STRIX_INSTANTIATE_RADIX(K, V)                                                        \
  template std::size_t radix_sort_pairs_temp_bytes<K, V>(std::size_t, int, int);            \
  template bool radix_sort_pairs<K, V>(const Kokkos::Cuda&, void*, std::size_t, K*, K*, V*, \
                                       V*, std::size_t, int, int);
STRIX_INSTANTIATE_RADIX(std::uint32_t, std::uint32_t)
STRIX_INSTANTIATE_RADIX(std::uint32_t, std::uint64_t)
STRIX_INSTANTIATE_RADIX(std::uint64_t, std::uint32_t)
STRIX_INSTANTIATE_RADIX(std::uint64_t, std::uint64_t)

}  // namespace strix::backend::cuda
