// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// `auto` on a GPU under a memory bound (issue 64: texts beyond 4 GiB on one GPU): when the
// construction picked for speed would not fit the device's free memory, the fastest difference
// cover that does (dc7, dc13, then dc21: their sample ranked in 32-bit entries, the merge in
// pieces in the memory the sample frees). Plain C++ (no Kokkos): the rule is tested alone.
#include <cstdint>

#include <strix/sa/algorithm.hpp>

namespace strix::detail {

// Device bytes a text byte of a construction's own working memory (beside the caller's text and
// suffix array), with `index_bytes`-byte entries: prefix doubling's three pairs, suffixes, ISA
// and segment offsets (34 a byte at 32 bits; bench/RESULTS.md §31: 39.5n with text and SA),
// skew's levels and keys (about 42), Larsson-Sadakane's (about 50); a difference cover's is its
// sample's prefix doubling at 32-bit entries (34 a unit, |D|/X units a byte) and the pieces'
// marks (1/8), whatever the index width (hybrid.hpp).
inline double working_bytes_per_text_byte(const sa_options& o, unsigned index_bytes) {
  const double scale = index_bytes / 4.0;
  switch (o.algorithm) {
    case sa_algorithm::prefix_doubling: return 34.0 * scale;
    case sa_algorithm::skew: return 42.0 * scale;
    case sa_algorithm::larsson_sadakane: return 50.0 * scale;
    case sa_algorithm::hybrid: return 34.0 * 2 / 3 + 0.125;
    case sa_algorithm::dcx: {
      const double share = o.dcx_period == 7 ? 3.0 / 7 : o.dcx_period == 13 ? 4.0 / 13 : 5.0 / 21;
      return 34.0 * share + 0.125;
    }
    default: return 0;  // (host constructions: not weighed)
  }
}

// Whether construction `o` fits `available` device bytes for a text of n bytes; `with_sa`: the
// suffix array (n entries) is not allocated yet and must fit too. A sixteenth and 64 MiB spare
// for the primitives' scratch and the allocator's rounding.
inline bool construction_fits(const sa_options& o, std::uint64_t n, unsigned index_bytes, std::uint64_t available,
                              bool with_sa) {
  // (A difference cover's sample units must fit 32-bit entries: about n |D| / X of them.)
  const bool cover = o.algorithm == sa_algorithm::dcx || o.algorithm == sa_algorithm::hybrid;
  const unsigned period = o.algorithm == sa_algorithm::hybrid ? 3 : o.dcx_period;
  const unsigned size = period == 3 ? 2 : period == 7 ? 3 : period == 13 ? 4 : 5;
  if (cover && n / period * size + size > (std::uint64_t(1) << 32) - 2) return false;
  const double need = double(n) * (working_bytes_per_text_byte(o, index_bytes) + (with_sa ? index_bytes : 0));
  return need * 17 / 16 + double(std::uint64_t(64) << 20) <= double(available);
}

// `chosen` where it fits (or where free memory is not known: available == 0), else the first
// difference cover that fits, else dc21 (the leanest: it then fails with a typed out-of-memory
// error if even that does not fit, or, beyond its 32-bit sample's ~1.8·10^10 bytes, with an
// invalid_input error that says so).
inline sa_options fit_to_memory(const sa_options& chosen, std::uint64_t n, unsigned index_bytes, std::uint64_t available,
                                bool with_sa) {
  if (available == 0 || construction_fits(chosen, n, index_bytes, available, with_sa)) return chosen;
  sa_options o = chosen;
  o.algorithm = sa_algorithm::dcx;
  for (const unsigned period : {7u, 13u, 21u}) {
    o.dcx_period = period;
    if (construction_fits(o, n, index_bytes, available, with_sa)) return o;
  }
  return o;
}

}  // namespace strix::detail
