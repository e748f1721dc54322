// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Left-bounded longest repeats (LLR) and their compaction, on any Kokkos backend.
//
// LLR[i] = max(LCP[Rank[i]], LCP[Rank[i] + 1]) (Lemma 1 of Tian and Xu; LCP[n] = 0) is
// the length of the longest repeat starting at i, 0 when T[i] is a singleton. Its right
// end i + LLR[i] never decreases with i (Lemma 2), so the LLRs covering k are exactly
// LLR[f..k] for some f <= k, and LLR[i] lies inside LLR[i-1] iff LLR[i] < LLR[i-1].
// The compact array keeps the others ("useful", LLR[i] > 0 and LLR[i] >= LLR[i-1]) as
// (start, length) records with strictly increasing starts and ends; every longest
// repeat is a useful LLR.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/memory.hpp>
#include <strix/repeats/repeat.hpp>

namespace strix::detail {

template <class ExecSpace, class ISAView, class LCPView, class LLRView>
void llr_lengths(const ExecSpace& space, const ISAView& isa, const LCPView& lcp,
                 const LLRView& llr) {
  using I = typename LLRView::non_const_value_type;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = isa.extent(0);
  Kokkos::parallel_for(
      "strix::llr_lengths", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t r = isa(i);
        const I a = lcp(r);
        const I b = r + 1 < n ? I(lcp(r + 1)) : I(0);
        llr(i) = a > b ? a : b;
      });
}

template <class LLRView>
KOKKOS_INLINE_FUNCTION bool llr_useful(const LLRView& llr, std::uint64_t i) {
  return llr(i) > 0 && (i == 0 || llr(i) >= llr(i - 1));
}

// The compact LLR array: flag, prefix sum and scatter in one scan, after one count.
template <class ExecSpace, class LLRView>
Kokkos::View<repeat<typename LLRView::non_const_value_type>*, typename ExecSpace::memory_space>
compact_llr(const ExecSpace& space, const LLRView& llr, memory_tracker* tracker) {
  using I = typename LLRView::non_const_value_type;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = llr.extent(0);
  std::uint64_t m = 0;
  Kokkos::parallel_reduce(
      "strix::llr_count_useful", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& count) {
        if (llr_useful(llr, i)) ++count;
      },
      m);
  auto llrc = allocate<repeat<I>, typename ExecSpace::memory_space>("strix::llr_compact", m, tracker);
  Kokkos::parallel_scan(
      "strix::llr_compact", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& upd, const bool final) {
        if (!llr_useful(llr, i)) return;
        if (final) llrc(upd) = repeat<I>{static_cast<I>(i), llr(i)};
        ++upd;
      });
  return llrc;
}

// Raw walk for position k: LLR[k], LLR[k-1], ... while they cover k. Leaves the
// longest length, its leftmost start and how many covering LLRs have that length.
template <class LLRView, class I>
KOKKOS_INLINE_FUNCTION void raw_walk(const LLRView& llr, std::uint64_t k, I& start, I& length,
                                     std::uint64_t& count) {
  start = 0;
  length = 0;
  count = 0;
  for (std::uint64_t i = k + 1; i-- > 0;) {
    const I l = llr(i);
    if (i + l <= k) break;  // ends never increase leftwards: no LLR further left covers k
    if (l > length) {
      length = l;
      count = 1;
      start = static_cast<I>(i);
    } else if (l == length) {
      ++count;
      start = static_cast<I>(i);
    }
  }
}

// First compact record whose end passes k (ends strictly increase), m if none.
template <class LLRCView>
KOKKOS_INLINE_FUNCTION std::uint64_t compact_first(const LLRCView& llrc, std::uint64_t m,
                                                   std::uint64_t k) {
  std::uint64_t lo = 0, hi = m;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (std::uint64_t(llrc(mid).start) + llrc(mid).length <= k) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// Compact walk for k from record `first`: every record from there on ends after k, so
// the walk stops at the first one that starts after k. (The paper's Algorithm 2 tests the
// end here; going rightwards it is the start that can leave k.)
template <class LLRCView, class I>
KOKKOS_INLINE_FUNCTION void compact_walk(const LLRCView& llrc, std::uint64_t m, std::uint64_t k,
                                         std::uint64_t first, I& start, I& length,
                                         std::uint64_t& count) {
  start = 0;
  length = 0;
  count = 0;
  for (std::uint64_t c = first; c < m; ++c) {
    const auto rec = llrc(c);
    if (rec.start > k) break;
    if (rec.length > length) {
      length = rec.length;
      start = rec.start;
      count = 1;
    } else if (rec.length == length) {
      ++count;
    }
  }
}

}  // namespace strix::detail
