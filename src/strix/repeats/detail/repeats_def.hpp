// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of the longest-repeat queries (see strix/repeats/repeats.hpp), included by
// libstrix's instantiation files only; STRIX_REPEATS_INSTANTIATE(SPACE, I) instantiates them.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/repeats/detail/llr.hpp>
#include <strix/repeats/detail/query.hpp>
#include <strix/repeats/repeats.hpp>

namespace strix::detail {

template <class ExecSpace, class I>
void left_bounded_repeat_lengths(const ExecSpace& space, const device_view<const I, ExecSpace>& rank,
                                 const device_view<const I, ExecSpace>& lcp,
                                 const device_view<I, ExecSpace>& llr) {
  llr_lengths(space, rank, lcp, llr);
}

template <class ExecSpace, class I>
void leftmost_longest_repeats(const ExecSpace& space, const device_view<const I, ExecSpace>& rank,
                              const device_view<const I, ExecSpace>& lcp,
                              const device_view<repeat<I>, ExecSpace>& out,
                              const repeat_options& options, run_stats* stats) {
  using mem = typename ExecSpace::memory_space;
  const std::uint64_t n = rank.extent(0);
  memory_tracker tracker;
  tracker.acquire(2 * n * sizeof(I) + n * sizeof(repeat<I>));  // the caller's views
  phase_timer<ExecSpace> timer(space, stats);
  timer.begin("llr");
  auto llr = allocate<I, mem>("strix::llr", n, &tracker);
  llr_lengths(space, rank, lcp, llr);
  if (options.method == repeat_method::raw) {
    timer.begin("longest repeats");
    leftmost_raw(space, llr, out);
  } else {
    timer.begin("llr compaction");
    auto llrc = compact_llr(space, llr, &tracker);
    release(llr, &tracker);
    timer.begin("longest repeats");
    leftmost_compact(space, llrc, out);
  }
  timer.end();
  if (stats) stats->peak_bytes = tracker.peak();
}

template <class ExecSpace, class I>
all_repeats_result<I, typename ExecSpace::memory_space> all_longest_repeats(
    const ExecSpace& space, const device_view<const I, ExecSpace>& rank,
    const device_view<const I, ExecSpace>& lcp, const repeat_options& options, run_stats* stats) {
  using mem = typename ExecSpace::memory_space;
  const std::uint64_t n = rank.extent(0);
  memory_tracker tracker;
  tracker.acquire(2 * n * sizeof(I));  // the caller's views
  phase_timer<ExecSpace> timer(space, stats);
  timer.begin("llr");
  auto llr = allocate<I, mem>("strix::llr", n, &tracker);
  llr_lengths(space, rank, lcp, llr);
  all_repeats_result<I, mem> result;
  if (options.method == repeat_method::raw) {
    timer.begin("longest repeats");
    result = all_raw(space, llr, &tracker);
  } else {
    timer.begin("llr compaction");
    auto llrc = compact_llr(space, llr, &tracker);
    release(llr, &tracker);
    timer.begin("longest repeats");
    result = all_compact(space, llrc, n, &tracker);
  }
  timer.end();
  if (stats) stats->peak_bytes = tracker.peak();
  return result;
}

}  // namespace strix::detail

#define STRIX_REPEATS_INSTANTIATE(SPACE, I)                                                     \
  template void strix::detail::left_bounded_repeat_lengths<SPACE, I>(                           \
      const SPACE&, const strix::device_view<const I, SPACE>&,                                  \
      const strix::device_view<const I, SPACE>&, const strix::device_view<I, SPACE>&);          \
  template void strix::detail::leftmost_longest_repeats<SPACE, I>(                              \
      const SPACE&, const strix::device_view<const I, SPACE>&,                                  \
      const strix::device_view<const I, SPACE>&, const strix::device_view<strix::repeat<I>, SPACE>&, \
      const strix::repeat_options&, strix::run_stats*);                                         \
  template strix::all_repeats_result<I, typename SPACE::memory_space>                           \
  strix::detail::all_longest_repeats<SPACE, I>(const SPACE&, const strix::device_view<const I, SPACE>&, \
                                               const strix::device_view<const I, SPACE>&,       \
                                               const strix::repeat_options&, strix::run_stats*);
