// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The rank/select directory of a bit vector, read on the device (thesis ch. 4, after
// Kurpicz's wide-popcount): L1 blocks of 2^16 bits with 64-bit cumulative counts, L2
// blocks of 512 bits with 16-bit counts relative to their L1 block, and the positions of
// every S-th one and zero (S a power of two) to bound select's search, which reads the L2
// counts by 32-byte sectors of 16.
//
// rank counts from the nearer end of its 512-bit block: forward from the block start in
// the first half, backward from the next block's count in the second, so one query reads
// one 32-byte sector of bits (4 words) at most.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/detail/word_ops.hpp>

namespace strix {

constexpr int l1_bits_log2 = 16;  // 65536 bits per L1 block
constexpr int l2_bits_log2 = 9;   // 512 bits per L2 block
constexpr int l2_per_l1 = 1 << (l1_bits_log2 - l2_bits_log2);
constexpr int words_per_l2 = (1 << l2_bits_log2) / 64;

// A trivially copyable view of a built bit vector's arrays, for device code. P is the
// position type (std::uint32_t when the vector has fewer than 2^32 bits).
template <class P>
struct bit_vector_ref {
  const std::uint64_t* words = nullptr;  // ceil(n/512) * 8 words, bits >= n zero
  const std::uint64_t* l1 = nullptr;     // (num_l2 >> 7) + 1 entries: ones before each L1 block
  const std::uint16_t* l2 = nullptr;     // num_l2 + 1 entries (padded to 16): ones from the L1 block start
  const P* samples1 = nullptr;           // position of the (s*S + 1)-th one
  const P* samples0 = nullptr;           // position of the (s*S + 1)-th zero
  P n = 0, ones = 0;
  P num_l2 = 0, num_samples1 = 0, num_samples0 = 0;
  int sample_log2 = 14;

  KOKKOS_INLINE_FUNCTION P zeros() const { return n - ones; }

  KOKKOS_INLINE_FUNCTION bool access(P i) const { return (words[i >> 6] >> (i & 63)) & 1u; }

  // Ones in [0, i), 0 <= i <= n.
  KOKKOS_INLINE_FUNCTION P rank1(P i) const {
    bool bit;
    return rank1_and_bit(i, bit);
  }
  KOKKOS_INLINE_FUNCTION P rank0(P i) const { return i - rank1(i); }

  // rank1(i) and, for i < n, bit i (read from the words rank1 loads anyway). The words it
  // needs all lie in the 32-byte sector of word i / 64, loaded whole (two 16-byte loads on
  // the device rather than up to four dependent 8-byte ones).
  KOKKOS_INLINE_FUNCTION P rank1_and_bit(P i, bool& bit) const {
    const P block = i >> l2_bits_log2;
    const unsigned offset = static_cast<unsigned>(i & 511);
    const P w_i = i >> 6;
    const unsigned b_i = static_cast<unsigned>(i & 63);
    if (offset == 0) {  // at a block start (possibly i = n, past the last word)
      bit = i < n && (words[w_i] & 1u);
      return static_cast<P>(l1[i >> l1_bits_log2]) + l2[block];
    }
    std::uint64_t s[4];
    load_words4(w_i & ~P(3), s);
    const unsigned t = static_cast<unsigned>(w_i & 3);
    const std::uint64_t below = b_i ? (std::uint64_t(1) << b_i) - 1 : 0;
    if (offset < 256) {  // forward from the block start: words 0..3 of the block
      P count = static_cast<P>(l1[i >> l1_bits_log2]) + l2[block];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
      for (unsigned j = 0; j < 4; ++j) {
        if (j < t) count += detail::popcount64(s[j]);
        if (j == t) {
          count += detail::popcount64(s[j] & below);
          bit = (s[j] >> b_i) & 1u;
        }
      }
      return count;
    }
    const P next = block + 1;  // backward from the next block's count: words 4..7
    P count = static_cast<P>(l1[next >> (l1_bits_log2 - l2_bits_log2)]) + l2[next];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (unsigned j = 0; j < 4; ++j) {
      if (j > t) count -= detail::popcount64(s[j]);
      if (j == t) {
        count -= detail::popcount64(s[j] & ~below);
        bit = (s[j] >> b_i) & 1u;
      }
    }
    return count;
  }

  // Position of the k-th one (1 <= k <= ones) / zero (1 <= k <= zeros).
  KOKKOS_INLINE_FUNCTION P select1(P k) const { return select<true>(k, true); }
  KOKKOS_INLINE_FUNCTION P select0(P k) const { return select<false>(k, true); }

