// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A piece of a difference-cover construction put in suffix order once the sample is ranked: the
// suffixes of a contiguous range of the suffix order (a piece), given in any order, grouped into
// runs by residue (one a class outside the cover, one for the sample), the sample's run placed
// by rank (its ranks are contiguous: the piece is a range of the order), each class sorted by
// sort_class, and the runs merged. The single-device constructions use it where their merge
// buffers hold only part of the text (pieces.hpp), the distributed one for each rank's range of
// keys (distributed/detail/cover_def.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <utility>
#include <vector>

#include <strix/core/bits.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/sa/detail/difference_cover/induce_merge.hpp>

namespace strix::detail {

// Run of each residue mod X in a piece's order before the merge: one a class outside the
// cover, then the sample's (last: the pairwise merges then take the equal small classes
// first and the large sample once, at the end: 15/7 of the suffixes merged for X = 7
// instead of 19/7, about 4 times instead of 4.8 for X = 21).
struct cover_runs {
  std::uint8_t of[32] = {};
  unsigned class_of[32] = {};  // the residue of each run but the sample's
  unsigned count = 0, sample = 0;  // runs; the sample's
  explicit cover_runs(const difference_cover& cover) {
    for (unsigned r = 0; r < cover.period; ++r) {
      if (cover.contains(r)) continue;
      class_of[count] = r;
      of[r] = std::uint8_t(count++);
    }
    sample = count++;
    for (unsigned r = 0; r < cover.period; ++r)
      if (cover.contains(r)) of[r] = std::uint8_t(sample);
  }
};

// The phases order_piece reports, by name.
struct piece_phases {
  const char* group;  // the runs formed
  const char* sort;   // the sample placed, the classes sorted
  const char* merge;
};

// Orders the suffixes at the positions in `own` (a piece, see above; m sample units ranked by
// `rank`) in place. merge_buf: own's length; keys: twice that (both scratch).
template <class ExecSpace, class I, class Sym, class R>
void order_piece(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const difference_cover& cover,
                 const Sym& sym, const sample_rank<ExecSpace, R>& rank, std::uint64_t m,
                 const device_view<I, ExecSpace>& own, const device_view<I, ExecSpace>& merge_buf,
                 const device_view<std::uint64_t, ExecSpace>& keys, phase_timer<ExecSpace>& timer,
                 const piece_phases& phases) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using wide = device_view<std::uint64_t, ExecSpace>;
  using index = device_view<I, ExecSpace>;
  const std::uint64_t m0 = own.extent(0);
  if (m0 < 2) return;
  const cover_runs runs_of(cover);
  const unsigned period = cover.period;

  // 1. Grouped by run (a stable radix sort by run id), and where each run starts.
  timer.begin(phases.group);
  wide run_keys(keys.data(), m0), run_keys_alt(keys.data() + m0, m0);
  Kokkos::parallel_for(
      "strix::cover_run_keys", policy(space, 0, std::int64_t(m0)),
      KOKKOS_LAMBDA(const std::int64_t j) { run_keys(j) = runs_of.of[small_residue(std::uint64_t(own(j)), period)]; });
  index vals = own, vals_alt(merge_buf.data(), m0);
  if (primitives::radix_sort_pairs<std::uint64_t, I>(space, ws, run_keys, run_keys_alt, vals, vals_alt, 0,
                                                     bits_for(runs_of.count - 1))) {
    strix::copy(space, own, vals_alt);
    std::swap(run_keys, run_keys_alt);
  }
  // (Empty runs start where the next one does.)
  Kokkos::View<std::uint64_t[33], typename ExecSpace::memory_space> starts("strix::cover_run_starts");
  Kokkos::deep_copy(space, starts, m0);
  const wide sorted_runs = run_keys;
  Kokkos::parallel_for(
      "strix::cover_run_starts", policy(space, 0, std::int64_t(m0)), KOKKOS_LAMBDA(const std::int64_t j) {
        const std::uint64_t here = sorted_runs(j), from = j == 0 ? 0 : sorted_runs(j - 1) + 1;
        for (std::uint64_t t = from; t <= here; ++t) starts(t) = std::uint64_t(j);
      });
  const auto at = strix::to_host(space, starts);
  std::vector<std::pair<std::uint64_t, std::uint64_t>> runs;  // [offset, offset + length) of own
  std::vector<unsigned> run_ids;
  for (unsigned t = 0; t < runs_of.count; ++t) {
    if (at(t + 1) == at(t)) continue;
    runs.emplace_back(at(t), at(t + 1) - at(t));
    run_ids.push_back(t);
  }

  // 2. The sample by rank, each other class by its symbols up to the next sample position and
  // that position's rank.
  timer.begin(phases.sort);
  for (std::size_t t = 0; t < runs.size(); ++t) {
    const auto [offset, len] = runs[t];
    const index part(own.data() + offset, len);
    if (run_ids[t] == runs_of.sample) {
      const auto unit = rank;
      std::uint64_t lowest = 0, highest = 0;
      Kokkos::parallel_reduce(
          "strix::cover_sample_lowest", policy(space, 0, std::int64_t(len)),
          KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& lo) {
            const std::uint64_t r = unit(std::uint64_t(part(j)));  // rank + 1
            if (r < lo) lo = r;
          },
          Kokkos::Min<std::uint64_t>(lowest));
      Kokkos::parallel_reduce(
          "strix::cover_sample_highest", policy(space, 0, std::int64_t(len)),
          KOKKOS_LAMBDA(const std::int64_t j, std::uint64_t& hi) {
            const std::uint64_t r = unit(std::uint64_t(part(j)));
            if (r > hi) hi = r;
          },
          Kokkos::Max<std::uint64_t>(highest));
      STRIX_REQUIRE(highest - lowest + 1 == len);  // a piece is a range of the order
      const index out(merge_buf.data(), len);
      Kokkos::parallel_for(
          "strix::cover_sample_order", policy(space, 0, std::int64_t(len)),
          KOKKOS_LAMBDA(const std::int64_t j) { out(unit(std::uint64_t(part(j))) - lowest) = part(j); });
      strix::copy(space, part, out);
      continue;
    }
    if (len < 2) continue;
    sort_class(space, ws, cover, sym, rank, m, runs_of.class_of[run_ids[t]], part, wide(keys.data(), len),
               wide(keys.data() + m0, len), index(merge_buf.data(), len));
  }

  // 3. The runs merged.
  timer.begin(phases.merge);
  merge_sorted_runs(space, sym, rank, runs, own, merge_buf, keys);
}

}  // namespace strix::detail
