// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// sa_algorithm::skew: DC3 (Kärkkäinen-Sanders) as in Wang-Baxter-Owens. The sample
// (positions p <= n with p mod 3 in {1, 2}; p == n, the empty suffix, only pads) is
// radix-sorted by its first 3 symbols and named; while names repeat, the reduced string
// (the names of class 1, then of class 2) is sorted recursively by the same code on an
// integer alphabet. Every class ends in a name that holds the end of text, hence unique,
// so comparisons on the reduced string never run from one class into the next.
//
// Working memory (I = uint32), sized once for every level: each level keeps its reduced
// string and that string's suffix array (2 * 4 bytes a sample entry, about 2n entries over
// all levels: 16n), the radix sorts' values (8 bytes a top-level sample entry: 5n), their
// keys, shared with the merge's packed symbols (16n), and the merge buffer (4n); with the
// caller's text and SA about 46n.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <string>

#include <strix/core/copy.hpp>
#include <strix/sa/detail/difference_cover/dc_engine.hpp>
#include <strix/sa/detail/difference_cover/induce_merge.hpp>

namespace strix::detail {

// The reduced string lists the sample class by class: class k (residue members[k]) holds
// the positions p <= n of that residue, from start[k].
struct class_major_layout {
  difference_cover cover;
  std::uint64_t start[difference_cover::max_size + 1] = {};

  class_major_layout(const difference_cover& c, std::uint64_t n) : cover(c) {
    for (unsigned k = 0; k < c.size; ++k) {
      const std::uint64_t r = c.members[k];
      start[k + 1] = start[k] + (n >= r ? (n - r) / c.period + 1 : 0);
    }
  }
  std::uint64_t total() const { return start[cover.size]; }
  KOKKOS_INLINE_FUNCTION std::uint64_t index_of_unit(std::uint64_t u) const {
    return start[u % cover.size] + u / cover.size;
  }
  KOKKOS_INLINE_FUNCTION std::uint64_t unit_of_index(std::uint64_t q) const {
    unsigned k = 0;
    while (k + 1 < cover.size && q >= start[k + 1]) ++k;
    return (q - start[k]) * cover.size + k;
  }
};

template <class ExecSpace, class I>
class dc_skew final : public dc_engine<dc_skew<ExecSpace, I>, ExecSpace, I> {
  using base = dc_engine<dc_skew<ExecSpace, I>, ExecSpace, I>;
  using base::cover_, base::mem_, base::merge_buf_, base::space_, base::ws_;

 public:
  using typename base::index_view, typename base::memory_space, typename base::policy;

  explicit dc_skew(const ExecSpace& space) : base(space, 3) {}

  // A level's sample, the padding position included.
  std::uint64_t sample_with_pad(std::uint64_t n) const { return class_major_layout(cover_, n).total(); }

  // The construction's part of dc_engine: every level's reduced string and its SA, the
  // radix sorts' keys and values.
  void reserve_family(std::size_t cap) {
    std::size_t levels = 0;  // the reduced strings and their SAs over every level
    for (std::uint64_t len = cap; len > 2;) {
      const std::uint64_t next = sample_with_pad(len);
      if (next >= len) break;
      levels += 2 * next;
      len = next;
    }
    const std::size_t sort = std::max<std::size_t>(sample_with_pad(cap), cap / cover_.period + 2);
    arena_ = allocate<I, memory_space>("strix::skew_levels", levels + 2, &mem_);
    keys_ = allocate<std::uint64_t, memory_space>("strix::skew_keys", 2 * std::max(sort, cap), &mem_);
    vals_ = allocate<I, memory_space>("strix::skew_vals", 2 * sort, &mem_);
    merge_buf_ = allocate<I, memory_space>("strix::dc_merge", cap, &mem_);
    ws_.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint64_t, I>(space_, sort));
  }
  void release_family() {
    detail::release(arena_, &mem_);
    detail::release(keys_, &mem_);
    detail::release(vals_, &mem_);
  }

