// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The last steps of every difference-cover construction, once the sample is ranked:
//   1. the sample in rank order;
//   2. each non-sample class r (positions p = r mod X) radix-sorted by its symbols up to
//      the next sample position and that position's rank;
//   3. these 1 + (X - |D|) sorted runs merged pairwise (merge path) by suffix_less (the
//      constructions in pieces sort groups of classes as one run: piece_order.hpp). Each
//      suffix carries its first symbols packed in 64 bits through the merges: most
//      comparisons end there, without the comparator's random reads of text and ranks.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/bits.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/merge.hpp>
#include <strix/sa/detail/difference_cover/keys.hpp>

namespace strix::detail {

// Scratch of induce_and_merge: keys, keys_alt and vals_alt hold at least the largest
// class (ceil(n / X) entries); merge_buf n entries, merge_keys 2n (they may share memory
// with keys and keys_alt: the class sorts are done when the merge starts).
template <class ExecSpace, class I>
struct induce_buffers {
  device_view<std::uint64_t, ExecSpace> keys, keys_alt;
  device_view<I, ExecSpace> vals_alt, merge_buf;
  device_view<std::uint64_t, ExecSpace> merge_keys;
};

// A suffix in the merges: its first symbols packed in 64 bits, and its position.
template <class I>
struct keyed_suffix {
  std::uint64_t key;
  I pos;
};

// One merge of runs a and b of (position, packed first symbols), for primitives::merge_tiled:
// the packed symbols decide unless equal, then suffix_less.
template <class ExecSpace, class I, class Sym, class R = I>
struct keyed_runs {
  using value_type = keyed_suffix<I>;
  device_view<const I, ExecSpace> a_pos, b_pos;
  device_view<const std::uint64_t, ExecSpace> a_key, b_key;
  device_view<I, ExecSpace> out_pos;
  device_view<std::uint64_t, ExecSpace> out_key;
  suffix_less<ExecSpace, I, Sym, R> less;
  unsigned key_symbols;  // symbols packed in a key
  KOKKOS_INLINE_FUNCTION value_type a(std::uint64_t i) const { return {a_key(i), a_pos(i)}; }
  KOKKOS_INLINE_FUNCTION value_type b(std::uint64_t j) const { return {b_key(j), b_pos(j)}; }
  KOKKOS_INLINE_FUNCTION bool b_before_a(const value_type& y, const value_type& x) const {
    if (y.key != x.key) return y.key < x.key;
    return less(y.pos, x.pos, key_symbols);
  }
  KOKKOS_INLINE_FUNCTION void store(std::uint64_t k, const value_type& v) const {
    out_key(k) = v.key;
    out_pos(k) = v.pos;
  }
};

// Sorts `vals` — positions p with p + l in the sample, any of them — by their first l
// symbols and the rank at p + l (m sample units). keys / keys_alt / vals_alt: scratch of vals'
// length at least.
template <class ExecSpace, class I, class Sym, class R>
void sort_from_offset(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const Sym& sym,
                      const sample_rank<ExecSpace, R>& rank, std::uint64_t m, unsigned l,
                      const device_view<I, ExecSpace>& vals, const device_view<std::uint64_t, ExecSpace>& keys,
                      const device_view<std::uint64_t, ExecSpace>& keys_alt, const device_view<I, ExecSpace>& vals_alt) {
  const class_key<ExecSpace, R, Sym> key{symbol_digits<Sym>::make(sym, int(l)), rank, bits_for(m)};
  lsd_sort(space, ws, key, keys, keys_alt, vals, vals_alt);
}

// Sorts `vals` — class-r positions (r not in the cover), all of them or any subset — by
// their symbols up to the next sample position and that position's rank.
template <class ExecSpace, class I, class Sym, class R>
void sort_class(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const difference_cover& cover,
                const Sym& sym, const sample_rank<ExecSpace, R>& rank, std::uint64_t m, unsigned r,
                const device_view<I, ExecSpace>& vals, const device_view<std::uint64_t, ExecSpace>& keys,
                const device_view<std::uint64_t, ExecSpace>& keys_alt, const device_view<I, ExecSpace>& vals_alt) {
  sort_from_offset(space, ws, sym, rank, m, cover.common_offset(r, r), vals, keys, keys_alt, vals_alt);
}

// Merges the sorted runs [offset, offset + length) that tile `sa` into one suffix order
// (merge path, pairwise): the first symbols packed in 64 bits decide unless equal, then
// suffix_less. merge_buf: sa's length; merge_keys: twice that.
template <class ExecSpace, class I, class Sym, class R>
void merge_sorted_runs(const ExecSpace& space, const Sym& sym, const sample_rank<ExecSpace, R>& rank,
                       std::vector<std::pair<std::uint64_t, std::uint64_t>> runs, const device_view<I, ExecSpace>& sa,
                       const device_view<I, ExecSpace>& merge_buf, const device_view<std::uint64_t, ExecSpace>& merge_keys) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if (runs.size() < 2) return;
  const std::uint64_t n = sa.extent(0);
  const suffix_less<ExecSpace, I, Sym, R> less{sym, rank};
  using key_view = device_view<std::uint64_t, ExecSpace>;
  device_view<I, ExecSpace> src = sa, dst(merge_buf.data(), n);
  key_view src_key(merge_keys.data(), n), dst_key(merge_keys.data() + n, n);
  const int packed_symbols = symbol_digits<Sym>::make(sym, 1).per_digit;  // as many as fit 64 bits
  const auto packed = symbol_digits<Sym>::make(sym, packed_symbols);
  Kokkos::parallel_for(
      "strix::dc_merge_keys", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t k) { src_key(k) = packed.digit(0, src(k)); });
  while (runs.size() > 1) {
    std::vector<std::pair<std::uint64_t, std::uint64_t>> merged;
    for (std::size_t k = 0; k < runs.size(); k += 2) {
      const auto a = runs[k];
      if (k + 1 == runs.size()) {  // odd one out: carried over
        strix::copy(space, device_view<I, ExecSpace>(dst.data() + a.first, a.second),
                          device_view<I, ExecSpace>(src.data() + a.first, a.second));
        strix::copy(space, key_view(dst_key.data() + a.first, a.second), key_view(src_key.data() + a.first, a.second));
        merged.push_back(a);
        break;
      }
      const auto b = runs[k + 1];
      const keyed_runs<ExecSpace, I, Sym, R> both{device_view<const I, ExecSpace>(src.data() + a.first, a.second),
                                               device_view<const I, ExecSpace>(src.data() + b.first, b.second),
                                               device_view<const std::uint64_t, ExecSpace>(src_key.data() + a.first, a.second),
                                               device_view<const std::uint64_t, ExecSpace>(src_key.data() + b.first, b.second),
                                               device_view<I, ExecSpace>(dst.data() + a.first, a.second + b.second),
                                               key_view(dst_key.data() + a.first, a.second + b.second),
                                               less,
                                               static_cast<unsigned>(packed_symbols)};
      primitives::merge_tiled(space, a.second, b.second, both);
      merged.emplace_back(a.first, a.second + b.second);
    }
    runs.swap(merged);
    std::swap(src, dst);
    std::swap(src_key, dst_key);
  }
  if (src.data() != sa.data()) strix::copy(space, sa, src);
}

