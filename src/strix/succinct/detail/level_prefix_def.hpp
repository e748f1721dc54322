// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the wavelet builds' partitions count (wavelet_build_def.hpp, huffman_wavelet_def.hpp):
// the ones before each word of a level's bits, and from them the ones before any position.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/detail/word_ops.hpp>

namespace strix::detail {

// prefix(w) = the ones in words [base, base + w) of `words`, for w = 0..nwords; returns the
// level's ones.
template <class ExecSpace, class Words, class Prefix>
std::uint64_t level_word_prefix(const ExecSpace& space, const Words& words, std::uint64_t base, std::uint64_t nwords,
                                const Prefix& prefix) {
  using P = std::uint64_t;
  P ones = 0;
  Kokkos::parallel_scan(
      "strix::wavelet_level_prefix", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, nwords + 1),
      KOKKOS_LAMBDA(const std::int64_t wi, P& upd, const bool final) {
        const P c = P(wi) < nwords ? P(popcount64(words(base + wi))) : 0;
        if (final) prefix(wi) = upd;
        upd += c;
      },
      ones);
  return ones;
}

// The ones before position i of the level, given `word`, the level's word holding i.
template <class Prefix>
KOKKOS_INLINE_FUNCTION std::uint64_t level_ones_before(const Prefix& prefix, std::uint64_t word, std::uint64_t i) {
  return prefix(i >> 6) + ((i & 63) ? std::uint64_t(popcount64(word & ((std::uint64_t(1) << (i & 63)) - 1))) : 0);
}

}  // namespace strix::detail
