// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Longest repeats covering every position, from the raw or the compact LLR array:
// one thread per position walks the LLRs that cover it (see longest_repeat_llr.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/memory.hpp>
#include <strix/repeats/detail/llr.hpp>
#include <strix/repeats/repeat.hpp>

namespace strix::detail {

template <class ExecSpace>
using query_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;

// Leftmost: out[k] = (start, length) of the leftmost longest repeat covering k, or (0, 0).
template <class ExecSpace, class LLRView, class OutView>
void leftmost_raw(const ExecSpace& space, const LLRView& llr, const OutView& out) {
  using I = typename LLRView::non_const_value_type;
  Kokkos::parallel_for(
      "strix::lr_leftmost_raw", query_policy<ExecSpace>(space, 0, llr.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t k) {
        I start, length;
        std::uint64_t count;
        raw_walk(llr, k, start, length, count);
        out(k) = repeat<I>{start, length};
      });
}

template <class ExecSpace, class LLRCView, class OutView>
void leftmost_compact(const ExecSpace& space, const LLRCView& llrc, const OutView& out) {
  using I = typename LLRCView::non_const_value_type::index_type;
  const std::uint64_t m = llrc.extent(0);
  Kokkos::parallel_for(
      "strix::lr_leftmost_compact", query_policy<ExecSpace>(space, 0, out.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t k) {
        I start, length;
        std::uint64_t count;
        compact_walk(llrc, m, k, compact_first(llrc, m, k), start, length, count);
        out(k) = repeat<I>{start, length};
      });
}

// Turns counts in offsets[0, n) into start offsets, offsets[n] = total; returns the total.
template <class ExecSpace, class OffsetView>
std::uint64_t counts_to_offsets(const ExecSpace& space, const OffsetView& offsets) {
  std::uint64_t total = 0;
  Kokkos::parallel_scan(
      "strix::lr_offsets", query_policy<ExecSpace>(space, 0, offsets.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t k, std::uint64_t& upd, const bool final) {
        const std::uint64_t c = offsets(k);
        if (final) offsets(k) = upd;
        upd += c;
      },
      total);
  return total;
}

// Two walks per position (Algorithm 3): length and count, then the records, written
// back to front so that starts increase.
template <class ExecSpace, class LLRView>
all_repeats_result<typename LLRView::non_const_value_type, typename ExecSpace::memory_space>
all_raw(const ExecSpace& space, const LLRView& llr, memory_tracker* tracker) {
  using I = typename LLRView::non_const_value_type;
  using mem = typename ExecSpace::memory_space;
  const std::uint64_t n = llr.extent(0);
  all_repeats_result<I, mem> result;
  result.offsets = allocate<std::uint64_t, mem>("strix::lr_offsets", n + 1, tracker);
  auto longest = allocate<I, mem>("strix::lr_lengths", n, tracker);
  auto offsets = result.offsets;
  Kokkos::parallel_for(
      "strix::lr_all_raw_count", query_policy<ExecSpace>(space, 0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t k) {
        if (std::uint64_t(k) == n) {
          offsets(k) = 0;
          return;
        }
        I start, length;
        std::uint64_t count;
        raw_walk(llr, k, start, length, count);
        longest(k) = length;
        offsets(k) = count;
      });
  const std::uint64_t total = counts_to_offsets(space, offsets);
  result.records = allocate<repeat<I>, mem>("strix::lr_records", total, tracker);
  auto records = result.records;
  Kokkos::parallel_for(
      "strix::lr_all_raw_write", query_policy<ExecSpace>(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t k) {
        const I length = longest(k);
        const std::uint64_t first = offsets(k);
        std::uint64_t slot = offsets(k + 1);
        for (std::uint64_t i = k + 1; slot > first && i-- > 0;) {
          if (llr(i) == length) records(--slot) = repeat<I>{static_cast<I>(i), length};
        }
      });
  release(longest, tracker);
  return result;
}

// Algorithm 4: binary search once, then a walk for the length and one for the records.
template <class ExecSpace, class LLRCView>
all_repeats_result<typename LLRCView::non_const_value_type::index_type,
                  typename ExecSpace::memory_space>
all_compact(const ExecSpace& space, const LLRCView& llrc, std::uint64_t n,
            memory_tracker* tracker) {
  using I = typename LLRCView::non_const_value_type::index_type;
  using mem = typename ExecSpace::memory_space;
  const std::uint64_t m = llrc.extent(0);
  all_repeats_result<I, mem> result;
  result.offsets = allocate<std::uint64_t, mem>("strix::lr_offsets", n + 1, tracker);
  auto longest = allocate<I, mem>("strix::lr_lengths", n, tracker);
  auto first_rec = allocate<I, mem>("strix::lr_first", n, tracker);
  auto offsets = result.offsets;
  Kokkos::parallel_for(
      "strix::lr_all_compact_count", query_policy<ExecSpace>(space, 0, n + 1),
      KOKKOS_LAMBDA(const std::int64_t k) {
        if (std::uint64_t(k) == n) {
          offsets(k) = 0;
          return;
        }
        const std::uint64_t first = compact_first(llrc, m, k);
        I start, length;
        std::uint64_t count;
        compact_walk(llrc, m, k, first, start, length, count);
        longest(k) = length;
        first_rec(k) = static_cast<I>(first);  // first <= m <= n
        offsets(k) = count;
      });
  const std::uint64_t total = counts_to_offsets(space, offsets);
  result.records = allocate<repeat<I>, mem>("strix::lr_records", total, tracker);
  auto records = result.records;
  Kokkos::parallel_for(
      "strix::lr_all_compact_write", query_policy<ExecSpace>(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t k) {
        const I length = longest(k);
        std::uint64_t slot = offsets(k);
        const std::uint64_t end = offsets(k + 1);
        for (std::uint64_t c = first_rec(k); slot < end; ++c) {
          const auto rec = llrc(c);
          if (rec.length == length) records(slot++) = rec;
        }
      });
  release(longest, tracker);
  release(first_rec, tracker);
  return result;
}

}  // namespace strix::detail
