// SPDX-License-Identifier: BSD-3-Clause
// Inverse BWT on the host (see strix/bwt/bwt.hpp).
#include <strix/bwt/inverse_bwt.hpp>

#include <strix/error.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace strix {

std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n,
                                             std::uint64_t primary) {
  std::vector<std::uint8_t> text(n);
  if (n == 0) return text;
  STRIX_USER_REQUIRE(primary >= 1 && primary <= n,
                     "inverse_bwt: primary index " + std::to_string(primary) +
                         " is outside 1.." + std::to_string(n));
  // Row i of the full BWT (n + 1 rows): the sentinel sits in row `primary`.
  auto symbol = [&](std::uint64_t row) -> int {
    return row == primary ? -1 : bwt[row < primary ? row : row - 1];
  };
  std::uint64_t first[257] = {0};  // first row of each symbol; row 0 is the sentinel's
  for (std::uint64_t i = 0; i < n; ++i) ++first[bwt[i] + 1];
  first[0] = 1;
  for (int c = 1; c <= 256; ++c) first[c] += first[c - 1];
  // LF[row] = first row of symbol + rank of this occurrence.
  std::vector<std::uint64_t> lf(n + 1);
  std::uint64_t seen[256] = {0};
  for (std::uint64_t row = 0; row <= n; ++row) {
    const int c = symbol(row);
    lf[row] = c < 0 ? 0 : first[c] + seen[c]++;
  }
  // Row 0 is the suffix "$": its BWT symbol is T[n-1]; walk backwards.
  std::uint64_t row = 0;
  for (std::uint64_t k = n; k-- > 0;) {
    const int c = symbol(row);
    STRIX_USER_REQUIRE(c >= 0, "inverse_bwt: inconsistent BWT and primary index");
    text[k] = static_cast<std::uint8_t>(c);
    row = lf[row];
  }
  return text;
}

}  // namespace strix
