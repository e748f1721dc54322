// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Difference covers: a set D of residues mod X such that every difference d mod X is
// r1 - r2 for some r1, r2 in D. Then for any two positions i and j there is an l < X with
// i + l and j + l both in the sample {p : p mod X in D}, which is what lets a sorted
// sample order every suffix (Kärkkäinen-Sanders-Burkhardt).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>

#include <strix/error.hpp>

namespace strix::detail {

// p / d and p % d for a small divisor d: the 32-bit division where p fits (on GPUs several
// times cheaper than the 64-bit one, and the comparator of a merge does several a step).
KOKKOS_INLINE_FUNCTION std::uint64_t small_quotient(const std::uint64_t p, const unsigned d) {
  return (p >> 32) ? p / d : static_cast<std::uint64_t>(static_cast<std::uint32_t>(p) / d);
}
KOKKOS_INLINE_FUNCTION unsigned small_residue(const std::uint64_t p, const unsigned d) {
  return (p >> 32) ? static_cast<unsigned>(p % d) : static_cast<std::uint32_t>(p) % d;
}

// The lowest set bit's place in x (x != 0).
KOKKOS_INLINE_FUNCTION unsigned lowest_set_bit(const std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__ffs(static_cast<int>(x)) - 1);
#else
  return static_cast<unsigned>(__builtin_ctz(x));
#endif
}

struct difference_cover {
  static constexpr int max_size = 8;
  unsigned period = 0;  // X (at most 32: membership is a bit mask)
  unsigned size = 0;    // |D|
  unsigned members[max_size] = {};  // increasing
  std::uint32_t mask = 0;           // bit r set when r is in D
  std::uint8_t index_of[32] = {};   // r in D -> its place among the members

  KOKKOS_INLINE_FUNCTION bool contains(std::uint64_t r) const { return (mask >> r) & 1u; }

  // The members as offsets from residue a: bit l set when (a + l) mod X is in D.
  KOKKOS_INLINE_FUNCTION std::uint32_t members_after(unsigned a) const {
    const std::uint32_t all = (period >= 32 ? 0u : (1u << period)) - 1u;
    return ((mask >> a) | (a ? mask << (period - a) : 0u)) & all;
  }
  // Smallest l in [0, X) with (a + l) and (b + l) both in D (a, b residues; a cover has one).
  KOKKOS_INLINE_FUNCTION unsigned common_offset(unsigned a, unsigned b) const {
    return lowest_set_bit(members_after(a) & members_after(b));
  }

  // The sample as "units": sample positions in increasing order are units 0, 1, ...;
  // position p + X is unit unit_of(p) + |D|, so a shift by X positions is one by |D| units.
  KOKKOS_INLINE_FUNCTION std::uint64_t unit_of(std::uint64_t p) const {
    const std::uint64_t q = small_quotient(p, period);
    return q * size + index_of[p - q * period];
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t position_of(std::uint64_t u) const {
    const std::uint64_t q = small_quotient(u, size);
    return q * period + members[u - q * size];
  }
  // Sample positions p < n.
  std::uint64_t sample_below(std::uint64_t n) const {
    std::uint64_t m = (n / period) * size;
    for (unsigned k = 0; k < size; ++k) m += members[k] < n % period;
    return m;
  }
  // Positions p < n with p mod X == r.
  static std::uint64_t class_size(std::uint64_t n, unsigned r, unsigned period) {
    return n > r ? (n - r + period - 1) / period : 0;
  }

  // Every difference mod X is covered.
  bool valid() const {
    if (period == 0 || period > 32 || size == 0 || size > max_size) return false;
    for (unsigned d = 0; d < period; ++d) {
      bool found = false;
      for (unsigned a = 0; a < size && !found; ++a)
        for (unsigned b = 0; b < size && !found; ++b) found = (members[a] + period - members[b]) % period == d;
      if (!found) return false;
    }
    return true;
  }
};

// The covers strix supports (small ones; X = 3 is DC3 / skew).
inline const unsigned* supported_dc_periods(unsigned& count) {
  static const unsigned periods[] = {3, 7, 13, 21};
  count = 4;
  return periods;
}

inline difference_cover make_difference_cover(unsigned period) {
  difference_cover c;
  c.period = period;
  auto set = [&](std::initializer_list<unsigned> d) {
    for (unsigned r : d) {
      c.index_of[r] = static_cast<std::uint8_t>(c.size);
      c.members[c.size++] = r;
      c.mask |= 1u << r;
    }
  };
  switch (period) {
    case 3: set({1, 2}); break;
    case 7: set({1, 2, 4}); break;
    case 13: set({1, 2, 4, 10}); break;
    case 21: set({1, 2, 5, 15, 17}); break;
    default: {
      unsigned count = 0;
      const unsigned* p = supported_dc_periods(count);
      std::string list;
      for (unsigned k = 0; k < count; ++k) list += (k ? ", dc" : "dc") + std::to_string(p[k]);
      throw error(error_code::invalid_input, "difference cover period " + std::to_string(period) +
                                                 " is not supported (supported: " + list + ")");
    }
  }
  STRIX_REQUIRE(c.valid());
  return c;
}

}  // namespace strix::detail
