#pragma once
// CUDA backend of strix's sort primitives: a thin adapter over CUB. Only declarations
// here (no CUB types): the definitions live in cuda_sort.cpp, compiled into libstrix.
#include <Kokkos_Core.hpp>

#ifdef KOKKOS_ENABLE_CUDA
#include <cstddef>

namespace strix::backend::cuda {

// Scratch bytes CUB needs to radix-sort n pairs on bits [begin_bit, end_bit).
template <class K, class V>
std::size_t radix_sort_pairs_temp_bytes(std::size_t n, int begin_bit, int end_bit);

// Radix sort of (keys, vals) on bits [begin_bit, end_bit); *_alt are the second halves
// of CUB's double buffers; `swapped` says the result ended there.
template <class K, class V>
void radix_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                      K* keys_alt, V* vals, V* vals_alt, std::size_t n, int begin_bit,
                      int end_bit, bool& swapped);

// Scratch bytes CUB needs to sort n pairs in num_segments segments.
template <class K, class V, class O>
std::size_t segmented_sort_pairs_temp_bytes(std::size_t n, std::size_t num_segments);

// Sorts (keys, vals) inside each segment [offsets[s], offsets[s+1]) (device pointers).
template <class K, class V, class O>
void segmented_sort_pairs(const Kokkos::Cuda& space, void* temp, std::size_t temp_bytes, K* keys,
                          K* keys_alt, V* vals, V* vals_alt, std::size_t n, const O* offsets,
                          std::size_t num_segments, bool& swapped);

}  // namespace strix::backend::cuda
#endif
