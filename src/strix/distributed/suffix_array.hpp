// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Suffix arrays, BWTs and the suffix-array check across the ranks of an MPI communicator
// (one rank per GPU, or per socket or node on host backends), for texts larger than one
// device. Compiled into libstrix when it is built with MPI (STRIX_ENABLE_MPI); include
// this header from an MPI code and link strix::strix.
//
// The text is split into contiguous slices in rank order, of any sizes (empty ones too):
// rank r passes the bytes [o_r, o_r + n_r), with o_r the sum of the slices of ranks below
// it. The suffix array comes back split by rows in near-even blocks: rank r holds rows
// suffix_array_rows(n, P).begin(r) .. end(r) (the first n % P ranks one more than the
// others). Every call is collective: all ranks of the communicator make it, with views in
// their execution space's memory. A failure on any rank (bad sizes, memory) throws the
// same strix::error on every rank, the lowest failing rank's, and no rank hangs.
#include <mpi.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include <strix/core/eti.hpp>
#include <strix/core/stats.hpp>
#include <strix/core/views.hpp>
#include <strix/distributed/communicator.hpp>
#include <strix/distributed/workspace.hpp>
#include <strix/sa/check.hpp>

namespace strix::distributed {

// The rows of the distributed suffix array (and BWT) each of `ranks` ranks holds for a
// text of n bytes.
inline layout suffix_array_rows(std::uint64_t n, int ranks) { return block_layout(n, ranks); }

// The rows this rank holds for a text of n bytes.
inline layout suffix_array_rows(std::uint64_t n, MPI_Comm comm) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  return block_layout(n, ranks);
}

namespace detail {
template <class ExecSpace, class I>
void prepare_transport(const ExecSpace& space, MPI_Comm comm);
template <class ExecSpace, class I>
void reserve_workspace(const ExecSpace& space, MPI_Comm comm, std::uint64_t slice_bytes,
                       const text_view<ExecSpace>* text_slice, workspace& ws);
template <class ExecSpace, class I>
void build_suffix_array(const ExecSpace& space, MPI_Comm comm, const text_view<ExecSpace>& text,
                        const device_view<I, ExecSpace>& sa, run_stats* stats, workspace* ws);
template <class ExecSpace, class I>
std::uint64_t build_bwt(const ExecSpace& space, MPI_Comm comm, const text_view<ExecSpace>& text,
                        const device_view<const I, ExecSpace>& sa, const device_view<std::uint8_t, ExecSpace>& out,
                        run_stats* stats);
template <class ExecSpace, class I>
sa_check_result check_suffix_array(const ExecSpace& space, MPI_Comm comm, const text_view<ExecSpace>& text,
                                   const device_view<const I, ExecSpace>& sa);
}  // namespace detail

// Sets up how the ranks of `comm` move device arrays between them (an NCCL communicator and
// its connections, in builds with NCCL; see the README), once per communicator: the first
// distributed call does it otherwise, and its time counts there. Collective.
template <class ExecutionSpace>
void prepare(const ExecutionSpace& space, MPI_Comm comm) {
  detail::prepare_transport<ExecutionSpace, std::uint32_t>(space, comm);
}

// Sizes `ws` for suffix arrays of entries of type Index (std::uint32_t or std::uint64_t) of a
// text of which this rank holds `slice_bytes` bytes (workspace.hpp): the device memory the
// construction that would be chosen for it takes, allocated now rather than inside the call.
// The alphabet unknown, the difference cover is sized for its largest sample (period 7), and
// calls with this workspace then take that period. Collective; nothing is kept for one rank
// (the single-device construction) or where the partitioned construction would run.
template <class Index, class ExecutionSpace>
void reserve(const ExecutionSpace& space, MPI_Comm comm, std::uint64_t slice_bytes, workspace& ws) {
  detail::reserve_workspace<ExecutionSpace, Index>(space, comm, slice_bytes, nullptr, ws);
}

// As above, from this rank's text slice itself (its bytes are read: a pass over every slice,
// where the cover may be chosen): the text's alphabet fixes the difference cover's period, so
// its sample is sized for the period the call will take (for DNA period 21's, 5 suffixes in
// 21) rather than for the largest (period 7's, 3 in 7). Every rank passes its slice (a user
// error otherwise). Texts whose alphabet allows a period as large are served without
// allocating; others (bytes of text: period 7) grow the workspace.
template <class Index, class ExecutionSpace, class TextView, std::enable_if_t<Kokkos::is_view<TextView>::value, int> = 0>
void reserve(const ExecutionSpace& space, MPI_Comm comm, const TextView& text_slice, workspace& ws) {
  strix::detail::check_text_view<ExecutionSpace, TextView>();
  const auto text = strix::detail::as_device_view<const std::uint8_t, ExecutionSpace>(text_slice, "text");
  detail::reserve_workspace<ExecutionSpace, Index>(space, comm, text.extent(0), &text, ws);
}

