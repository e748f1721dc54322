// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The record type of longest-repeat queries.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix {

// One occurrence T[start, start + length) of a repeat; length 0 means "none".
// Two fields of the index type and no padding: arrays of it are the CLI's binary format.
template <class I>
struct repeat {
  using index_type = I;
  I start;
  I length;

  KOKKOS_INLINE_FUNCTION friend bool operator==(const repeat& a, const repeat& b) {
    return a.start == b.start && a.length == b.length;
  }
  KOKKOS_INLINE_FUNCTION friend bool operator!=(const repeat& a, const repeat& b) {
    return !(a == b);
  }
};

// Results of all_longest_repeats: the records of position k are
// records(offsets(k)) .. records(offsets(k + 1) - 1); offsets has n + 1 entries.
template <class I, class MemorySpace>
struct all_repeats_result {
  Kokkos::View<std::uint64_t*, MemorySpace> offsets;
  Kokkos::View<repeat<I>*, MemorySpace> records;
};

// Longest-repeat search method (Tian and Xu): walk the raw LLR array leftwards, or
// binary-search the compact LLR array (useful LLRs only) and walk rightwards.
enum class repeat_method { raw, compact };

}  // namespace strix
