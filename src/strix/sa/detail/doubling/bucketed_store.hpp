// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// dst(targets(i)) = values(i) for every i, with the pairs first grouped by the targets' top
// bits (one pass of the radix sort) so that the stores of each group fall into one window of
// dst small enough for the GPU's L2. Stored in random order into an array far larger than L2,
// each 4-byte store costs a DRAM sector (the ranks' store in the first round of prefix doubling:
// 40 M of them on English, about 3 ms, the largest phase of the construction); grouped, a
// sector gathers its eight stores in L2 before it is written back, and the grouping itself
// moves the pairs twice at full bandwidth.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>

#include <strix/core/bits.hpp>
#include <strix/core/device_view.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/vendor.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::detail {

// Worth it where dst is much larger than L2 (50–60 MB on Hopper) and the stores are many: a
// smaller dst stays in L2 anyway, and a few stores do not pay for the grouping's launches.
// Host caches take random stores well (and the host sort would cost more than it saves); a
// device without its vendor's radix sort (STRIX_VENDOR_PRIMITIVES=OFF) would pay the portable
// sort's many passes.
// `dense`: the caller's own rule (prefix doubling: at least half the suffixes active).
// STRIX_RANK_STORE=bucketed|direct overrides the choice: tests take the bucketed path on
// small texts and host spaces, and a benchmark can time both in one build.
template <class ExecSpace>
bool bucketed_store_pays(std::size_t dst_bytes, std::size_t count, bool dense = true) {
  if (const char* mode = std::getenv("STRIX_RANK_STORE")) {
    if (std::strcmp(mode, "bucketed") == 0) return count > 0;
    if (std::strcmp(mode, "direct") == 0) return false;
  }
  return !is_host_space_v<ExecSpace> && primitives::vendor_available_v<primitives::primitive::radix_sort, ExecSpace> &&
         dense && dst_bytes > (std::size_t(32) << 20) &&
         count >= (std::size_t(1) << 20);
}

// targets, values: count pairs (both may be overwritten: they are the sort's first buffers);
// targets_alt, values_alt: count entries of scratch. Every target < dst.extent(0).
template <class ExecSpace, class I>
void bucketed_store(const ExecSpace& space, primitives::workspace<ExecSpace>& ws, const device_view<I, ExecSpace>& dst,
                    device_view<I, ExecSpace> targets, device_view<I, ExecSpace> values,
                    device_view<I, ExecSpace> targets_alt, device_view<I, ExecSpace> values_alt) {
  const std::size_t count = targets.extent(0);
  if (count == 0) return;
  // 256 groups (one 8-bit digit: one pass of the sort): English's 160 MB of ranks in windows
  // of 625 KB, a 1 GiB rank array in windows of 4 MiB.
  const int top = std::max(1, bits_for(static_cast<std::uint64_t>(dst.extent(0) - 1)));
  const int digit = std::min(8, top);
  if (primitives::radix_sort_pairs(space, ws, targets, targets_alt, values, values_alt, top - digit, top)) {
    std::swap(targets, targets_alt);
    std::swap(values, values_alt);
  }
  Kokkos::parallel_for(
      "strix::bucketed_store", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, count),
      KOKKOS_LAMBDA(const std::int64_t i) { dst(targets(i)) = values(i); });
}

}  // namespace strix::detail
