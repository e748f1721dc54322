// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The suffix-array construction algorithms and their options. Plain C++ (no Kokkos), so
// that a command-line parser can name and check them without seeing the library.
#include <cstdint>
#include <string>
#include <vector>

#include <strix/error.hpp>

namespace strix {

enum class sa_algorithm {
  automatic,         // "auto": picked per backend, index width and text length (see --stats)
  prefix_doubling,   // radix-sorted prefix doubling, singleton groups dropped each round
  larsson_sadakane,  // GPU-LS: groups sorted by size class (team sort / segmented / device-wide)
  skew,              // DC3 (Kärkkäinen-Sanders), recursive, merged with merge path
  hybrid,            // DC3's sample sorted by prefix doubling, no recursion
  dcx,               // the hybrid over a difference cover of period sa_options::dcx_period
  divsufsort,        // libdivsufsort behind a host adapter (host backends only)
  sais,              // induced sorting (SA-IS) tuned for host memory, ~5n bytes (host backends only)
};

struct sa_options {
  sa_algorithm algorithm = sa_algorithm::automatic;
  // dcx: the period X of the difference cover (the sample holds |D|/X of the suffixes).
  unsigned dcx_period = 7;
  // hybrid, dcx: the most suffixes their merge orders at once (in pieces of the suffix order,
  // one after the other). 0: as many as the memory the sample's ranking leaves free holds, about
  // n/2 suffixes at X = 7 and n/4 at X = 21 with 32-bit entries, so that the merge adds no
  // memory (issue 64: dc21 in about 13n bytes). Smaller values cost a pass over the text each.
  std::uint64_t dc_piece_rows = 0;
  // larsson_sadakane: groups of at most ls_small_group suffixes are sorted by one team in
  // scratch memory, those of at most ls_medium_group by a segmented sort, larger ones by
  // a device-wide radix sort (the paper's R1 and R2; its R1 = 256 on a Fermi GPU, 1024
  // here: fastest of 64..1024 on an H100, where a block merge sort of 1024 pairs in shared
  // memory beats the segmented sort; bench/sa_ls_tune.cpp). R1 <= 2048, R2 >= R1.
  std::uint32_t ls_small_group = 1024;
  std::uint32_t ls_medium_group = 65536;
};

inline const char* to_string(sa_algorithm a) {
  switch (a) {
    case sa_algorithm::automatic: return "auto";
    case sa_algorithm::prefix_doubling: return "prefix-doubling";
    case sa_algorithm::larsson_sadakane: return "larsson-sadakane";
    case sa_algorithm::skew: return "skew";
    case sa_algorithm::hybrid: return "hybrid";
    case sa_algorithm::dcx: return "dcx";
    case sa_algorithm::divsufsort: return "divsufsort";
    case sa_algorithm::sais: return "sais";
  }
  return "unknown";
}

// The name of a configured algorithm as the tool shows it: "dc13" for dcx of period 13.
inline std::string algorithm_name(const sa_options& o) {
  if (o.algorithm == sa_algorithm::dcx) return "dc" + std::to_string(o.dcx_period);
  return to_string(o.algorithm);
}

// The names parse_sa_options accepts ("dcN" stands for every supported period N).
inline std::vector<std::string> sa_algorithm_names() {
  return {"auto", "prefix-doubling", "larsson-sadakane", "skew", "hybrid", "dcx", "dcN", "divsufsort", "sais"};
}

// "auto", "prefix-doubling", ..., "dcx" (period 7) or "dc7" / "dc13" / ...; the period's
// support is checked when the algorithm is made. Anything else is an invalid_input error.
inline sa_options parse_sa_options(const std::string& name) {
  sa_options o;
  for (auto a : {sa_algorithm::automatic, sa_algorithm::prefix_doubling, sa_algorithm::larsson_sadakane,
                 sa_algorithm::skew, sa_algorithm::hybrid, sa_algorithm::dcx, sa_algorithm::divsufsort,
                 sa_algorithm::sais}) {
    if (name == to_string(a)) {
      o.algorithm = a;
      return o;
    }
  }
  if (name.size() > 2 && name.size() <= 6 && name.compare(0, 2, "dc") == 0 &&
      name.find_first_not_of("0123456789", 2) == std::string::npos) {
    o.algorithm = sa_algorithm::dcx;
    o.dcx_period = static_cast<unsigned>(std::stoul(name.substr(2)));
    return o;
  }
  std::string known;
  for (const auto& k : sa_algorithm_names()) known += (known.empty() ? "" : ", ") + k;
  throw error(error_code::invalid_input, "unknown suffix array algorithm '" + name + "' (known: " + known + ")");
}

}  // namespace strix