  // `sampled`: bound the search by the samples (false while the samples are built).
  // The answer's L2 block lies between the blocks of the two samples around k. The L2 counts
  // are searched by 32-byte sectors of 16 counts (a sector never straddles an L1 block): a
  // binary search on each sector's first count, then the last sector read whole and its
  // counts compared in registers — with the default sampling (16 Ki ones, ~64 L2 blocks
  // apart at 50% fill) two or three dependent loads where a search of L1 then of 128 L2
  // counts took nine.
  template <bool One>
  KOKKOS_INLINE_FUNCTION P select(P k, bool sampled) const {
    P lo = 0, hi = (num_l2 - 1) >> 4;  // sectors
    if (sampled) {
      const P* samples = One ? samples1 : samples0;
      const P count = One ? num_samples1 : num_samples0;
      const P s = (k - 1) >> sample_log2;
      lo = samples[s] >> (l2_bits_log2 + 4);
      if (s + 1 < count) hi = samples[s + 1] >> (l2_bits_log2 + 4);
    }
    // Last sector whose first block has fewer than k ones (zeros) before it. The samples'
    // sectors mostly share an L1 block: its count is read once.
    const P lo_l1 = lo >> (l1_bits_log2 - l2_bits_log2 - 4);
    const P lo_l1_ones = static_cast<P>(l1[lo_l1]);
    while (lo < hi) {
      const P mid = lo + (hi - lo + 1) / 2;
      const P j = mid << 4, b = j >> (l1_bits_log2 - l2_bits_log2);
      const P ones_before = (b == lo_l1 ? lo_l1_ones : static_cast<P>(l1[b])) + l2[j];
      if ((One ? ones_before : (j << l2_bits_log2) - ones_before) < k) lo = mid;
      else hi = mid - 1;
    }
    const P first = lo << 4;
    const P first_l1 = first >> (l1_bits_log2 - l2_bits_log2);
    const P first_l1_ones = first_l1 == lo_l1 ? lo_l1_ones : static_cast<P>(l1[first_l1]);
    const P l1_before = One ? first_l1_ones : (first_l1 << l1_bits_log2) - first_l1_ones;
    std::uint64_t sector[4];
    load_sector(first, sector);
    // Blocks of the sector (up to the last block) with fewer than k before them: at least the
    // first; the answer is the last of them.
    const P base = (first >> (l1_bits_log2 - l2_bits_log2)) << (l1_bits_log2 - l2_bits_log2);
    const P last = num_l2 - 1 - first;
    int below = 0;
    P chosen = 0;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int t = 0; t < 16; ++t) {
      const P rel = static_cast<P>((sector[t >> 2] >> (16 * (t & 3))) & 0xffffu);
      const P before = l1_before + (One ? rel : ((first + t - base) << l2_bits_log2) - rel);
      if (P(t) <= last && before < k) {
        below = t + 1;
        chosen = before;
      }
    }
    const P block = first + P(below - 1);
    k -= chosen;
    // The block's eight words at once, then the word holding the k-th one in registers.
    const P w0 = block * words_per_l2;
    std::uint64_t s[8];
    load_words4(w0, s);
    load_words4(w0 + 4, s + 4);
    std::uint64_t hit = 0;
    int hit_w = 0;
    bool found = false;
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
    for (int w = 0; w < words_per_l2; ++w) {
      const std::uint64_t word = One ? s[w] : ~s[w];
      const P c = static_cast<P>(detail::popcount64(word));
      if (!found) {
        if (k <= c) {
          hit = word;
          hit_w = w;
          found = true;
        } else {
          k -= c;
        }
      }
    }
    return (w0 + hit_w) * 64 + static_cast<P>(detail::select_in_word(hit, static_cast<int>(k - 1)));
  }

 private:
  // Words [first, first + 4) (first a multiple of 4: one aligned 32-byte sector).
  KOKKOS_INLINE_FUNCTION void load_words4(P first, std::uint64_t* s) const { detail::load_32_bytes(words + first, s); }
  // The 16 L2 counts from block `first` (a multiple of 16): one aligned 32-byte sector (the
  // array is padded to whole sectors).
  KOKKOS_INLINE_FUNCTION void load_sector(P first, std::uint64_t* sector) const {
    detail::load_32_bytes(l2 + first, sector);
  }
};

}  // namespace strix
