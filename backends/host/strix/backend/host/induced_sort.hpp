// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Suffix arrays by induced sorting (SA-IS, Nong, Zhang and Chan 2009), tuned for host
// memory: the working set is the text, the suffix array and small bucket tables; the
// reduced problems of the recursion live inside the suffix array itself (and their bucket
// tables too when the free part of it holds them). The scans prefetch the text ahead of the
// suffix array and mark in each entry whether the next scan acts on it, so that each reads
// the text only for the entries it acts on; the first level's stage 1 also names the LMS
// substrings as it sorts them; with `threads` > 1 OpenMP threads they run a
// block at a time (the threads read the text, one induces), and the LMS walks and the
// naming run in parallel parts.
// Plain C++: compiled once into libstrix, for every host execution space.
#include <cstddef>
#include <cstdint>

namespace strix::backend::host {

// Host bytes a call may take beyond the text and the suffix array, at most, whatever the
// text (recursion levels whose bucket table does not fit in the suffix array's free part
// allocate it).
std::size_t induced_scratch_bytes(std::uint64_t n, int index_bytes);

// The suffix array of text[0, n) into sa[0, n). 32-bit entries serve n < 2^32. Returns the
// bytes it allocated beyond the text and the suffix array, at most at any one time (small
// tables, and the bucket tables of reduced levels that did not fit in the suffix array).
// Throws strix::error (host_out_of_memory; invalid_input when n does not fit the entries).
std::size_t induced_suffix_array(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n, int threads);
std::size_t induced_suffix_array(const std::uint8_t* text, std::uint64_t* sa, std::uint64_t n, int threads);

// The BWT of text[0, n) in libdivsufsort's divbwt layout (strix/bwt/bwt.hpp) into out[0, n),
// made by the same construction with `workspace` (n entries) in the suffix array's place: the
// last scans store each row's symbol as they induce the row's suffix, so that no pass over a
// finished suffix array follows. Leaves workspace undefined. Returns the primary index (0
// for n == 0); `scratch` (if not null) receives what induced_suffix_array returns.
std::uint64_t induced_bwt(const std::uint8_t* text, std::uint32_t* workspace, std::uint8_t* out, std::uint64_t n,
                          int threads, std::size_t* scratch = nullptr);
std::uint64_t induced_bwt(const std::uint8_t* text, std::uint64_t* workspace, std::uint8_t* out, std::uint64_t n,
                          int threads, std::size_t* scratch = nullptr);

namespace detail {
// The first level's scans: `named` (stage 1 names the LMS substrings as it sorts them; the
// default, on 32-bit entries for n < 2^30), `marked` (names by comparing neighbours; 32-bit
// entries of 2^30 <= n < 2^31), `unmarked` (32-bit entries of n >= 2^31).
enum class first_level_scans { named, marked, unmarked };
// induced_suffix_array with the first level's scans chosen (at most what n allows): for
// tests, which reach all three on small texts this way.
std::size_t induced_suffix_array_with(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n, int threads,
                                      first_level_scans scans);
// induced_bwt likewise (unmarked: the BWT is gathered from the suffix array after).
std::uint64_t induced_bwt_with(const std::uint8_t* text, std::uint32_t* workspace, std::uint8_t* out, std::uint64_t n,
                               int threads, first_level_scans scans, std::size_t* scratch = nullptr);
}  // namespace detail

}  // namespace strix::backend::host
