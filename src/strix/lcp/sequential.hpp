// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Sequential LCP array (the Phi algorithm of Kaerkkaeinen, Manzini and Puglisi, CPM 2009):
// the one-thread CPU reference the benchmarks compare the Kokkos version with.
#include <cstdint>
#include <vector>

namespace strix::sequential {

// lcp[0] = 0, lcp[r] = lcp(T[sa[r-1]..], T[sa[r]..]); all arrays have n entries.
template <class I>
void lcp_array(const std::uint8_t* text, const I* sa, std::uint64_t n, I* lcp) {
  if (n == 0) return;
  const I none = static_cast<I>(n);
  I* phi = lcp;  // Phi lives in the output until PLCP is complete
  phi[sa[0]] = none;
  for (std::uint64_t r = 1; r < n; ++r) phi[sa[r]] = sa[r - 1];
  std::vector<I> plcp(n);
  std::uint64_t l = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    const I j = phi[i];
    if (j == none) {
      plcp[i] = 0;
      l = 0;
      continue;
    }
    while (i + l < n && j + l < n && text[i + l] == text[j + l]) ++l;
    plcp[i] = static_cast<I>(l);
    if (l > 0) --l;
  }
  for (std::uint64_t r = 0; r < n; ++r) lcp[r] = plcp[sa[r]];
}

}  // namespace strix::sequential
