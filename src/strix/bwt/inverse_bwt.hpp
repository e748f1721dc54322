// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Inverse of the BWT in libdivsufsort's divbwt layout (see strix/bwt/bwt.hpp), on the host.
#include <cstdint>
#include <vector>

namespace strix {

// Rebuilds the text from a BWT of n bytes and its primary index (O(n)), on `threads` host
// threads (0: OpenMP's default; one in builds without OpenMP). The text is the same whatever
// the thread count. Throws strix::error(invalid_input) when the primary index is out of range
// or the BWT and the primary index are inconsistent. Memory: about 6n bytes besides the BWT
// (4n for the LF entries, 8n from 2^31 bytes on).
std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, int threads);
std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary);

namespace detail {
// inverse_bwt with the 8-byte entries of BWTs of 2^31 rows and more, whatever n (for tests).
std::vector<std::uint8_t> inverse_bwt_wide(const std::uint8_t* bwt, std::uint64_t n, std::uint64_t primary, int threads);
}  // namespace detail

}  // namespace strix
