// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The texts a difference-cover construction sorts: the caller's bytes, or (skew's
// recursion) the names of the previous level. Either way symbol(p) is 1..max for p < n
// and 0 past the end, so that a suffix sorts before every longer one it is a prefix of.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/bits.hpp>
#include <strix/core/device_view.hpp>
#include <strix/sa/detail/alphabet.hpp>  // map_alphabet

namespace strix::detail {

// Bytes mapped to their rank 1..sigma in the text's alphabet (fewer bits a symbol).
template <class ExecSpace>
struct byte_symbols {
  text_view<ExecSpace> text;
  device_view<const std::uint16_t, ExecSpace> rank_of;
  std::uint64_t n;
  int bits;  // bits_for(sigma)
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t p) const { return p < n ? rank_of(text(p)) : 0; }
};

// Names 1..K of a reduced string.
template <class ExecSpace, class I>
struct name_symbols {
  device_view<const I, ExecSpace> names;
  std::uint64_t n;
  int bits;  // bits_for(K)
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t p) const { return p < n ? names(p) : 0; }
};

}  // namespace strix::detail
