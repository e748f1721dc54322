// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Completing an FM-index read from a file (see fm_index_file.hpp), included by libstrix's
// instantiation files only. A file's arrays are never trusted: the rank structure is checked
// to be exactly what a build from the BWT it encodes would make (in one pass over it), the
// directories are rebuilt, and the samples are checked against each other, so that queries
// on a loaded index never read out of bounds.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>

#include <strix/core/copy.hpp>
#include <strix/core/device_length.hpp>
#include <strix/fm_index/detail/fm_build_def.hpp>
#include <strix/fm_index/detail/occurrence_table_check_def.hpp>

namespace strix::detail {

// A key no file can know in advance, for pair_hash.
inline std::uint64_t fresh_key() {
  std::random_device source;
  return (std::uint64_t(source()) << 32) ^ std::uint64_t(source()) ^
         std::uint64_t(std::chrono::steady_clock::now().time_since_epoch().count());
}

// A keyed hash of a pair (a, b): two rounds of a 64-bit finalizer (splitmix64's constants).
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
KOKKOS_INLINE_FUNCTION std::uint64_t pair_hash(std::uint64_t key, std::uint64_t a, std::uint64_t b) {
  return mix64(mix64(a + key) ^ (b + 0x9e3779b97f4a7c15ULL));
}
// The same for pairs of 32-bit values: one word holds the pair, so one round does.
KOKKOS_INLINE_FUNCTION std::uint64_t narrow_pair_hash(std::uint64_t key, std::uint64_t a, std::uint64_t b) {
  return mix64(((a << 32) | b) ^ key);
}

template <class ExecSpace, class I>
void finish_fm_index(const ExecSpace& space, fm_index_data<ExecSpace, I>& d, const fm_options& options) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = d.n, rate = d.sample_rate;
  check_length_on<I, ExecSpace>(n, "fm_index file: text of " + std::to_string(n) + " bytes");
  STRIX_USER_REQUIRE(d.primary <= n && rate >= 1 && d.separator >= fm_no_separator && d.separator <= 255,
                     "fm_index file: its header is damaged");
  auto& rank = d.rank;
  if (rank.layout == fm_rank_layout::occurrence_table) {
    if (rank.exceptions.n > 0)
      finish_wavelet<ExecSpace, std::uint8_t>(space, rank.exceptions, wavelet_shape::matrix, wavelet_options{}, true);
    check_occurrence_table<ExecSpace>(space, rank, n);
  } else if (rank.layout == fm_rank_layout::wavelet_matrix) {
    STRIX_USER_REQUIRE(rank.bwt_matrix.n == n, "fm_index file: the wavelet matrix's size does not match the text's");
    finish_wavelet<ExecSpace, std::uint8_t>(space, rank.bwt_matrix, wavelet_shape::matrix, wavelet_options{}, true);
    // C from the matrix's symbols and counts.
    std::uint64_t counts[256] = {};
    add_wavelet_counts(space, rank.bwt_matrix, counts);
    rank.C = upload_C(space, counts);
  } else if (rank.layout == fm_rank_layout::huffman_tree) {
    // The symbol counts came with the file (fm_index_file.hpp): C from them, and the tree's
    // shape and bits checked against them.
    auto& h = rank.bwt_huffman;
    const auto counts = strix::to_host(space, rank.C);
    STRIX_USER_REQUIRE(counts.extent(0) == 256 && h.n == n, "fm_index file: the Huffman tree's size is damaged");
    std::uint64_t symbol_counts[256], total = 0;
    for (int c = 0; c < 256; ++c) {
      symbol_counts[c] = counts(c);
      STRIX_USER_REQUIRE(symbol_counts[c] <= n - total, "fm_index file: the symbol counts exceed the text");
      total += symbol_counts[c];
    }
    STRIX_USER_REQUIRE(total == n, "fm_index file: the symbol counts do not add up to the text");
    finish_huffman_wavelet<ExecSpace>(space, symbol_counts, h);
    rank.C = upload_C(space, symbol_counts);
  } else {
    STRIX_USER_REQUIRE(false, "fm_index file: unknown rank layout");
  }

