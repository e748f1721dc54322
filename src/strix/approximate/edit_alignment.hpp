// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The alignments behind edit-distance hits (for CIGARs): each read against the text that starts
// at its hit, the read whole and the text's end free, by dynamic programming in a band of k
// diagonals either side, on the execution space. Compiled into libstrix (strix/core/eti.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include <strix/core/eti.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>

namespace strix::approximate {

// The most errors the alignments take (the search's own limit).
constexpr int max_alignment_errors = 6;

namespace detail {
template <class ExecSpace>
void edit_alignments(const ExecSpace& space, const text_view<ExecSpace>& reads,
                     const device_view<const std::uint64_t, ExecSpace>& read_offsets, const text_view<ExecSpace>& windows,
                     const device_view<const std::uint64_t, ExecSpace>& window_offsets, int k,
                     const device_view<std::uint8_t, ExecSpace>& ops, const device_view<std::uint32_t, ExecSpace>& op_counts,
                     const device_view<std::uint8_t, ExecSpace>& distances, run_stats* stats);
}  // namespace detail

// For alignment q: read q is reads[read_offsets[q], read_offsets[q + 1]) (m symbols), its text
// windows[window_offsets[q], window_offsets[q + 1]) (the text from the hit on, at least m + k
// symbols where the text has them). Writes the best alignment's operations in order — 'M'
// (match or substitution), 'I' (a read symbol the text lacks), 'D' (a text symbol skipped) —
// into ops[read_offsets[q] + q * k, ...) (ops holds read_offsets[count] + count * k bytes),
// their number into op_counts[q] and the edits into distances[q]; distances[q] = k + 1 and no
// operations where no alignment has at most k edits. Of the best alignments: the text end
// nearest the read's length, then matches before insertions before deletions from the end
// back. 0 <= k <= max_alignment_errors. Scratch: (m + 1)(2k + 1) bytes an alignment.
template <class ExecutionSpace, class ReadView, class ReadOffsets, class WindowView, class WindowOffsets, class OpsView,
          class CountView, class DistanceView,
          class = std::enable_if_t<Kokkos::is_execution_space<ExecutionSpace>::value>>
void edit_alignments(const ExecutionSpace& space, const ReadView& reads, const ReadOffsets& read_offsets,
                     const WindowView& windows, const WindowOffsets& window_offsets, int k, const OpsView& ops,
                     const CountView& op_counts, const DistanceView& distances, run_stats* stats = nullptr) {
  detail::edit_alignments<ExecutionSpace>(
      space, strix::detail::as_device_view<const std::uint8_t, ExecutionSpace>(reads, "reads"),
      strix::detail::as_device_view<const std::uint64_t, ExecutionSpace>(read_offsets, "read offsets"),
      strix::detail::as_device_view<const std::uint8_t, ExecutionSpace>(windows, "windows"),
      strix::detail::as_device_view<const std::uint64_t, ExecutionSpace>(window_offsets, "window offsets"), k,
      strix::detail::as_device_view<std::uint8_t, ExecutionSpace>(ops, "operations"),
      strix::detail::as_device_view<std::uint32_t, ExecutionSpace>(op_counts, "operation counts"),
      strix::detail::as_device_view<std::uint8_t, ExecutionSpace>(distances, "distances"), stats);
}

}  // namespace strix::approximate

#define STRIX_EDIT_ALIGNMENTS_EXTERN(SPACE)                                                                         \
  extern template void strix::approximate::detail::edit_alignments<SPACE>(                                         \
      const SPACE&, const strix::text_view<SPACE>&, const strix::device_view<const std::uint64_t, SPACE>&,        \
      const strix::text_view<SPACE>&, const strix::device_view<const std::uint64_t, SPACE>&, int,                \
      const strix::device_view<std::uint8_t, SPACE>&, const strix::device_view<std::uint32_t, SPACE>&,           \
      const strix::device_view<std::uint8_t, SPACE>&, strix::run_stats*);
STRIX_FOR_EACH_ETI_SPACE(STRIX_EDIT_ALIGNMENTS_EXTERN)
#undef STRIX_EDIT_ALIGNMENTS_EXTERN
