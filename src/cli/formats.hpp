// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's file formats, one reader and one writer each (see the README):
// texts, index arrays (suffix and LCP arrays: raw little-endian integers of the index
// width), BWTs (raw bytes) and longest-repeat records (binary or TSV).
#include <cstdint>
#include <string>
#include <vector>

#include "engine.hpp"
#include "files.hpp"

namespace strix::cli {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "strix writes little-endian files");

constexpr std::uint64_t four_gib = 1ull << 32;

// Index width for a text of n bytes: `requested` (32, 64, or 0 for 32 when n < 2^32).
int choose_width(std::uint64_t n, int requested);
// Width of a suffix array file for a text of n bytes, from its size (0 when both are
// empty); throws when the size fits neither width.
int suffix_array_file_width(std::uint64_t n, const input_file& sa);
// --width, else the suffix array file's (if any), else 32 when n < 2^32; they must agree.
int resolve_width(std::uint64_t n, int requested, const input_file* sa);

// A whole text, into the engine's staging memory.
host_buffer read_text(engine& e, input_file& text);
// A suffix array of n entries of the engine's width, into its staging memory.
host_buffer read_index_array(engine& e, input_file& sa, std::uint64_t n);
// A whole input into ordinary host memory (inputs of host-only commands).
std::vector<std::uint8_t> read_bytes(input_file& in);

void write_index_array(atomic_output& out, const host_buffer& array);
void write_bytes(atomic_output& out, const std::uint8_t* data, std::size_t n);

// Longest repeats of n positions as records (start, length) of `width` bits: leftmost (one
// record each) or all (n + 1 uint64 offsets, then the records); binary or TSV.
void write_repeats(atomic_output& out, const repeats_result& r, std::uint64_t n, int width, bool all,
                   bool tsv);

}  // namespace strix::cli
