// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Bit tricks on 64-bit words, for host and device: population count and the position of
// the k-th set bit (select inside one word).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>

namespace strix::detail {

// Without a popcount instruction in the target (x86-64 before -mpopcnt), the builtin is a
// libgcc call several times slower than this bit-parallel count.
KOKKOS_FORCEINLINE_FUNCTION int popcount64(std::uint64_t x) {
#if defined(__CUDA_ARCH__)
  return __popcll(x);
#elif defined(__POPCNT__) || !(defined(__x86_64__) || defined(__i386__))
  return __builtin_popcountll(x);
#else
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
#endif
}

KOKKOS_FORCEINLINE_FUNCTION int popcount32(std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return __popc(x);
#else
  return popcount64(x);
#endif
}

// Bit position of the (k+1)-th set bit of x, 0 <= k < popcount64(x). Halving by popcount
// (six steps, no data-dependent loop) beats clearing k low bits one by one on GPUs.
KOKKOS_FORCEINLINE_FUNCTION int select_in_word(std::uint64_t x, int k) {
  int pos = 0;
  std::uint32_t half = static_cast<std::uint32_t>(x);
  int c = popcount32(half);
  if (k >= c) {
    k -= c;
    half = static_cast<std::uint32_t>(x >> 32);
    pos = 32;
  }
  for (int width = 16; width >= 1; width >>= 1) {
    const std::uint32_t low = half & ((1u << width) - 1u);
    c = popcount32(low);
    if (k >= c) {
      k -= c;
      half >>= width;
      pos += width;
    } else {
      half = low;
    }
  }
  return pos;
}

// Eight bytes at p (8-byte aligned) as a little-endian word; memcpy on the host keeps
// type-based aliasing out of it, one load on the device.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t load_u64(const void* p) {
#if defined(__CUDA_ARCH__)
  return *static_cast<const std::uint64_t*>(p);
#else
  std::uint64_t x;
  std::memcpy(&x, p, sizeof x);
  return x;
#endif
}

// 32 bytes at p (32-byte aligned) as four little-endian words: one sector, two 16-byte loads
// on the device. The one place for strix's CUDA vector loads, with load_u64 and load_u32x4.
KOKKOS_FORCEINLINE_FUNCTION void load_32_bytes(const void* p, std::uint64_t* out) {
#if defined(__CUDA_ARCH__)
  const ulonglong2* q = static_cast<const ulonglong2*>(p);
  const ulonglong2 a = q[0], b = q[1];
  out[0] = a.x;
  out[1] = a.y;
  out[2] = b.x;
  out[3] = b.y;
#else
  std::memcpy(out, p, 32);
#endif
}

// Four consecutive 32-bit values from p (16-byte aligned): one load on the device.
KOKKOS_FORCEINLINE_FUNCTION void load_u32x4(const std::uint32_t* p, std::uint32_t* out) {
#if defined(__CUDA_ARCH__)
  const uint4 v = *reinterpret_cast<const uint4*>(p);
  out[0] = v.x;
  out[1] = v.y;
  out[2] = v.z;
  out[3] = v.w;
#else
  std::memcpy(out, p, 16);
#endif
}

// Largest power of two strictly below x (x >= 2): where a wavelet-tree node splits its
// symbol interval.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t split_width(std::uint64_t x) {
  std::uint64_t p = 1;
  while ((p << 1) < x) p <<= 1;
  return p;
}

// A wavelet-tree node: the interval [a, b) of minimal symbols under it. A node of two or
// more symbols splits at a + split_width(b - a); the tree descent every builder and query
// takes, one step at a time.
struct tree_node {
  std::uint64_t a, b;
  KOKKOS_FORCEINLINE_FUNCTION bool inner() const { return b - a > 1; }
  KOKKOS_FORCEINLINE_FUNCTION std::uint64_t split() const { return a + split_width(b - a); }
  // To the right child (ones: the symbols from the split on) or the left one.
  KOKKOS_FORCEINLINE_FUNCTION void descend(bool right) {
    const std::uint64_t s = split();
    if (right) a = s;
    else b = s;
  }
};

// Minimal symbol m's path in the tree of sigma symbols (left 0, right 1, from the root) and
// its length.
KOKKOS_FORCEINLINE_FUNCTION int tree_path(std::uint64_t m, std::uint64_t sigma, std::uint64_t& path) {
  tree_node node{0, sigma};
  int length = 0;
  path = 0;
  while (node.inner()) {
    const bool right = m >= node.split();
    node.descend(right);
    path = 2 * path + (right ? 1 : 0);
    ++length;
  }
  return length;
}

}  // namespace strix::detail
