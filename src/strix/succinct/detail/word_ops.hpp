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

// Largest power of two strictly below x (x >= 2): where a wavelet-tree node splits its
// symbol interval.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t split_width(std::uint64_t x) {
  std::uint64_t p = 1;
  while ((p << 1) < x) p <<= 1;
  return p;
}

}  // namespace strix::detail
