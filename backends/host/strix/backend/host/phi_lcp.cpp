// SPDX-License-Identifier: BSD-3-Clause
// The LCP array by the Phi method on host threads (see phi_lcp.hpp).
#include "phi_lcp.hpp"

#include "thread_parts.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace strix::backend::host {

// (Named: libstrix's unity build puts this file beside induced_sort.cpp.)
namespace lcp_passes {

using thread_parts::in_parts;
using thread_parts::scan_prefetched;

// How far ahead of a scan its random access is prefetched: enough entries to cover a memory
// latency at a few nanoseconds an entry. The PLCP scan's steps are longer and went fastest
// nearer (chrX, one thread: 0.94-0.96 s at 32 entries, 1.6-1.9 s at 64; the other two passes
// the same at 16 to 256).
constexpr std::uint64_t prefetch_ahead = 64;
constexpr std::uint64_t plcp_prefetch_ahead = 32;

// The length of the common prefix of text + i and text + j, known to be at least `from`
// and at most `bound`: 8 bytes a step where the machine is little-endian.
inline std::uint64_t match_length(const std::uint8_t* text, std::uint64_t i, std::uint64_t j, std::uint64_t from,
                                  std::uint64_t bound) {
  std::uint64_t l = from;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  while (l + 8 <= bound) {
    std::uint64_t a, b;
    std::memcpy(&a, text + i + l, 8);
    std::memcpy(&b, text + j + l, 8);
    if (a != b) return l + static_cast<std::uint64_t>(__builtin_ctzll(a ^ b) >> 3);
    l += 8;
  }
#endif
  while (l < bound && text[i + l] == text[j + l]) ++l;
  return l;
}

template <class I>
void phi_pass(const I* sa, I* phi, std::uint64_t n, int threads) {
  if (n == 0) return;
  phi[sa[0]] = static_cast<I>(n);
  in_parts(n - 1, threads, [&](std::uint64_t b, std::uint64_t e) {
    // Entries 1 .. n - 1, shifted by one so that the parts cover [0, n - 1).
    scan_prefetched<prefetch_ahead>(
        b, e, [&](std::uint64_t r) { __builtin_prefetch(phi + sa[r + 1], 1, 0); },
        [&](std::uint64_t r) { phi[sa[r + 1]] = sa[r]; });
  });
}

template <class I>
void plcp_pass(const std::uint8_t* text, I* phi, std::uint64_t n, int threads) {
  const I none = static_cast<I>(n);
  // Each part reads phi only inside itself (another part may have overwritten its own), and
  // starts its carried length at 0: that costs at most one long comparison a part.
  in_parts(n, threads, [&](std::uint64_t b, std::uint64_t e) {
    std::uint64_t carried = 0;
    scan_prefetched<plcp_prefetch_ahead>(
        b, e, [&](std::uint64_t i) { __builtin_prefetch(text + phi[i], 0, 0); },
        [&](std::uint64_t i) {
          const I j = phi[i];
          if (j == none) {
            phi[i] = 0;
            carried = 0;
            return;
          }
          const std::uint64_t l = match_length(text, i, j, carried, n - std::max<std::uint64_t>(i, j));
          phi[i] = static_cast<I>(l);
          carried = l > 0 ? l - 1 : 0;
        });
  });
}

template <class I>
void gather_pass(const I* sa, const I* plcp, I* lcp, std::uint64_t n, int threads) {
  in_parts(n, threads, [&](std::uint64_t b, std::uint64_t e) {
    scan_prefetched<prefetch_ahead>(
        b, e, [&](std::uint64_t r) { __builtin_prefetch(plcp + sa[r], 0, 0); },
        [&](std::uint64_t r) { lcp[r] = plcp[sa[r]]; });
  });
}

}  // namespace lcp_passes

void phi_from_suffix_array(const std::uint32_t* sa, std::uint32_t* phi, std::uint64_t n, int threads) {
  lcp_passes::phi_pass(sa, phi, n, threads);
}
void phi_from_suffix_array(const std::uint64_t* sa, std::uint64_t* phi, std::uint64_t n, int threads) {
  lcp_passes::phi_pass(sa, phi, n, threads);
}
void plcp_in_place(const std::uint8_t* text, std::uint32_t* phi, std::uint64_t n, int threads) {
  lcp_passes::plcp_pass(text, phi, n, threads);
}
void plcp_in_place(const std::uint8_t* text, std::uint64_t* phi, std::uint64_t n, int threads) {
  lcp_passes::plcp_pass(text, phi, n, threads);
}
void lcp_from_plcp(const std::uint32_t* sa, const std::uint32_t* plcp, std::uint32_t* lcp, std::uint64_t n,
                   int threads) {
  lcp_passes::gather_pass(sa, plcp, lcp, n, threads);
}
void lcp_from_plcp(const std::uint64_t* sa, const std::uint64_t* plcp, std::uint64_t* lcp, std::uint64_t n,
                   int threads) {
  lcp_passes::gather_pass(sa, plcp, lcp, n, threads);
}

}  // namespace strix::backend::host
