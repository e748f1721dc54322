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

// The high 64 bits of a * b.
KOKKOS_INLINE_FUNCTION std::uint64_t high_product(const std::uint64_t a, const std::uint64_t b) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return __umul64hi(a, b);
#else
  return static_cast<std::uint64_t>((static_cast<unsigned __int128>(a) * b) >> 64);
#endif
}

// Division by a fixed small d (2..32) as one multiply-high by ceil(2^64 / d): exact for every
// p < 2^59 (the error term p·(magic·d − 2^64) stays below 2^64), far beyond any text. A
// comparator of the covers' merge divides by the period four times a tie (two residues, two
// sample units); as a multiply that is a few instructions instead of a division's ~20–70.
struct small_divisor {
  std::uint64_t magic = 0;
  unsigned d = 0;
  small_divisor() = default;
  explicit small_divisor(unsigned divisor) : magic(~std::uint64_t(0) / divisor + 1), d(divisor) {
    STRIX_REQUIRE(divisor >= 2);
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t quotient(std::uint64_t p) const { return high_product(p, magic); }
  KOKKOS_INLINE_FUNCTION unsigned residue(std::uint64_t p) const { return static_cast<unsigned>(p - quotient(p) * d); }
};

// The lowest set bit's place in x (x != 0).
KOKKOS_INLINE_FUNCTION unsigned lowest_set_bit(const std::uint32_t x) {
#if defined(__CUDA_ARCH__)
  return static_cast<unsigned>(__ffs(static_cast<int>(x)) - 1);
#else
  return static_cast<unsigned>(__builtin_ctz(x));
#endif
}

// The number of set bits in x.
KOKKOS_INLINE_FUNCTION unsigned set_bit_count(const std::uint32_t x) {
#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
  return static_cast<unsigned>(__popc(x));
#else
  return static_cast<unsigned>(__builtin_popcount(x));
#endif
}

struct difference_cover {
  static constexpr int max_size = 8;
  unsigned period = 0;  // X (at most 32: membership is a bit mask)
  unsigned size = 0;    // |D|
  unsigned members[max_size] = {};  // increasing
  std::uint32_t mask = 0;           // bit r set when r is in D
  // The members again, 5 bits each (a member's place is a bit count of the mask): on a GPU an
  // array indexed per thread is read from constant or local memory, one address at a time.
  std::uint64_t member_bits = 0;
  small_divisor by_period, by_size;  // (set with the members)

  KOKKOS_INLINE_FUNCTION bool contains(std::uint64_t r) const { return (mask >> r) & 1u; }
  // p mod X.
  KOKKOS_INLINE_FUNCTION unsigned residue(std::uint64_t p) const { return by_period.residue(p); }

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
  // (For any p, unit_of(p) counts the sample positions before p.)
  KOKKOS_INLINE_FUNCTION std::uint64_t unit_of(std::uint64_t p) const {
    const std::uint64_t q = by_period.quotient(p);
    return q * size + set_bit_count(mask & ((1u << static_cast<unsigned>(p - q * period)) - 1u));
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t position_of(std::uint64_t u) const {
    const std::uint64_t q = by_size.quotient(u);
    return q * period + ((member_bits >> (5 * (u - q * size))) & 31u);
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
      c.member_bits |= std::uint64_t(r) << (5 * c.size);
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
  c.by_period = small_divisor(c.period);
  c.by_size = small_divisor(c.size);
  return c;
}

}  // namespace strix::detail
