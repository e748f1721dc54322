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
  // Symbols p .. p + count - 1 packed, the first in the highest bits (count * bits <= 64). Where
  // the 8-byte words that hold them lie inside the text, read a word at a time: a key of 21 DNA
  // symbols is then 3-4 loads instead of 21 (the merge's keys and the class sorts' digits gather
  // them at random positions). (Little-endian: byte j of a word is bits 8j..8j+7. The text is
  // only read here, so the word loads alias no store.)
  KOKKOS_INLINE_FUNCTION std::uint64_t pack(std::uint64_t p, int count) const {
    std::uint64_t key = 0;
    const std::uintptr_t base = reinterpret_cast<std::uintptr_t>(text.data()), from = base + p;
    const std::uintptr_t first_word = from & ~std::uintptr_t(7), past = (from + std::uintptr_t(count) + 7) & ~std::uintptr_t(7);
    if (p + std::uint64_t(count) <= n && first_word >= base && past <= base + n) {
      const std::uint64_t* word_at = reinterpret_cast<const std::uint64_t*>(first_word);
      std::uint64_t word = *word_at++ >> (8 * (from - first_word));
      int in_word = 8 - int(from - first_word);
      for (int t = 0; t < count; ++t) {
        if (in_word == 0) {
          word = *word_at++;
          in_word = 8;
        }
        key = (key << bits) | rank_of(word & 0xff);
        word >>= 8;
        --in_word;
      }
      return key;
    }
    for (int t = 0; t < count; ++t) key = (key << bits) | (*this)(p + std::uint64_t(t));
    return key;
  }
};

// Names 1..K of a reduced string.
template <class ExecSpace, class I>
struct name_symbols {
  device_view<const I, ExecSpace> names;
  std::uint64_t n;
  int bits;  // bits_for(K)
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t p) const { return p < n ? names(p) : 0; }
  KOKKOS_INLINE_FUNCTION std::uint64_t pack(std::uint64_t p, int count) const {
    std::uint64_t key = 0;
    for (int t = 0; t < count; ++t) key = (key << bits) | (*this)(p + std::uint64_t(t));
    return key;
  }
};

}  // namespace strix::detail
