// SPDX-License-Identifier: BSD-3-Clause
// The BWT from a finished suffix array on host threads (see bwt_gather.hpp).
#include "bwt_gather.hpp"

#include "thread_parts.hpp"

#include <algorithm>
#include <cstdint>


namespace strix::backend::host {

// (Named: libstrix's unity build puts this file beside the other host sources.)
namespace bwt_passes {

// How far ahead of the scan the text is prefetched (entries).
constexpr std::uint64_t prefetch_ahead = 64;

template <class I>
std::uint64_t find_row(const I* sa, std::uint64_t n, int threads) {
  const std::uint64_t row = thread_parts::first_found(0, n, threads, [&](std::uint64_t b, std::uint64_t e) {
    const I* zero = std::find(sa + b, sa + e, I(0));
    return zero == sa + e ? thread_parts::nowhere : static_cast<std::uint64_t>(zero - sa);
  });
  return row == thread_parts::nowhere ? n : row;
}

template <class I>
void gather(const std::uint8_t* text, const I* sa, std::uint8_t* out, std::uint64_t n, std::uint64_t row,
            int threads) {
  thread_parts::in_parts(n, threads, [&](std::uint64_t b, std::uint64_t e) {
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
    thread_parts::scan_prefetched<prefetch_ahead>(
        b, e,
        [&](std::uint64_t r) {
          const I ahead = sa[r];
          __builtin_prefetch(text + ahead - (ahead != 0), 0, 0);
        },
        step);
  });
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
