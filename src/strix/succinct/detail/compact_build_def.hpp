// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Packing integers (packed_ints.hpp) and checking a sparse bit vector read from a file
// (sparse_bits.hpp), included by libstrix's instantiation files only.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/memory.hpp>
#include <strix/core/views.hpp>
#include <strix/succinct/packed_ints.hpp>
#include <strix/succinct/sparse_bits.hpp>

namespace strix::detail {

// values packed in `width` bits each (every value must fit): each word is assembled from
// the entries that overlap it, so no two threads write one word.
template <class ExecSpace, class T>
packed_ints_data<ExecSpace> pack_ints(const ExecSpace& space, const device_view<const T, ExecSpace>& values, int width,
                                      memory_tracker* tracker = nullptr) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  packed_ints_data<ExecSpace> d;
  d.count = values.extent(0);
  d.width = width;
  const std::uint64_t count = d.count, words = packed_words(count, width);
  d.words = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::packed_ints", words, tracker);
  const auto out = d.words;
  const std::uint64_t w_bits = std::uint64_t(width);
  Kokkos::parallel_for("strix::pack_ints", range(space, 0, std::int64_t(words)), KOKKOS_LAMBDA(const std::int64_t w) {
    std::uint64_t word = 0;
    if (w_bits > 0) {
      const std::uint64_t first_bit = std::uint64_t(w) * 64;
      for (std::uint64_t i = first_bit / w_bits; i < count && i * w_bits < first_bit + 64; ++i) {
        const std::uint64_t start = i * w_bits, v = std::uint64_t(values(i));
        word |= start >= first_bit ? v << (start - first_bit) : v >> (first_bit - start);
      }
    }
    out(w) = word;
  });
  return d;
}

// Whether the arrays of `d` (d.n >= 1 bits, d.ones ones) describe a sparse bit vector whose
// queries stay inside them: sizes that match, counts that start at zero and never fall,
// blocks of at most their bits, and each block's low bytes strictly ascending and inside it.
template <class ExecSpace>
bool sparse_bits_valid(const ExecSpace& space, const sparse_bits_data<ExecSpace>& d) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if (d.n == 0) return false;
  const std::uint64_t blocks = sparse_blocks(d.n);
  if (d.super.extent(0) != sparse_supers(d.n) || d.block.extent(0) != blocks + 1 || d.low.extent(0) != d.ones)
    return false;
  const auto r = d.ref();
  const std::uint64_t n = d.n, ones = d.ones;
  std::uint64_t bad = 0;
  Kokkos::parallel_reduce("strix::sparse_bits_check", range(space, 0, std::int64_t(blocks + 1)),
                          KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& sum) {
                            const std::uint64_t b = std::uint64_t(j);
                            const bool starts_super = (b & ((1u << sparse_super_blocks_log2) - 1)) == 0;
                            if (starts_super && r.block[b] != 0) {
                              ++sum;
                              return;
                            }
                            const std::uint64_t from = r.ones_before(b);
                            if (b == 0 && from != 0) ++sum;
                            if (b == blocks) {
                              if (from != ones) ++sum;
                              return;
                            }
                            const std::uint64_t to = r.ones_before(b + 1);
                            const std::uint64_t bits = n - (b << sparse_block_log2) < 256 ? n - (b << sparse_block_log2) : 256;
                            if (to < from || to > ones || to - from > bits) {
                              ++sum;
                              return;
                            }
                            for (std::uint64_t k = from; k < to; ++k)
                              if (r.low[k] >= bits || (k > from && r.low[k] <= r.low[k - 1])) ++sum;
                          },
                          bad);
  return bad == 0;
}

}  // namespace strix::detail
