// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// libdivsufsort behind a thin host adapter (no libdivsufsort header here): the suffix array
// of n bytes of host memory into n host entries. Compiled into libstrix when the build finds
// libdivsufsort (STRIX_HAS_DIVSUFSORT in strix/config.hpp).
#include <cstddef>
#include <cstdint>

namespace strix::backend::host {

// Extra host bytes a call takes beyond the text and the suffix array.
std::size_t divsufsort_scratch_bytes(std::uint64_t n, int index_bytes);
// Throws strix::error (host_out_of_memory, or internal when libdivsufsort fails).
void divsufsort_suffix_array(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n);
void divsufsort_suffix_array(const std::uint8_t* text, std::uint64_t* sa, std::uint64_t n);
// divbwt: the BWT in its layout into out[0, n) with `workspace` (n entries) for its suffix
// array; false, having done nothing, when 32-bit entries cannot serve n (n >= 2^31).
bool divsufsort_bwt(const std::uint8_t* text, std::uint32_t* workspace, std::uint8_t* out, std::uint64_t n,
                    std::uint64_t& primary);
bool divsufsort_bwt(const std::uint8_t* text, std::uint64_t* workspace, std::uint8_t* out, std::uint64_t n,
                    std::uint64_t& primary);

}  // namespace strix::backend::host