// This rank's rows of the suffix array of the whole text (the slices of all ranks, in rank
// order) into `sa`: suffix_array_rows(n, comm).size(rank) entries of std::uint32_t or
// std::uint64_t (n must fit the index type). One rank runs strix's single-device `auto`.
// With `ws`, the working memory comes from it (and stays there for the next call).
template <class ExecutionSpace, class TextView, class SAView>
void suffix_array(const ExecutionSpace& space, MPI_Comm comm, const TextView& text_slice, const SAView& sa_rows,
                  run_stats* stats = nullptr, workspace* ws = nullptr) {
  strix::detail::check_text_view<ExecutionSpace, TextView>();
  strix::detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::non_const_value_type;
  detail::build_suffix_array<ExecutionSpace, I>(
      space, comm, strix::detail::as_device_view<const std::uint8_t, ExecutionSpace>(text_slice, "text"),
      strix::detail::as_device_view<I, ExecutionSpace>(sa_rows, "suffix array"), stats, ws);
}

// This rank's part of the BWT in strix's (and divbwt's) layout from the distributed suffix
// array: `out` has the same rows as `sa_rows` and receives bytes [begin(r), end(r)) of the
// n-byte BWT. Returns the primary index (the same on every rank).
template <class ExecutionSpace, class TextView, class SAView, class OutView>
std::uint64_t bwt(const ExecutionSpace& space, MPI_Comm comm, const TextView& text_slice, const SAView& sa_rows,
                  const OutView& out, run_stats* stats = nullptr) {
  strix::detail::check_text_view<ExecutionSpace, TextView>();
  strix::detail::check_index_view<ExecutionSpace, SAView>();
  strix::detail::check_text_view<ExecutionSpace, OutView>();
  using I = typename SAView::non_const_value_type;
  return detail::build_bwt<ExecutionSpace, I>(
      space, comm, strix::detail::as_device_view<const std::uint8_t, ExecutionSpace>(text_slice, "text"),
      strix::detail::as_device_view<const I, ExecutionSpace>(sa_rows, "suffix array"),
      strix::detail::as_device_view<std::uint8_t, ExecutionSpace>(out, "bwt"), stats);
}

// Whether the distributed `sa_rows` is the suffix array of the text, in O(n) work over all
// ranks; the same answer on every rank, with the first wrong row found.
template <class ExecutionSpace, class TextView, class SAView>
sa_check_result check(const ExecutionSpace& space, MPI_Comm comm, const TextView& text_slice, const SAView& sa_rows) {
  strix::detail::check_text_view<ExecutionSpace, TextView>();
  strix::detail::check_index_view<ExecutionSpace, SAView>();
  using I = typename SAView::non_const_value_type;
  return detail::check_suffix_array<ExecutionSpace, I>(
      space, comm, strix::detail::as_device_view<const std::uint8_t, ExecutionSpace>(text_slice, "text"),
      strix::detail::as_device_view<const I, ExecutionSpace>(sa_rows, "suffix array"));
}

}  // namespace strix::distributed

#define STRIX_DISTRIBUTED_EXTERN(SPACE, I)                                                                        \
  extern template void strix::distributed::detail::prepare_transport<SPACE, I>(const SPACE&, MPI_Comm);            \
  extern template void strix::distributed::detail::reserve_workspace<SPACE, I>(                                  \
      const SPACE&, MPI_Comm, std::uint64_t, const strix::text_view<SPACE>*, strix::distributed::workspace&);   \
  extern template void strix::distributed::detail::build_suffix_array<SPACE, I>(                                 \
      const SPACE&, MPI_Comm, const strix::text_view<SPACE>&, const strix::device_view<I, SPACE>&,              \
      strix::run_stats*, strix::distributed::workspace*);                                                       \
  extern template std::uint64_t strix::distributed::detail::build_bwt<SPACE, I>(                                \
      const SPACE&, MPI_Comm, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&,        \
      const strix::device_view<std::uint8_t, SPACE>&, strix::run_stats*);                                       \
  extern template strix::sa_check_result strix::distributed::detail::check_suffix_array<SPACE, I>(              \
      const SPACE&, MPI_Comm, const strix::text_view<SPACE>&, const strix::device_view<const I, SPACE>&);
STRIX_FOR_EACH_ETI(STRIX_DISTRIBUTED_EXTERN)
#undef STRIX_DISTRIBUTED_EXTERN
