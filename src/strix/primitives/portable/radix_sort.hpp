// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Portable stable LSD radix sort of key/value pairs, on any Kokkos execution space.
//
// Kokkos' own sorts do not fit here: Kokkos::sort and BinSort are not stable and sort
// no key/value pairs by a bit range, and an LSD pass needs a stable scatter. So: the
// input is cut into chunks, each chunk counts its digits (8 bits a pass), one exclusive
// scan over the counts in digit-major order gives every (digit, chunk) its first output
// slot, and each chunk scatters its elements in order. A pass on which every key has the
// same digit is skipped. Chunks are few and long on host spaces (one per thread) and
// short on devices, where this is correct but slow: vendor overloads take over there.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include <strix/core/device_view.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::primitives::portable {

constexpr int radix_bits = 8;
constexpr std::size_t radix_buckets = std::size_t(1) << radix_bits;

template <class ExecSpace>
std::size_t radix_chunks(const ExecSpace& space, std::size_t n) {
  constexpr bool host = is_host_space_v<ExecSpace>;
  const std::size_t min_chunk = host ? (std::size_t(1) << 14) : 1024;
  std::size_t chunks = (n + min_chunk - 1) / min_chunk;
  if (host && chunks > std::size_t(space.concurrency())) chunks = space.concurrency();
  return chunks < 1 ? 1 : chunks;
}

// Scratch bytes radix_sort_pairs needs for n pairs.
template <class ExecSpace>
std::size_t radix_sort_pairs_scratch_bytes(const ExecSpace& space, std::size_t n) {
  return (radix_chunks(space, n) * radix_buckets + 1) * sizeof(std::uint64_t);
}

// Sorts (keys, vals) by key bits [begin_bit, end_bit), stably; *_alt are scratch of the
// same length. Returns true when the sorted pairs ended in the *_alt views.
template <class ExecSpace, class K, class V>
bool radix_sort_pairs(const ExecSpace& space, workspace<ExecSpace>& ws,
                      const device_view<K, ExecSpace>& keys, const device_view<K, ExecSpace>& keys_alt,
                      const device_view<V, ExecSpace>& vals, const device_view<V, ExecSpace>& vals_alt,
                      int begin_bit, int end_bit) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::size_t n = keys.extent(0);
  if (n < 2 || begin_bit >= end_bit) return false;
  const std::size_t chunks = radix_chunks(space, n);
  const std::size_t chunk_len = (n + chunks - 1) / chunks;
  const std::size_t slots = chunks * radix_buckets;
  auto* base = static_cast<std::uint64_t*>(ws.reserve(radix_sort_pairs_scratch_bytes(space, n)));
  device_view<std::uint64_t, ExecSpace> start(base, slots + 1);  // digit-major: d * chunks + c
  device_view<K, ExecSpace> src_k = keys, dst_k = keys_alt;
  device_view<V, ExecSpace> src_v = vals, dst_v = vals_alt;
  bool swapped = false;
  for (int shift = begin_bit; shift < end_bit; shift += radix_bits) {
    const int width = end_bit - shift < radix_bits ? end_bit - shift : radix_bits;
    const K mask = static_cast<K>((K(1) << width) - 1);
    auto sk = src_k;
    Kokkos::parallel_for(
        "strix::portable_radix_count", policy(space, 0, chunks), KOKKOS_LAMBDA(const std::int64_t c) {
          for (std::size_t d = 0; d < radix_buckets; ++d) start(d * chunks + c) = 0;
          const std::size_t lo = c * chunk_len, hi = lo + chunk_len < n ? lo + chunk_len : n;
          for (std::size_t i = lo; i < hi; ++i) ++start(((sk(i) >> shift) & mask) * chunks + c);
        });
    // Exclusive scan; start(slots) = n. A digit holding every key makes the pass a no-op.
    std::uint64_t largest = 0;
    Kokkos::parallel_scan(
        "strix::portable_radix_offsets", policy(space, 0, slots + 1),
        KOKKOS_LAMBDA(const std::int64_t s, std::uint64_t& upd, const bool final) {
          const std::uint64_t count = std::size_t(s) < slots ? start(s) : 0;
          if (final) start(s) = upd;
          upd += count;
        });
    Kokkos::parallel_reduce(
        "strix::portable_radix_largest_digit", policy(space, 0, radix_buckets),
        KOKKOS_LAMBDA(const std::int64_t d, std::uint64_t& mx) {
          const std::uint64_t total = start((d + 1) * chunks) - start(d * chunks);
          if (total > mx) mx = total;
        },
        Kokkos::Max<std::uint64_t>(largest));
    if (largest == n) continue;
    auto sv = src_v;
    auto dk = dst_k;
    auto dv = dst_v;
    Kokkos::parallel_for(
        "strix::portable_radix_scatter", policy(space, 0, chunks), KOKKOS_LAMBDA(const std::int64_t c) {
          const std::size_t lo = c * chunk_len, hi = lo + chunk_len < n ? lo + chunk_len : n;
          for (std::size_t i = lo; i < hi; ++i) {
            const std::uint64_t dst = start(((sk(i) >> shift) & mask) * chunks + c)++;
            dk(dst) = sk(i);
            dv(dst) = sv(i);
          }
        });
    std::swap(src_k, dst_k);
    std::swap(src_v, dst_v);
    swapped = !swapped;
  }
  return swapped;
}

}  // namespace strix::primitives::portable
