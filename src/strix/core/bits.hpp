// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Small integer helpers usable on host and device.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix::detail {

// Number of bits needed to represent every value in [0, x].
KOKKOS_INLINE_FUNCTION int bits_for(std::uint64_t x) {
  int b = 0;
  while (x) { ++b; x >>= 1; }
  return b;
}

}  // namespace strix::detail