  void build(const text_view<ExecSpace>& text, const index_view& sa, run_stats* stats) override {
    const std::uint64_t n = text.extent(0);
    this->reserve(n);
    phase_timer<ExecSpace> timer(space_, stats);
    timer_ = &timer;
    depth_ = 0;
    if (n <= 1) {
      if (n == 1) strix::fill(space_, sa, I(0));
    } else {
      const byte_symbols<ExecSpace> sym = this->text_symbols(text, timer);
      level(sym, n, sa, 0, 0);
      if (stats) {
        stats->set_counter("recursion_depth", depth_);
        stats->set_counter("sample", cover_.sample_below(n));
      }
    }
    timer.end();
    timer_ = nullptr;
    if (stats) stats->peak_bytes = mem_.peak() + n + n * sizeof(I);
  }

  // The suffix array of the n-symbol text sym (n >= 2) into sa; the level's reduced
  // string and its SA from arena_[arena_at]. Public for CUDA lambdas.
  template <class Sym>
  void level(const Sym& sym, std::uint64_t n, const index_view& sa, std::size_t arena_at, int depth) {
    depth_ = std::max(depth_, depth);
    const class_major_layout layout(cover_, n);
    const std::uint64_t mp = layout.total();      // the sample with the padding position
    const std::uint64_t m = cover_.sample_below(n);  // without it
    const I pad = static_cast<I>(mp - m);          // 1 when position n is sampled: the lowest rank
    STRIX_REQUIRE(arena_at + mp <= arena_.extent(0));
    const difference_cover c = cover_;

    // Sort the sample units by their first X symbols and name them.
    timer_->begin("sample sort");
    const std::size_t half = vals_.extent(0) / 2;
    const index_view units(vals_.data(), mp), units_alt(vals_.data() + half, half);
    const device_view<std::uint64_t, ExecSpace> keys(keys_.data(), half), keys_alt(keys_.data() + half, half);
    const device_view<std::uint64_t, ExecSpace> merge_keys(keys_.data(), 2 * n);
    Kokkos::parallel_for(
        "strix::skew_units", policy(space_, 0, mp), KOKKOS_LAMBDA(const std::int64_t u) { units(u) = static_cast<I>(u); });
    const sample_prefix_key<Sym> key{symbol_digits<Sym>::make(sym, static_cast<int>(c.period)), c};
    lsd_sort(space_, ws_, key, keys, keys_alt, units, units_alt);
    timer_->begin("sample names");
    const std::uint64_t distinct = name_sorted_units(space_, sym, c, static_cast<int>(c.period), units, keys);
    // keys(k) is now the name of units(k).

    // ranks(u) for the m real sample units; it takes the reduced string's place.
    const index_view ranks(arena_.data() + arena_at, mp);
    if (distinct == mp) {
      Kokkos::parallel_for(
          "strix::skew_unique_ranks", policy(space_, 0, mp), KOKKOS_LAMBDA(const std::int64_t k) {
            const I u = units(k);
            if (u < m) ranks(u) = static_cast<I>(k - pad);
          });
    } else {
      STRIX_REQUIRE(mp < n && arena_at + 2 * mp <= arena_.extent(0));
      const index_view reduced = ranks, reduced_sa(arena_.data() + arena_at + mp, mp);
      Kokkos::parallel_for(
          "strix::skew_reduce", policy(space_, 0, mp), KOKKOS_LAMBDA(const std::int64_t k) {
            reduced(layout.index_of_unit(units(k))) = static_cast<I>(keys(k));
          });
      const name_symbols<ExecSpace, I> names{device_view<const I, ExecSpace>(reduced.data(), mp), mp,
                                             bits_for(distinct)};
      level(names, mp, reduced_sa, arena_at + 2 * mp, depth + 1);
      timer_->begin("sample ranks");
      Kokkos::parallel_for(
          "strix::skew_ranks", policy(space_, 0, mp), KOKKOS_LAMBDA(const std::int64_t k) {
            const std::uint64_t u = layout.unit_of_index(reduced_sa(k));
            if (u < m) ranks(u) = static_cast<I>(k - pad);
          });
    }
    const induce_buffers<ExecSpace, I> buf{keys, keys_alt, units_alt, index_view(merge_buf_.data(), n), merge_keys};
    induce_and_merge<ExecSpace, I>(space_, ws_, *timer_, c, sym, n,
                                   device_view<const I, ExecSpace>(ranks.data(), m), sa, buf);
  }

 private:
  Kokkos::View<I*, memory_space> arena_, vals_;
  Kokkos::View<std::uint64_t*, memory_space> keys_;
  phase_timer<ExecSpace>* timer_ = nullptr;
  int depth_ = 0;
};

}  // namespace strix::detail