// Writes the suffix array of the n-symbol text `sym` into sa, from ranks(u) = the rank of
// sample unit u among the m = cover.sample_below(n) sample suffixes (entries of type R, I's or
// narrower).
template <class ExecSpace, class I, class Sym, class R>
void induce_and_merge(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, phase_timer<ExecSpace>& timer,
                      const difference_cover& cover, const Sym& sym, std::uint64_t n,
                      const device_view<const R, ExecSpace>& ranks, const device_view<I, ExecSpace>& sa,
                      const induce_buffers<ExecSpace, I>& buf) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t m = cover.sample_below(n);
  const difference_cover c = cover;
  // The sample's run last, the classes' before it: the pairwise merges take the small classes
  // first and the large sample once (15/7 of the suffixes merged for X = 7 instead of 19/7).
  timer.begin("sample order");
  if (m > 0) {
    const device_view<I, ExecSpace> at(sa.data() + (n - m), m);
    Kokkos::parallel_for(
        "strix::dc_sample_order", policy(space, 0, m),
        KOKKOS_LAMBDA(const std::int64_t u) { at(ranks(u)) = static_cast<I>(c.position_of(u)); });
  }
  // Runs: [offset, offset + length) of sa.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;
  const sample_rank<ExecSpace, R> rank{ranks, cover, n};
  timer.begin("nonsample sort");
  std::uint64_t offset = 0;
  for (unsigned r = 0; r < cover.period; ++r) {
    if (cover.contains(r)) continue;
    const std::uint64_t count = difference_cover::class_size(n, r, cover.period);
    if (count == 0) continue;
    const device_view<I, ExecSpace> vals(sa.data() + offset, count);
    const unsigned period = cover.period;
    Kokkos::parallel_for(
        "strix::dc_class", policy(space, 0, count),
        KOKKOS_LAMBDA(const std::int64_t k) { vals(k) = static_cast<I>(r + static_cast<std::uint64_t>(k) * period); });
    sort_class(space, ws, cover, sym, rank, m, r, vals, buf.keys, buf.keys_alt, buf.vals_alt);
    runs.emplace_back(offset, count);
    offset += count;
  }
  STRIX_REQUIRE(offset == n - m);
  if (m > 0) runs.emplace_back(n - m, m);
  timer.begin("merge");
  merge_sorted_runs(space, sym, rank, std::move(runs), device_view<I, ExecSpace>(sa.data(), n), buf.merge_buf,
                    buf.merge_keys);
}

}  // namespace strix::detail
