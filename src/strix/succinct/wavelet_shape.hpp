// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The shapes of strix's wavelet structures and their queries (no Kokkos: the tool and the
// file format use them too).
#include <cstdint>

namespace strix {

enum class wavelet_shape : std::uint8_t { tree = 0, matrix = 1 };
enum class wavelet_query { access, rank, select };

// Levels at most: one per bit of a 32-bit symbol.
constexpr int wavelet_max_levels = 32;

}  // namespace strix
