// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The keys and the comparator of a difference-cover construction.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/bits.hpp>
#include <strix/core/device_view.hpp>
#include <strix/sa/detail/difference_cover/cover.hpp>
#include <strix/sa/detail/difference_cover/lsd_sort.hpp>

namespace strix::detail {

// A sample unit's first X symbols (units, not positions, are sorted: see cover.hpp).
template <class Sym>
struct sample_prefix_key {
  symbol_digits<Sym> text;
  difference_cover cover;
  int digits() const { return text.count(); }
  int bits(int d) const { return text.bits(d); }
  KOKKOS_INLINE_FUNCTION std::uint64_t digit(int d, std::uint64_t unit) const {
    return text.digit(d, cover.position_of(unit));
  }
};

// rank(p) + 1 for a sample position p < n, 0 for p >= n (the empty suffix ranks lowest).
template <class ExecSpace, class I>
struct sample_rank {
  device_view<const I, ExecSpace> ranks;  // by unit
  difference_cover cover;
  std::uint64_t n;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t p) const {
    return p < n ? static_cast<std::uint64_t>(ranks(cover.unit_of(p))) + 1 : 0;
  }
};

// A non-sample suffix of class r: its symbols up to the next sample position (l of them),
// then that position's rank.
template <class ExecSpace, class I, class Sym>
struct class_key {
  symbol_digits<Sym> text;  // len = l
  sample_rank<ExecSpace, I> rank;
  int rank_bits;
  int digits() const { return text.count() + 1; }
  int bits(int d) const { return d < text.count() ? text.bits(d) : rank_bits; }
  KOKKOS_INLINE_FUNCTION std::uint64_t digit(int d, std::uint64_t p) const {
    return d < text.count() ? text.digit(d, p) : rank(p + text.len);
  }
};

// Suffix order from the sorted sample: suffixes i and j agree in order with their first l
// symbols, then with the ranks at i + l and j + l, for the l < X that makes both sample
// positions. (R: the ranks' type, I's or narrower.)
template <class ExecSpace, class I, class Sym, class R = I>
struct suffix_less {
  Sym sym;
  sample_rank<ExecSpace, R> rank;
  // `known`: the first `known` symbols of both are known to be equal.
  KOKKOS_INLINE_FUNCTION bool operator()(const I a, const I b, const unsigned known = 0) const {
    if (a == b) return false;
    const std::uint64_t i = a, j = b;
    const unsigned period = rank.cover.period;
    const unsigned l = rank.cover.common_offset(small_residue(i, period), small_residue(j, period));
    for (unsigned t = known; t < l; ++t) {
      const std::uint64_t x = sym(i + t), y = sym(j + t);
      if (x != y) return x < y;  // the one that ends first (0) is smaller
    }
    return rank(i + l) < rank(j + l);
  }
};

// names(k) = 1 + the number of distinct first-`len`-symbol prefixes before sorted(k)'s,
// for units sorted by those prefixes. Returns the number of distinct prefixes.
template <class ExecSpace, class Sym, class I, class NameView>
std::uint64_t name_sorted_units(const ExecSpace& space, const Sym& sym, const difference_cover& cover, int len,
                                const device_view<I, ExecSpace>& sorted, const NameView& names) {
  const std::int64_t m = sorted.extent(0);
  std::uint64_t distinct = 0;
  if (m == 0) return 0;
  Kokkos::parallel_scan(
      "strix::dc_names", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, m),
      KOKKOS_LAMBDA(const std::int64_t k, std::uint64_t& count, const bool final) {
        bool fresh = k == 0;
        if (!fresh) {
          const std::uint64_t p = cover.position_of(sorted(k)), q = cover.position_of(sorted(k - 1));
          for (int t = 0; t < len && !fresh; ++t) fresh = sym(p + t) != sym(q + t);
        }
        if (fresh) ++count;
        if (final) names(k) = static_cast<typename NameView::non_const_value_type>(count);
      },
      distinct);
  return distinct;
}

}  // namespace strix::detail
