// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The LCP array by the Phi method (Kaerkkaeinen, Manzini and Puglisi, CPM 2009), tuned for
// host memory: three passes over n entries, each a sequential scan with one random access an
// entry, prefetched ahead of the scan.
//   1. phi[sa[r]] = sa[r - 1] (the suffix sorted before each suffix; `none` for the first);
//   2. PLCP in place over phi, in text order: the match length of position i is at least that
//      of i - 1 minus one, so a scan carries it and compares 8 bytes a step from there (about
//      2n bytes compared in all); each thread scans one part and starts its carry at 0;
//   3. lcp[r] = plcp[sa[r]].
// The portable Kokkos version (src/strix/lcp/detail/phi.hpp) runs where these do not: GPUs,
// and host builds with STRIX_VENDOR_PRIMITIVES=OFF. Plain C++ with OpenMP pragmas, compiled
// once into libstrix.
#include <cstdint>

namespace strix::backend::host {

// phi[sa[r]] = sa[r - 1] for r > 0, phi[sa[0]] = n: the first pass.
void phi_from_suffix_array(const std::uint32_t* sa, std::uint32_t* phi, std::uint64_t n, int threads);
void phi_from_suffix_array(const std::uint64_t* sa, std::uint64_t* phi, std::uint64_t n, int threads);

// Turns phi (from the first pass) into PLCP in place: plcp[i] = lcp(i, phi[i]), 0 where
// phi[i] = n.
void plcp_in_place(const std::uint8_t* text, std::uint32_t* phi, std::uint64_t n, int threads);
void plcp_in_place(const std::uint8_t* text, std::uint64_t* phi, std::uint64_t n, int threads);

// lcp[r] = plcp[sa[r]]: the LCP array in suffix-array order.
void lcp_from_plcp(const std::uint32_t* sa, const std::uint32_t* plcp, std::uint32_t* lcp, std::uint64_t n,
                   int threads);
void lcp_from_plcp(const std::uint64_t* sa, const std::uint64_t* plcp, std::uint64_t* lcp, std::uint64_t n,
                   int threads);

}  // namespace strix::backend::host
