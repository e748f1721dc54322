// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Tuned host code behind strix's sort primitives on the OpenMP and Serial execution
// spaces: a parallel stable LSD radix sort of key/value pairs over raw pointers with one
// chunk per thread and host histograms, and a segmented sort (insertion sort, std::sort,
// or the radix sort for segments of 2^16 and more).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace strix::backend::host {

// Stable LSD radix sort of (keys[i], vals[i]) on key bits [begin_bit, end_bit).
// Uses *_alt as scratch; on return `swapped` says the result is in the *_alt arrays.
template <class ExecSpace, class K, class V>
void radix_sort_pairs(const ExecSpace& space, K* keys, K* keys_alt, V* vals, V* vals_alt,
                      std::size_t n, int begin_bit, int end_bit, bool& swapped) {
  swapped = false;
  if (n < 2 || begin_bit >= end_bit) return;
  constexpr int radix_bits = 8;
  constexpr std::size_t buckets = std::size_t(1) << radix_bits;
  const std::size_t min_chunk = 1 << 14;
  const std::size_t chunks =
      std::max<std::size_t>(1, std::min<std::size_t>(space.concurrency(), n / min_chunk));
  const std::size_t chunk_len = (n + chunks - 1) / chunks;
  std::vector<std::size_t> hist(chunks * buckets);
  std::size_t* h = hist.data();
  K *src_k = keys, *dst_k = keys_alt;
  V *src_v = vals, *dst_v = vals_alt;
  for (int shift = begin_bit; shift < end_bit; shift += radix_bits) {
    const int width = std::min(radix_bits, end_bit - shift);
    const K mask = static_cast<K>((K(1) << width) - 1);
    Kokkos::parallel_for(
        "strix::host_radix_histogram",
        Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>>(space, 0, chunks),
        [=](const std::size_t c) {
          std::size_t* hc = h + c * buckets;
          for (std::size_t b = 0; b < buckets; ++b) hc[b] = 0;
          const std::size_t lo = c * chunk_len, hi = std::min(n, lo + chunk_len);
          for (std::size_t i = lo; i < hi; ++i) ++hc[(src_k[i] >> shift) & mask];
        });
    space.fence();
    // Skip a digit on which every key agrees: the pass would not move anything.
    bool trivial = false;
    for (std::size_t b = 0; b < buckets && !trivial; ++b) {
      std::size_t total = 0;
      for (std::size_t c = 0; c < chunks; ++c) total += h[c * buckets + b];
      trivial = (total == n);
      if (total) break;
    }
    if (!trivial) {
      std::size_t sum = 0;
      for (std::size_t b = 0; b < buckets; ++b)
        for (std::size_t c = 0; c < chunks; ++c) {
          const std::size_t cnt = h[c * buckets + b];
          h[c * buckets + b] = sum;
          sum += cnt;
        }
      Kokkos::parallel_for(
          "strix::host_radix_scatter",
          Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Static>>(space, 0, chunks),
          [=](const std::size_t c) {
            std::size_t* hc = h + c * buckets;
            const std::size_t lo = c * chunk_len, hi = std::min(n, lo + chunk_len);
            for (std::size_t i = lo; i < hi; ++i) {
              const std::size_t d = hc[(src_k[i] >> shift) & mask]++;
              dst_k[d] = src_k[i];
              dst_v[d] = src_v[i];
            }
          });
      space.fence();
      std::swap(src_k, dst_k);
      std::swap(src_v, dst_v);
      swapped = !swapped;
    }
  }
}

// Sorts (keys, vals) by key inside each segment [offsets[s], offsets[s+1]).
// In place; *_alt are scratch for segments large enough for the parallel radix sort.
template <class ExecSpace, class K, class V, class O>
void segmented_sort_pairs(const ExecSpace& space, K* keys, K* keys_alt, V* vals, V* vals_alt,
                          const O* offsets, std::size_t num_segments, int key_bits) {
  const std::size_t large = space.concurrency() > 1 ? (std::size_t(1) << 16) : ~std::size_t(0);
  // Small segments: many at a time, each sorted by one thread.
  Kokkos::parallel_for(
      "strix::host_segmented_sort",
      Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>>(space, 0, num_segments),
      [=](const std::size_t s) {
        const std::size_t lo = offsets[s], hi = offsets[s + 1], m = hi - lo;
        if (m < 2 || m >= large) return;
        if (m <= 16) {  // insertion sort
          for (std::size_t i = lo + 1; i < hi; ++i) {
            const K k = keys[i];
            const V v = vals[i];
            std::size_t j = i;
            for (; j > lo && keys[j - 1] > k; --j) { keys[j] = keys[j - 1]; vals[j] = vals[j - 1]; }
            keys[j] = k;
            vals[j] = v;
          }
          return;
        }
        thread_local std::vector<std::pair<K, V>> buf;
        buf.resize(m);
        for (std::size_t i = 0; i < m; ++i) buf[i] = {keys[lo + i], vals[lo + i]};
        std::sort(buf.begin(), buf.end(),
                  [](const std::pair<K, V>& a, const std::pair<K, V>& b) { return a.first < b.first; });
        for (std::size_t i = 0; i < m; ++i) { keys[lo + i] = buf[i].first; vals[lo + i] = buf[i].second; }
      });
  space.fence();
  // Large segments: one after the other, each with the parallel radix sort.
  if (large == ~std::size_t(0)) return;
  for (std::size_t s = 0; s < num_segments; ++s) {
    const std::size_t lo = offsets[s], hi = offsets[s + 1];
    if (hi - lo < large) continue;
    bool swapped = false;
    radix_sort_pairs(space, keys + lo, keys_alt + lo, vals + lo, vals_alt + lo, hi - lo, 0,
                     key_bits, swapped);
    if (swapped) {
      std::copy(keys_alt + lo, keys_alt + hi, keys + lo);
      std::copy(vals_alt + lo, vals_alt + hi, vals + lo);
    }
  }
}

}  // namespace strix::backend::host
