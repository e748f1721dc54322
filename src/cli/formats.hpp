// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's file formats, one reader and one writer each (see the README):
// texts, index arrays (suffix and LCP arrays: raw little-endian integers of the index
// width), BWTs (raw bytes) and longest-repeat records (binary or TSV).
#include <cstdint>
#include <string>
#include <vector>

#include "features/index_job.hpp"
#include "files.hpp"
#include "session.hpp"

namespace strix::cli {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "strix writes little-endian files");

// Index width for n symbols: `requested` (32 or 64), or with 0 the narrowest that holds n
// (strix::index_width_for); `what` names them in the error ("an input of N bytes").
int choose_width(std::uint64_t n, int requested, const std::string& what);
int choose_width(std::uint64_t n, int requested);  // what: "an input of n bytes"
// Width of a suffix array file for a text of n bytes, from its size (0 when both are
// empty); throws when the size fits neither width.
int suffix_array_file_width(std::uint64_t n, const input_file& sa);
// --width, else the suffix array file's (if any), else choose_width's; they must agree.
int resolve_width(std::uint64_t n, int requested, const input_file* sa);

// A whole text, into the session's staging memory.
host_buffer read_text(session& s, input_file& text);
// A suffix array of n entries of the session's width, into its staging memory.
host_buffer read_index_array(session& s, input_file& sa, std::uint64_t n);
// A whole input into ordinary host memory (inputs of host-only commands).
std::vector<std::uint8_t> read_bytes(input_file& in);

void write_index_array(atomic_output& out, const host_buffer& array);
void write_bytes(atomic_output& out, const std::uint8_t* data, std::size_t n);

// Longest repeats of n positions as records (start, length) of `width` bits: leftmost (one
// record each) or all (n + 1 uint64 offsets, then the records); binary or TSV.
void write_repeats(atomic_output& out, const repeats_result& r, std::uint64_t n, int width, bool all,
                   bool tsv);

}  // namespace strix::cli
