// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Search schemes (Kucherov, Salikhov and Tsur 2016) for lossless approximate search: a read is
// cut into `pieces` parts; a search visits them in `order` (each prefix of the order a run of
// adjacent pieces, so a bidirectional index can extend it on either side) and, after its
// i-th piece, allows between lower[i] and upper[i] errors in all the pieces visited so far.
// A scheme is lossless for k errors when every way of spreading at most k errors over the
// pieces meets the bounds of at least one of its searches: then every occurrence within k
// errors (Hamming or edit: an alignment's edits fall in the read's pieces) is found by one.
// The schemes are data: the published ones and two generated families, checked by
// enumeration (`uncovered`) rather than trusted.
#include <optional>
#include <string>
#include <vector>

namespace strix::approximate {

struct search {
  std::vector<int> order;  // pieces, 0-based, in the order the search visits them
  std::vector<int> lower;  // cumulative errors allowed after each visited piece: at least
  std::vector<int> upper;  // ... and at most
};

struct search_scheme {
  std::string name;
  int max_errors = 0;
  int pieces = 1;
  std::vector<search> searches;
};

// Empty when the scheme is well formed (orders are permutations whose prefixes are runs of
// adjacent pieces, bounds non-decreasing, lower <= upper <= max_errors); else what is wrong.
std::string check_well_formed(const search_scheme& scheme);

// Whether `errors` (errors per piece, by piece) meets every bound of `s`.
bool covers(const search& s, const std::vector<int>& errors);

// The first spread of at most max_errors errors over the pieces that no search covers;
// nothing when the scheme is lossless.
std::optional<std::vector<int>> uncovered(const search_scheme& scheme);

// k + 1 pieces, one search a piece: the piece exact, then k errors anywhere (the pigeonhole
// principle: some piece is exact). Any k.
search_scheme pigeonhole_scheme(int k);

// k + 2 pieces, a search for each pair of pieces i < j: both exact and exactly one error in
// each piece between them, then any (Vroland et al. 2016, "01*0 seeds": such a pair always
// exists). Any k; tighter bounds, more searches.
search_scheme zero_one_zero_scheme(int k);

// Kucherov, Salikhov and Tsur's schemes for k = 1 (2 pieces) and k = 2 (3 pieces).
search_scheme kucherov_scheme(int k);

// Kianfar et al.'s optimum schemes for k = 1 to 4 (k + 1 pieces, three searches from k = 2).
search_scheme kianfar_scheme(int k);

// A scheme by name for k errors: default, kucherov (k = 1, 2), kianfar (k = 1..4), 01*0 or
// pigeonhole (any k); std::invalid_argument naming the choices otherwise.
search_scheme scheme_named(const std::string& name, int k);

// The scheme approximate search uses for k errors.
search_scheme default_scheme(int k);

// (Where each piece of a read starts: piece_start in bidirectional_ref.hpp, for device code.)

}  // namespace strix::approximate
