// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A reference of many sequences (a multi-FASTA file) as one text: the sequences joined by a
// separator byte, their names, and where each starts. No Kokkos here.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <strix/error.hpp>

namespace strix {

// The byte between the sequences of a reference ('\n': no FASTA sequence and no pattern
// line holds it).
constexpr std::uint8_t reference_separator = '\n';

struct reference_sequences {
  std::vector<std::string> names;
  std::vector<std::uint64_t> starts;  // sequence s is text[starts[s], starts[s] + lengths[s])
  std::vector<std::uint64_t> lengths;

  std::size_t size() const { return names.size(); }
  bool empty() const { return names.empty(); }

  // Appends a sequence to `text` (after a separator unless it is the first).
  void append(std::string name, const std::uint8_t* symbols, std::uint64_t length, std::vector<std::uint8_t>& text) {
    if (!names.empty()) text.push_back(reference_separator);
    names.push_back(std::move(name));
    starts.push_back(text.size());
    lengths.push_back(length);
    text.insert(text.end(), symbols, symbols + length);
  }

  // The sequence holding text position p and p's offset in it; a position on a separator
  // (or the end of the text) is the end of the sequence before it.
  std::pair<std::size_t, std::uint64_t> locate(std::uint64_t p) const {
    STRIX_USER_REQUIRE(!starts.empty(), "reference has no sequences");
    const auto after = std::upper_bound(starts.begin(), starts.end(), p);
    const std::size_t s = after == starts.begin() ? 0 : std::size_t(after - starts.begin()) - 1;
    return {s, p - starts[s]};
  }

  // The sequence called `name` (the first of that name).
  std::size_t find(const std::string& name) const {
    for (std::size_t s = 0; s < names.size(); ++s)
      if (names[s] == name) return s;
    throw error(error_code::invalid_input, "the reference has no sequence named '" + name + "'");
  }

  // Checks a reference read from a file against its text of n symbols.
  void check(std::uint64_t n) const {
    bool ok = starts.size() == names.size() && lengths.size() == names.size();
    std::uint64_t at = 0;
    for (std::size_t s = 0; ok && s < starts.size(); ++s) {
      ok = starts[s] == at && lengths[s] <= n - std::min(n, at) && at + lengths[s] <= n;
      at = starts[s] + lengths[s] + 1;
    }
    ok = ok && (starts.empty() || at - 1 == n);
    STRIX_USER_REQUIRE(ok, "index file is corrupt (the sequences do not tile the text)");
  }
};

}  // namespace strix
