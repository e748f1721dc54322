// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// One length limit for every structure indexed by I (suffix, inverse suffix and LCP arrays,
// BWT, wavelet trees and matrices, text_index), and the index width the tool picks from it.
// No Kokkos: the tool's plain-C++ parts use it too.
#include <cstdint>
#include <limits>
#include <string>

#include <strix/config.hpp>
#include <strix/error.hpp>

namespace strix {

// The most symbols a structure with index type I holds: every position and the length
// itself fit I, and I's largest value stays free for "none" (the checker's unset entries,
// a select that finds nothing).
template <class I>
constexpr std::uint64_t max_length() {
  return std::uint64_t(std::numeric_limits<I>::max()) - 1;
}

// invalid_input unless n symbols fit I. `what` names them, e.g. "text of 5000000000 bytes".
template <class I>
void check_length(std::uint64_t n, const std::string& what) {
  STRIX_USER_REQUIRE(n <= max_length<I>(), what + " is too long for " + std::to_string(8 * sizeof(I)) +
                                               "-bit indexes (at most " + std::to_string(max_length<I>()) + ")");
}

// The most symbols a structure holds on a GPU. Kokkos before 4.6 computes a CUDA parallel_for's
// grid stride and first items in 32 bits, so ranges of about 2^32 items or more never end or
// skip items (kokkos/kokkos#7892), and Kokkos 3.x sizes a parallel_scan's grid in int (2^31).
// scripts/bootstrap-kokkos.sh's Kokkos carries both fixes (its patches 08 and 09); against
// another Kokkos before 4.6 (STRIX_CUDA_WIDE_RANGES 0) texts stay below 2^31 bytes on a GPU.
constexpr std::uint64_t max_device_length() {
  return STRIX_CUDA_WIDE_RANGES ? std::numeric_limits<std::uint64_t>::max() : (std::uint64_t(1) << 31) - (1u << 20);
}

// invalid_input unless a GPU of this build runs n symbols (see max_device_length).
inline void check_device_length(std::uint64_t n, const std::string& what) {
  STRIX_USER_REQUIRE(n <= max_device_length(),
                     what + " is too long for a GPU with this strix's Kokkos (at most " +
                         std::to_string(max_device_length()) +
                         " on CUDA before Kokkos 4.6, kokkos/kokkos#7892): build strix against Kokkos 4.6 or later, "
                         "or scripts/bootstrap-kokkos.sh's patched Kokkos");
}

// The narrower index width that holds n symbols: 32 or 64 (bits).
constexpr int index_width_for(std::uint64_t n) { return n <= max_length<std::uint32_t>() ? 32 : 64; }

}  // namespace strix
