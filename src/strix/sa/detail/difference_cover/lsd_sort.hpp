// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Sorting by several digits, least significant first: each pass gathers one digit of
// every element in the current order and radix-sorts stably by it. Used for keys longer
// than 64 bits (X symbols of a sample suffix, a class's symbols and rank).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <utility>

#include <strix/core/copy.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/core/device_view.hpp>

namespace strix::detail {

// Sorts vals stably by key.digit(d, v) for d = key.digits() - 1 down to 0 (digit 0 most
// significant; digit d has key.bits(d) <= 64 bits). The result is left in vals; keys,
// keys_alt and vals_alt (at least vals' length) are scratch.
template <class ExecSpace, class Key, class V>
void lsd_sort(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const Key& key,
              const device_view<std::uint64_t, ExecSpace>& keys_buf, const device_view<std::uint64_t, ExecSpace>& keys_alt_buf,
              const device_view<V, ExecSpace>& vals_in, const device_view<V, ExecSpace>& vals_alt_buf) {
  const std::size_t m = vals_in.extent(0);
  if (m < 2) return;
  device_view<std::uint64_t, ExecSpace> keys(keys_buf.data(), m), keys_alt(keys_alt_buf.data(), m);
  device_view<V, ExecSpace> vals = vals_in, vals_alt(vals_alt_buf.data(), m);
  for (int d = key.digits() - 1; d >= 0; --d) {
    const int bits = key.bits(d);
    if (bits == 0) continue;
    auto k = keys;
    auto v = vals;
    Kokkos::parallel_for(
        "strix::dc_gather_digit", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, m),
        KOKKOS_LAMBDA(const std::int64_t i) { k(i) = key.digit(d, v(i)); });
    if (primitives::radix_sort_pairs(space, ws, keys, keys_alt, vals, vals_alt, 0, bits)) {
      std::swap(keys, keys_alt);
      std::swap(vals, vals_alt);
    }
  }
  if (vals.data() != vals_in.data()) strix::copy(space, vals_in, vals);
}

// Digits of a run of `len` symbols starting at a position, as many symbols a digit as
// fit in 64 bits (symbols past the end are 0).
template <class Sym>
struct symbol_digits {
  Sym sym;
  int len = 0;
  int per_digit = 1;
  KOKKOS_INLINE_FUNCTION int count() const { return (len + per_digit - 1) / per_digit; }
  KOKKOS_INLINE_FUNCTION int bits(int d) const {
    const int first = d * per_digit;
    const int last = first + per_digit < len ? first + per_digit : len;
    return (last - first) * sym.bits;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t digit(int d, std::uint64_t p) const {
    const int first = d * per_digit;
    const int last = first + per_digit < len ? first + per_digit : len;
    std::uint64_t key = 0;
    for (int t = first; t < last; ++t) key = (key << sym.bits) | sym(p + t);
    return key;
  }
  static symbol_digits make(const Sym& s, int len) {
    symbol_digits d;
    d.sym = s;
    d.len = len;
    d.per_digit = s.bits > 0 ? 64 / s.bits : 64;
    return d;
  }
};

}  // namespace strix::detail
