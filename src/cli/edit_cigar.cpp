// SPDX-License-Identifier: BSD-3-Clause
// Banded edit-distance alignment for CIGARs (edit_cigar.hpp).
#include "edit_cigar.hpp"

#include <algorithm>
#include <vector>

namespace strix::cli {

edit_alignment align_edit(const std::uint8_t* read, std::size_t m, const std::uint8_t* text, std::size_t w, int k) {
  edit_alignment a;
  a.distance = k + 1;
  const int band = 2 * k + 1;
  const int far = k + 1;  // a cost beyond any alignment kept
  // cost[i * band + (j - i + k)]: read[0, i) against text[0, j), for |j - i| <= k.
  std::vector<int> cost((m + 1) * std::size_t(band), far);
  const auto at = [&](std::size_t i, std::size_t j) -> int& { return cost[i * band + (j + k - i)]; };
  const auto inside = [&](std::size_t i, std::size_t j) { return j + k >= i && j <= i + std::size_t(k) && j <= w; };
  for (std::size_t j = 0; j <= std::min<std::size_t>(w, k); ++j) at(0, j) = int(j);
  for (std::size_t i = 1; i <= m; ++i) {
    const std::size_t lo = i > std::size_t(k) ? i - k : 0, hi = std::min(w, i + k);
    for (std::size_t j = lo; j <= hi; ++j) {
      int best = inside(i - 1, j) ? at(i - 1, j) + 1 : far;  // read symbol inserted
      if (j > 0) {
        if (inside(i, j - 1)) best = std::min(best, at(i, j - 1) + 1);  // text symbol deleted
        if (inside(i - 1, j - 1)) best = std::min(best, at(i - 1, j - 1) + (read[i - 1] != text[j - 1]));
      }
      at(i, j) = std::min(best, far);
    }
  }
  // The best end in the text, the one nearest the diagonal on ties.
  std::size_t end = w + 1;
  for (std::size_t j = m > std::size_t(k) ? m - k : 0; j <= std::min(w, m + k); ++j) {
    const auto off = [&](std::size_t x) { return x > m ? x - m : m - x; };
    if (at(m, j) <= k && (end > w || at(m, j) < at(m, end) || (at(m, j) == at(m, end) && off(j) < off(end)))) end = j;
  }
  if (end > w) return a;
  a.distance = at(m, end);
  // Back from (m, end): the diagonal first, then an insertion, then a deletion.
  std::string ops;
  std::size_t i = m, j = end;
  while (i > 0 || j > 0) {
    const int here = at(i, j);
    if (i > 0 && j > 0 && inside(i - 1, j - 1) && here == at(i - 1, j - 1) + (read[i - 1] != text[j - 1])) {
      ops += 'M';
      --i;
      --j;
    } else if (i > 0 && inside(i - 1, j) && here == at(i - 1, j) + 1) {
      ops += 'I';
      --i;
    } else {
      ops += 'D';
      --j;
    }
  }
  std::reverse(ops.begin(), ops.end());
  for (std::size_t p = 0; p < ops.size();) {
    std::size_t q = p;
    while (q < ops.size() && ops[q] == ops[p]) ++q;
    a.cigar += std::to_string(q - p) + ops[p];
    p = q;
  }
  return a;
}

}  // namespace strix::cli