  // The samples: n + 1 rows of which n / rate + 1 are marked, one sample per mark, each
  // below n / rate + 1, packed in the width that needs; the extract samples, when kept, the
  // inverse permutation of the locate samples. Together these keep every query's reads
  // inside the arrays and every position it reports at most n.
  const std::uint64_t expected = n / rate + 1;
  const int width = packed_width(expected - 1);
  const bool with_isa = d.isa_samples.count > 0;
  STRIX_USER_REQUIRE(d.sampled.n == n + 1 && d.sampled.ones == expected && d.sa_samples.count == expected &&
                         d.sa_samples.width == width && d.sa_samples.words.extent(0) == packed_words(expected, width) &&
                         (!with_isa || (d.isa_samples.count == expected && d.isa_samples.width == width &&
                                        d.isa_samples.words.extent(0) == packed_words(expected, width))),
                     "fm_index file: the samples' sizes do not match the text's");
  STRIX_USER_REQUIRE(sparse_bits_valid(space, d.sampled), "fm_index file: the sampled rows are damaged");
  // Each sample value exactly once: the locate samples are a permutation of 0..n / rate.
  // With extract samples, sa(isa(j)) = j for every j says it (isa is then one-to-one, so a
  // permutation, and sa its inverse); without, one bit a value, set at most once (n / 8 rate
  // bytes that stay in cache, where a count a value did not).
  const auto sa_samples = d.sa_samples.ref();
  const auto isa_samples = d.isa_samples.ref();
  std::uint64_t bad = 0;
  if (with_isa) {
    // sa(isa(j)) = j for every j, without reading sa at random (that read was half of a load on
    // one host thread): the pairs (j, isa[j]) and (sa[k], k), j and k below `expected`, are the
    // same set exactly when the two arrays are inverse permutations of 0..expected - 1 (a value
    // out of range makes a pair the other side cannot have), so a hash of the pairs keyed afresh
    // each load sums to the same on both sides then, and otherwise differs but for a chance of
    // about 2^-63, whatever the file holds. One streaming pass, reading each array at k only.
    const std::uint64_t key = fresh_key();
    std::uint64_t difference = 0;
    // (Values of 32 bits or fewer, as every 32-bit index has: one round of the hash a pair.)
    const bool narrow = width <= 32;
    Kokkos::parallel_reduce("strix::fm_check_inverse", range(space, 0, std::int64_t(expected)),
                            KOKKOS_LAMBDA(const std::int64_t k, std::uint64_t& sum) {
                              const std::uint64_t j = std::uint64_t(k), i = isa_samples[j], s = sa_samples[j];
                              sum += narrow ? narrow_pair_hash(key, j, i) - narrow_pair_hash(key, s, j)
                                            : pair_hash(key, j, i) - pair_hash(key, s, j);
                            },
                            difference);
    bad = difference != 0;
  } else {
    auto seen = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::fm::samples_seen", expected / 64 + 1);
    strix::fill(space, seen, std::uint64_t(0));
    Kokkos::parallel_reduce("strix::fm_check_samples", range(space, 0, std::int64_t(expected)),
                            KOKKOS_LAMBDA(const std::int64_t k, std::uint64_t& sum) {
                              const std::uint64_t j = sa_samples[std::uint64_t(k)];
                              if (j >= expected) {
                                ++sum;
                                return;
                              }
                              const std::uint64_t bit = std::uint64_t(1) << (j % 64);
                              if (Kokkos::atomic_fetch_or(&seen(j / 64), bit) & bit) ++sum;
                            },
                            bad);
  }
  STRIX_USER_REQUIRE(bad == 0, "fm_index file: the suffix-array samples are damaged");
  build_kmer_table<ExecSpace, I>(space, d, options.kmer_length);
}

}  // namespace strix::detail
