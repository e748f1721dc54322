#pragma once
// Burrows-Wheeler transform in libdivsufsort's divbwt layout, and its inverse.
//
// For the text T$ the BWT has n + 1 symbols, one of them the sentinel. Like divbwt,
// strix returns the n text symbols without the sentinel and the primary index p:
// out[0] = T[n-1]; the row of suffix 0 (SA[r] == 0) is left out; p = r + 1.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <strix/detail/view_checks.hpp>
#include <strix/error.hpp>

namespace strix {

// Writes the BWT of `text` given its suffix array `sa` into `out` (n bytes) and
// returns the primary index (0 for an empty text).
template <class ExecutionSpace, class TextView, class SAView, class OutView>
std::uint64_t bwt(const ExecutionSpace& space, const TextView& text, const SAView& sa,
                  const OutView& out) {
  detail::check_text_view<ExecutionSpace, TextView>();
  detail::check_index_view<ExecutionSpace, SAView>();
  detail::check_text_view<ExecutionSpace, OutView>();
  using policy = Kokkos::RangePolicy<ExecutionSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = text.extent(0);
  STRIX_USER_REQUIRE(sa.extent(0) == n && out.extent(0) == n,
                     "bwt: text, suffix array and output sizes differ");
  if (n == 0) return 0;
  std::uint64_t r = std::numeric_limits<std::uint64_t>::max();
  Kokkos::parallel_reduce(
      "strix::bwt_find_primary", policy(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, std::uint64_t& found) {
        if (sa(i) == 0 && std::uint64_t(i) < found) found = i;
      },
      Kokkos::Min<std::uint64_t>(r));
  STRIX_USER_REQUIRE(r < n, "bwt: the suffix array has no entry for suffix 0");
  Kokkos::parallel_for(
      "strix::bwt", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t s = sa(i);
        if (std::uint64_t(i) == r) {
          out(0) = text(n - 1);
        } else {
          out(std::uint64_t(i) < r ? i + 1 : i) = text(s - 1);
        }
      });
  return r + 1;
}

// Rebuilds the text from a divbwt-layout BWT and its primary index (host, O(n)).
inline std::vector<std::uint8_t> inverse_bwt(const std::uint8_t* bwt, std::uint64_t n,
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
