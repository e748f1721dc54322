// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A sparse bit vector (few ones, spread anyhow) read on the device: the bits are cut into
// blocks of 256, and each one is stored as its low byte, in ascending order; a block's ones
// are those between the count of ones before it and before the next block (16-bit counts
// relative to superblocks of 256 blocks, 64-bit counts per superblock). With ones every s
// bits on average it costs 8/s + 1/16 bits per bit (0.31 at s = 32, where a plain bit
// vector with its directory costs 1.04), and rank reads two adjacent counts and one short
// run of bytes, searched by bisection, so that a block full of ones costs 8 probes.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix {

constexpr int sparse_block_log2 = 8;       // 256 bits per block: a one's low byte
constexpr int sparse_super_blocks_log2 = 8;  // 256 blocks per superblock: 16-bit counts

struct sparse_bits_ref {
  using P = std::uint64_t;
  const std::uint64_t* super = nullptr;  // (blocks >> 8) + 1 entries: ones before each superblock
  const std::uint16_t* block = nullptr;  // blocks + 1 entries: ones before each block, from its superblock
  const std::uint8_t* low = nullptr;     // ones entries: each one's position modulo 256
  P n = 0, ones = 0;

  KOKKOS_INLINE_FUNCTION P blocks() const { return (n + 255) >> sparse_block_log2; }
  // Ones before block b, 0 <= b <= blocks().
  KOKKOS_INLINE_FUNCTION P ones_before(P b) const { return super[b >> sparse_super_blocks_log2] + block[b]; }

  // Ones in [0, i) and bit i, for 0 <= i < n.
  KOKKOS_INLINE_FUNCTION P rank1_and_bit(P i, bool& bit) const {
    const P b = i >> sparse_block_log2;
    P lo = ones_before(b);
    const P end = ones_before(b + 1);
    P hi = end;
    const std::uint8_t target = std::uint8_t(i & 255);
    while (lo < hi) {  // the first one of the block at or after i
      const P mid = lo + (hi - lo) / 2;
      if (low[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    bit = lo < end && low[lo] == target;
    return lo;
  }
  KOKKOS_INLINE_FUNCTION P rank1(P i) const {
    if (i >= n) return ones;
    bool bit;
    return rank1_and_bit(i, bit);
  }

  // Position of the one of rank k (0 <= k < ones): bisection over the superblocks, then
  // over the blocks of one.
  KOKKOS_INLINE_FUNCTION P select1(P k) const {
    const P last_block = blocks() - 1;
    P lo = 0, hi = last_block >> sparse_super_blocks_log2;
    while (lo < hi) {  // the last superblock with at most k ones before it
      const P mid = lo + (hi - lo + 1) / 2;
      if (super[mid] <= k) lo = mid;
      else hi = mid - 1;
    }
    P first = lo << sparse_super_blocks_log2;
    P last = first + ((P(1) << sparse_super_blocks_log2) - 1);
    if (last > last_block) last = last_block;
    while (first < last) {  // the last block with at most k ones before it
      const P mid = first + (last - first + 1) / 2;
      if (ones_before(mid) <= k) first = mid;
      else last = mid - 1;
    }
    return (first << sparse_block_log2) + low[k];
  }
};

}  // namespace strix
