// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A piece of a difference-cover construction put in suffix order once the sample is ranked: the
// suffixes of a contiguous range of the suffix order (a piece), given in any order, grouped into
// runs by residue (groups of classes outside the cover, see cover_runs, and the sample), the
// sample's run placed by rank (its ranks are contiguous: the piece is a range of the order), each
// group sorted by sort_from_offset, and the runs merged. The single-device constructions use it where their merge
// buffers hold only part of the text (pieces.hpp), the distributed one for each rank's range of
// keys (distributed/detail/cover_def.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <algorithm>
#include <bitset>
#include <utility>
#include <vector>

#include <strix/core/bits.hpp>
#include <strix/core/copy.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/sa/detail/difference_cover/induce_merge.hpp>

namespace strix::detail {

// Runs of a piece's order before the merge: the residues outside the cover in as few groups as
// possible, each group sorted as one run, then the sample's run (last: the pairwise merges then
// take the equal small runs first and the large sample once, at the end). A group is residues r
// that share an offset l with r + l in the cover (mod X): their suffixes are ordered by their
// first l symbols and then the rank at p + l, one radix sort for the group. (Any such l orders
// them, not only each residue's smallest; for X = 21 four groups of four residues take the 16
// classes, so the merge takes 3 levels instead of 5: the first two were the classes merged up to
// those groups.)
struct cover_runs {
  std::uint8_t of[32] = {};       // run of each residue
  unsigned offset_of[32] = {};    // the shared offset l of each run but the sample's
  unsigned count = 0, sample = 0;  // runs; the sample's
  explicit cover_runs(const difference_cover& cover) {
    const unsigned period = cover.period;
    std::uint32_t outside = 0;  // residues outside the cover
    for (unsigned r = 0; r < period; ++r)
      if (!cover.contains(r)) outside |= 1u << r;
    // Which residues outside the cover each offset serves.
    std::uint32_t serves[32] = {};
    for (unsigned l = 1; l < period; ++l)
      for (unsigned r = 0; r < period; ++r)
        if (((outside >> r) & 1u) && cover.contains((r + l) % period)) serves[l] |= 1u << r;
    // The fewest offsets that serve every residue (a search in order of the offsets; covers are
    // small), and of those the groups whose largest is smallest (the merge's runs alike), then
    // the largest offset smallest.
    // Each offset's group: the residues it serves that no earlier offset of the list took.
    const auto groups_of = [&](const std::vector<unsigned>& offsets) {
      std::vector<std::uint32_t> groups;
      std::uint32_t left = outside;
      for (const unsigned l : offsets) {
        groups.push_back(serves[l] & left);
        left &= ~serves[l];
      }
      return groups;
    };
    std::vector<unsigned> chosen, best;
    unsigned best_largest = period + 1;
    const auto search = [&](const auto& self, unsigned from, std::uint32_t left, unsigned depth) -> void {
      if (left == 0) {
        unsigned largest = 0;
        for (const std::uint32_t g : groups_of(chosen)) largest = std::max(largest, unsigned(std::bitset<32>(g).count()));
        // (then the smallest largest offset: fewer symbols to sort by)
        if (largest < best_largest || (largest == best_largest && chosen.back() < best.back()))
          best_largest = largest, best = chosen;
        return;
      }
      if (depth == 0) return;
      for (unsigned l = from; l < period; ++l) {
        if ((serves[l] & left) == 0) continue;
        chosen.push_back(l);
        self(self, l + 1, left & ~serves[l], depth - 1);
        chosen.pop_back();
      }
    };
    for (unsigned depth = 1; best.empty() && outside != 0; ++depth) search(search, 1, outside, depth);
    // (A fewest set has no offset whose group is empty: without it the rest would serve all.)
    const std::vector<std::uint32_t> groups = groups_of(best);
    for (std::size_t g = 0; g < groups.size(); ++g) {
      for (unsigned r = 0; r < period; ++r)
        if ((groups[g] >> r) & 1u) of[r] = std::uint8_t(count);
      offset_of[count++] = best[g];
    }
    sample = count++;
    for (unsigned r = 0; r < period; ++r)
      if (cover.contains(r)) of[r] = std::uint8_t(sample);
  }
};

// The phases order_piece reports, by name.
struct piece_phases {
  const char* group;  // the runs formed
  const char* sort;   // the sample placed, the groups of classes sorted
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

  // 2. The sample by rank, each group by its symbols up to its shared offset and the rank there.
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
    sort_from_offset(space, ws, sym, rank, m, runs_of.offset_of[run_ids[t]], part, wide(keys.data(), len),
                     wide(keys.data() + m0, len), index(merge_buf.data(), len));
  }

  // 3. The runs merged.
  timer.begin(phases.merge);
  merge_sorted_runs(space, sym, rank, runs, own, merge_buf, keys);
}

}  // namespace strix::detail
