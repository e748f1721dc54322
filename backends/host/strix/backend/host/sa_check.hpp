// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The linear-time suffix array check (see strix/sa/check.hpp) on host threads: two scans of
// the suffix array with random accesses, prefetched ahead, and two sequential ones; no atomic
// read-modify-writes.
//   1. every value in range, and isa[sa[i]] = i over a cleared isa (plain stores: with a
//      repeated value one of its rows wins the slot);
//   2. n values in range repeat one exactly when isa has a hole; only then are the rows read
//      again to find one whose slot another row won;
//   3. the order of every neighbour pair, from the text and isa.
// The portable Kokkos version (src/strix/sa/detail/check_def.hpp) runs where this does not:
// GPUs, and host builds with STRIX_VENDOR_PRIMITIVES=OFF. Plain C++ with OpenMP pragmas,
// compiled once into libstrix.
#include <cstdint>

namespace strix::backend::host {

enum class sa_check_problem { none, out_of_range, duplicate, out_of_order };

struct sa_check_finding {
  sa_check_problem problem = sa_check_problem::none;
  // out_of_range: the first row holding a value >= n. duplicate: a row holding a value another
  // row holds too, not the first of them (the second when a value is there twice; with three
  // or more, which one depends on the threads). out_of_order: the first row i whose suffix
  // does not follow row i - 1's.
  std::uint64_t row = 0;
};

// isa: n entries of scratch (the inverse suffix array when the check passes).
sa_check_finding check_suffix_array(const std::uint8_t* text, const std::uint32_t* sa, std::uint32_t* isa,
                                    std::uint64_t n, int threads);
sa_check_finding check_suffix_array(const std::uint8_t* text, const std::uint64_t* sa, std::uint64_t* isa,
                                    std::uint64_t n, int threads);

}  // namespace strix::backend::host
