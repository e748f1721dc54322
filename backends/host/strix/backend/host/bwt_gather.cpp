// SPDX-License-Identifier: BSD-3-Clause
// The BWT from a finished suffix array on host threads (see bwt_gather.hpp).
#include "bwt_gather.hpp"

#include <algorithm>
#include <cstdint>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace strix::backend::host {

// (Named: libstrix's unity build puts this file beside the other host sources.)
namespace bwt_passes {

// How far ahead of the scan the text is prefetched (entries).
constexpr std::uint64_t prefetch_ahead = 64;
// Below this, passes run on one thread: starting a team costs more than it saves.
constexpr std::uint64_t parallel_min_length = std::uint64_t(1) << 16;

int team_size(std::uint64_t n, int threads) { return n < parallel_min_length || threads < 1 ? 1 : threads; }

std::uint64_t part_begin(std::uint64_t n, int parts, int p) {
  const std::uint64_t q = n / unsigned(parts), r = n % unsigned(parts);
  return q * unsigned(p) + std::min<std::uint64_t>(unsigned(p), r);
}

template <class I>
std::uint64_t find_row(const I* sa, std::uint64_t n, int threads) {
  const int parts = team_size(n, threads);
  std::uint64_t row = n;
#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(min : row) if (parts > 1)
  for (int p = 0; p < parts; ++p) {
    const std::uint64_t e = part_begin(n, parts, p + 1);
    for (std::uint64_t r = part_begin(n, parts, p); r < e; ++r)
      if (sa[r] == 0) {
        row = std::min(row, r);
        break;
      }
  }
  return row;
}

template <class I>
void gather(const std::uint8_t* text, const I* sa, std::uint8_t* out, std::uint64_t n, std::uint64_t row,
            int threads) {
  const int parts = team_size(n, threads);
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
  for (int p = 0; p < parts; ++p) {
    const std::uint64_t b = part_begin(n, parts, p), e = part_begin(n, parts, p + 1);
    // Entries before the row go one place right (out[0] holds the last byte); the row's own
    // entry is suffix 0, which has no symbol before it.
    const auto step = [&](std::uint64_t r) {
      const I s = sa[r];
      if (r < row) {
        out[r + 1] = text[s - 1];
      } else if (r > row) {
        out[r] = text[s - 1];
      } else {
        out[0] = text[n - 1];
      }
    };
    const std::uint64_t split = e - b > prefetch_ahead ? e - prefetch_ahead : b;
    std::uint64_t r = b;
    for (; r < split; ++r) {
      const I ahead = sa[r + prefetch_ahead];
      __builtin_prefetch(text + ahead - (ahead != 0), 0, 0);
      step(r);
    }
    for (; r < e; ++r) step(r);
  }
}

}  // namespace bwt_passes

std::uint64_t row_of_suffix_zero(const std::uint32_t* sa, std::uint64_t n, int threads) {
  return bwt_passes::find_row(sa, n, threads);
}
std::uint64_t row_of_suffix_zero(const std::uint64_t* sa, std::uint64_t n, int threads) {
  return bwt_passes::find_row(sa, n, threads);
}
void bwt_from_suffix_array(const std::uint8_t* text, const std::uint32_t* sa, std::uint8_t* out, std::uint64_t n,
                           std::uint64_t row, int threads) {
  bwt_passes::gather(text, sa, out, n, row, threads);
}
void bwt_from_suffix_array(const std::uint8_t* text, const std::uint64_t* sa, std::uint8_t* out, std::uint64_t n,
                           std::uint64_t row, int threads) {
  bwt_passes::gather(text, sa, out, n, row, threads);
}

}  // namespace strix::backend::host
