#pragma once
// Rules the strix tool shares for index widths and timing.
#include <chrono>
#include <cstdint>
#include <string>

#include <strix/error.hpp>

#include "file_io.hpp"

namespace strix::cli {

// Index files are raw little-endian integers.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "strix writes little-endian files");

constexpr std::uint64_t four_gib = 1ull << 32;

using clock_type = std::chrono::steady_clock;
inline double seconds_since(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

// Width of a text's index arrays: `requested` (32, 64, or 0 for 32 when n < 2^32).
inline int choose_width(std::uint64_t n, int requested) {
  if (requested == 0) return n < four_gib ? 32 : 64;
  STRIX_USER_REQUIRE(requested == 32 || requested == 64, "--width must be 32 or 64");
  STRIX_USER_REQUIRE(requested == 64 || n < four_gib,
                     "an input of " + std::to_string(n) +
                         " bytes needs --width 64 (a 32-bit suffix array holds fewer than 2^32 entries)");
  return requested;
}

// Width of a suffix array file for a text of n bytes, from its size (0 when both are
// empty); throws when the size fits neither width.
inline int suffix_array_file_width(std::uint64_t n, const std::string& path) {
  const std::uint64_t bytes = input_size(path);
  if (n == 0 && bytes == 0) return 0;
  STRIX_USER_REQUIRE(n != 0 && (bytes == 4 * n || bytes == 8 * n),
                     "suffix array file '" + path + "' has " + std::to_string(bytes) +
                         " bytes; a text of " + std::to_string(n) + " bytes needs " +
                         std::to_string(4 * n) + " (32-bit) or " + std::to_string(8 * n) +
                         " (64-bit)");
  return bytes == 4 * n ? 32 : 64;
}

}  // namespace strix::cli
