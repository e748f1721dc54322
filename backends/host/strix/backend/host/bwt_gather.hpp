// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The BWT from a finished suffix array on host threads, in divbwt's layout (out[0] is the last
// text byte, then the symbol before each suffix but suffix 0 in suffix-array order): a scan of
// the suffix array with the text read ahead of it, since every entry reads the text at an
// unrelated place. The portable Kokkos version (src/strix/bwt/detail/bwt_def.hpp) runs where
// this does not: GPUs, and host builds with STRIX_VENDOR_PRIMITIVES=OFF. Plain C++ with
// OpenMP pragmas, compiled once into libstrix.
#include <cstdint>

namespace strix::backend::host {

// The row of suffix 0 in sa[0, n), or n when there is none.
std::uint64_t row_of_suffix_zero(const std::uint32_t* sa, std::uint64_t n, int threads);
std::uint64_t row_of_suffix_zero(const std::uint64_t* sa, std::uint64_t n, int threads);

// out[0] = text[n - 1]; out[r + 1] = text[sa[r] - 1] for r < row, out[r] = text[sa[r] - 1] for
// r > row, where row = row_of_suffix_zero(sa, n) < n.
void bwt_from_suffix_array(const std::uint8_t* text, const std::uint32_t* sa, std::uint8_t* out, std::uint64_t n,
                           std::uint64_t row, int threads);
void bwt_from_suffix_array(const std::uint8_t* text, const std::uint64_t* sa, std::uint8_t* out, std::uint64_t n,
                           std::uint64_t row, int threads);

}  // namespace strix::backend::host
