// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the banded alignments (strix/approximate/edit_alignment.hpp), included by
// libstrix's instantiation files only; STRIX_EDIT_ALIGNMENTS_INSTANTIATE(SPACE) instantiates it.
//
// One alignment a thread. Its DP runs a row (read symbol) at a time over the band's 2k + 1 cells
// (j - i + k = 0..2k), two rows in registers; each cell's choice (M, I, D) goes to scratch, a
// byte a cell, and the traceback from the best end reads them back. The choices are made in the
// traceback's order of preference (the diagonal, then an insertion, then a deletion), so the
// path is the one a traceback over the stored costs would take.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <utility>

#include <strix/approximate/edit_alignment.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/error.hpp>

namespace strix::approximate::detail {

template <class ExecSpace>
void edit_alignments(const ExecSpace& space, const text_view<ExecSpace>& reads,
                     const device_view<const std::uint64_t, ExecSpace>& read_offsets, const text_view<ExecSpace>& windows,
                     const device_view<const std::uint64_t, ExecSpace>& window_offsets, int k,
                     const device_view<std::uint8_t, ExecSpace>& ops, const device_view<std::uint32_t, ExecSpace>& op_counts,
                     const device_view<std::uint8_t, ExecSpace>& distances, run_stats* stats) {
  using mem = typename ExecSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  STRIX_USER_REQUIRE(k >= 0 && k <= max_alignment_errors,
                     "edit_alignments: k must be 0.." + std::to_string(max_alignment_errors));
  const std::uint64_t count = op_counts.extent(0);
  STRIX_USER_REQUIRE(read_offsets.extent(0) == count + 1 && window_offsets.extent(0) == count + 1 &&
                         distances.extent(0) == count,
                     "edit_alignments: the offsets, counts and distances do not agree on the alignments");
  if (count == 0) return;
  std::uint64_t total_read = 0;
  strix::copy(space, Kokkos::View<std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(&total_read, 1),
              Kokkos::subview(read_offsets, std::make_pair(count, count + 1)));
  space.fence();
  STRIX_USER_REQUIRE(ops.extent(0) >= total_read + count * std::uint64_t(k),
                     "edit_alignments: the operations view is shorter than the reads plus k a read");
  const int band = 2 * k + 1;
  strix::detail::memory_tracker tracker;
  strix::detail::phase_timer<ExecSpace> timer(space, stats);
  timer.begin("edit_alignments");
  // The choices of read q's cells start at (read_offsets[q] + q) * band.
  auto choices = strix::detail::allocate<std::uint8_t, mem>("strix::alignment_choices", (total_read + count) * band, &tracker);
  Kokkos::parallel_for(
      "strix::edit_alignments", policy(space, 0, count), KOKKOS_LAMBDA(const std::int64_t q) {
        constexpr int far = max_alignment_errors + 2;
        constexpr int most = 2 * max_alignment_errors + 1;
        const std::uint64_t r0 = read_offsets(q), m = read_offsets(q + 1) - r0;
        const std::uint64_t w0 = window_offsets(q), w = window_offsets(q + 1) - w0;
        std::uint8_t* choice = choices.data() + (r0 + q) * band;
        int prev[most], cur[most];
        const auto capped = [&](int c) { return c < k + 1 ? c : k + 1; };
        for (int d = 0; d < band; ++d) {  // row 0: text symbols skipped before the read's first
          const std::int64_t j = d - k;
          prev[d] = j >= 0 && std::uint64_t(j) <= w ? capped(int(j)) : far;
          choice[d] = 'D';
        }
        for (std::uint64_t i = 1; i <= m; ++i) {
          const std::uint8_t symbol = reads(r0 + i - 1);
          for (int d = 0; d < band; ++d) {
            const std::int64_t j = std::int64_t(i) + d - k;
            std::uint8_t how = 'D';
            int best = far;
            if (j >= 0 && std::uint64_t(j) <= w) {
              const int diagonal = j >= 1 ? prev[d] + (symbol != windows(w0 + j - 1)) : far;
              const int insertion = d + 1 < band ? prev[d + 1] + 1 : far;
              const int deletion = d >= 1 && j >= 1 ? cur[d - 1] + 1 : far;
              best = diagonal < insertion ? diagonal : insertion;
              best = best < deletion ? best : deletion;
              how = best == diagonal ? 'M' : best == insertion ? 'I' : 'D';
              best = best < far ? capped(best) : far;
            }
            cur[d] = best;
            choice[i * band + d] = how;
          }
          for (int d = 0; d < band; ++d) prev[d] = cur[d];
        }
        // The best end: the least cost, then the nearest the diagonal, then the shortest text.
        int end = -1;
        for (int d = 0; d < band; ++d) {
          const std::int64_t j = std::int64_t(m) + d - k;
          if (j < 0 || std::uint64_t(j) > w || prev[d] > k) continue;
          const int off = d > k ? d - k : k - d, end_off = end > k ? end - k : k - end;
          if (end < 0 || prev[d] < prev[end] || (prev[d] == prev[end] && off < end_off)) end = d;
        }
        std::uint8_t* out = ops.data() + r0 + std::uint64_t(q) * k;
        if (end < 0) {
          op_counts(q) = 0;
          distances(q) = static_cast<std::uint8_t>(k + 1);
          return;
        }
        distances(q) = static_cast<std::uint8_t>(prev[end]);
        // Back from (m, end), the operations written from the last, then turned around.
        std::uint64_t i = m;
        int d = end;
        std::uint32_t n = 0;
        while (i > 0 || std::int64_t(i) + d - k > 0) {
          const std::uint8_t how = choice[i * band + d];
          out[n++] = how;
          if (how == 'M') {
            --i;
          } else if (how == 'I') {
            --i;
            ++d;
          } else {
            --d;
          }
        }
        for (std::uint32_t a = 0, b = n; a + 1 < b; ++a, --b) {
          const std::uint8_t t = out[a];
          out[a] = out[b - 1];
          out[b - 1] = t;
        }
        op_counts(q) = n;
      });
  timer.end();
  if (stats) stats->peak_bytes = tracker.peak();
}

}  // namespace strix::approximate::detail

#define STRIX_EDIT_ALIGNMENTS_INSTANTIATE(SPACE)                                                                 \
  template void strix::approximate::detail::edit_alignments<SPACE>(                                             \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const std::uint64_t, SPACE>&,     \
      const strix::text_view<SPACE>&, const strix::device_view<const std::uint64_t, SPACE>&, int,             \
      const strix::device_view<std::uint8_t, SPACE>&, const strix::device_view<std::uint32_t, SPACE>&,        \
      const strix::device_view<std::uint8_t, SPACE>&, strix::run_stats*);
