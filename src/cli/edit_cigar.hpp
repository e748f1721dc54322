// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The alignment behind an edit-distance hit, as a SAM CIGAR: the whole read against the text
// that starts at the hit's position (its end free), by a DP in a band of k diagonals each side.
#include <cstdint>
#include <string>

namespace strix::cli {

struct edit_alignment {
  std::string cigar;  // M (match or substitution), I (read symbol not in the text), D (text symbol skipped)
  int distance = 0;   // the edits (SAM's NM)
};

// `read` (m symbols) aligned to a prefix of `text` (w symbols, the text from the hit's start,
// clipped at its sequence's end) with at most k edits; distance k + 1 and an empty CIGAR
// when there is no such alignment. Of the best alignments, the one that keeps the read's
// symbols on the diagonal longest from its end (matches first, then insertions).
edit_alignment align_edit(const std::uint8_t* read, std::size_t m, const std::uint8_t* text, std::size_t w, int k);

}  // namespace strix::cli
