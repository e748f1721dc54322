// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Pieces of the suffix order, for a difference-cover construction whose merge buffers hold only
// part of the text (issue 64: the suffix array in 16n bytes and less). Once the sample is ranked,
// any suffix compares with a sample suffix in at most X symbols and two rank lookups
// (suffix_less), so sample suffixes of evenly spaced ranks split the suffix order exactly:
//   1. C splitters, the sample suffixes of ranks stride, 2 stride, ..., C stride;
//   2. every suffix's bin (how many splitters precede or equal it, by binary search) counted;
//   3. consecutive bins grouped into pieces that fit the buffers;
//   4. for each piece in order, its suffixes marked (two comparisons a suffix), selected into
//      the suffix array's rows of the piece, and ordered there (piece_order.hpp).
// A piece is a contiguous range of rows, so nothing moves afterwards. Bins, unlike ranges of
// the first characters, never hold more than about their share of the text on repetitive texts
// (a run of one byte is one range of characters but spread over every bin).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/device_view.hpp>
#include <strix/sa/detail/difference_cover/keys.hpp>
#include <strix/succinct/detail/word_ops.hpp>  // popcount32

namespace strix::detail {

// Whether position j is marked: bit j % 32 of word j / 32 (n / 32 + 1 words for n positions).
template <class ExecSpace>
struct marked {
  Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space> flags;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t j) const { return (flags(j >> 5) >> (j & 31)) & 1u; }
};
inline std::uint64_t mark_words(std::uint64_t n) { return n / 32 + 1; }

// The most splitters (bins - 1): fine enough that bins fall well below a piece's share, and
// their positions (8 bytes each) stay in L1/L2 for the binary searches.
constexpr std::uint64_t max_piece_splitters = 4095;

// Splitter j < count, in suffix order: the sample suffix of rank (j + 1) * stride.
struct splitter_plan {
  std::uint64_t count = 0, stride = 1;
  explicit splitter_plan(std::uint64_t m) {
    count = m > 1 ? std::min<std::uint64_t>(max_piece_splitters, m - 1) : 0;
    stride = count ? m / (count + 1) : 1;
  }
};

// The bin of suffix i: how many splitters are at or before it in suffix order.
template <class ExecSpace, class Sym, class R>
struct suffix_bin {
  suffix_less<ExecSpace, std::uint64_t, Sym, R> less;
  device_view<const std::uint64_t, ExecSpace> splitters;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(const std::uint64_t i) const {
    std::uint64_t lo = 0, hi = splitters.extent(0);
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (less(i, splitters(mid))) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
};

// The splitters' positions into `splitters` (plan.count entries).
template <class ExecSpace, class R>
void pick_splitters(const ExecSpace& space, const sample_rank<ExecSpace, R>& rank, std::uint64_t m,
                    const splitter_plan& plan, const device_view<std::uint64_t, ExecSpace>& splitters) {
  if (plan.count == 0) return;
  const auto ranks = rank.ranks;
  const difference_cover cover = rank.cover;
  const std::uint64_t stride = plan.stride, count = plan.count;
  Kokkos::parallel_for(
      "strix::dc_splitters", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(m)),
      KOKKOS_LAMBDA(const std::int64_t u) {
        const std::uint64_t r = ranks(u);
        if (r % stride != 0) return;
        const std::uint64_t j = r / stride;
        if (j >= 1 && j <= count) splitters(j - 1) = cover.position_of(std::uint64_t(u));
      });
}

// Suffixes a bin, counted (counts: splitters + 1 entries).
template <class ExecSpace, class Sym, class R>
void count_bins(const ExecSpace& space, const suffix_bin<ExecSpace, Sym, R>& bin, std::uint64_t n,
                const device_view<std::uint64_t, ExecSpace>& counts) {
  Kokkos::deep_copy(space, counts, std::uint64_t(0));
  Kokkos::parallel_for(
      "strix::dc_count_bins", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(n)),
      KOKKOS_LAMBDA(const std::int64_t i) { Kokkos::atomic_increment(&counts(bin(std::uint64_t(i)))); });
}

// A piece: bins [first_bin, end_bin), rows [first_row, first_row + rows).
struct suffix_piece {
  std::uint64_t first_bin = 0, end_bin = 0, first_row = 0, rows = 0;
};

// Consecutive bins grouped greedily into pieces of at most `capacity` rows (a bin larger than
// that is a piece alone).
inline std::vector<suffix_piece> plan_pieces(const std::vector<std::uint64_t>& bin_counts, std::uint64_t capacity) {
  std::vector<suffix_piece> pieces;
  suffix_piece p;
  for (std::uint64_t b = 0; b < bin_counts.size(); ++b) {
    if (p.rows > 0 && p.rows + bin_counts[b] > capacity) {
      pieces.push_back(p);
      p = suffix_piece{b, b, p.first_row + p.rows, 0};
    }
    p.end_bin = b + 1;
    p.rows += bin_counts[b];
  }
  if (p.rows > 0) pieces.push_back(p);
  return pieces;
}

// The suffixes of piece p marked in `flags` (mark_words(n) words); returns how many.
template <class ExecSpace, class Sym, class R>
std::uint64_t mark_piece(const ExecSpace& space, const suffix_bin<ExecSpace, Sym, R>& bin, std::uint64_t n,
                         const suffix_piece& p, const Kokkos::View<std::uint32_t*, typename ExecSpace::memory_space>& flags) {
  const std::uint64_t splitters = bin.splitters.extent(0);
  // At or after splitter first_bin - 1, before splitter end_bin - 1 (none at the ends).
  const bool has_low = p.first_bin > 0, has_high = p.end_bin <= splitters;
  const std::uint64_t low = has_low ? p.first_bin - 1 : 0, high = has_high ? p.end_bin - 1 : 0;
  const auto less = bin.less;
  const auto split = bin.splitters;
  std::uint64_t count = 0;
  Kokkos::parallel_reduce(
      "strix::dc_mark_piece",
      Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, std::int64_t(mark_words(n))),
      KOKKOS_LAMBDA(const std::int64_t w, std::uint64_t& sum) {
        const std::uint64_t p0 = std::uint64_t(w) * 32;
        std::uint32_t marks = 0;
        for (unsigned t = 0; t < 32 && p0 + t < n; ++t) {
          const std::uint64_t i = p0 + t;
          if ((!has_low || !less(i, split(low))) && (!has_high || less(i, split(high)))) marks |= std::uint32_t(1) << t;
        }
        flags(w) = marks;
        sum += std::uint64_t(popcount32(marks));
      },
      count);
  return count;
}

}  // namespace strix::detail
