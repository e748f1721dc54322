// SPDX-License-Identifier: BSD-3-Clause
// The libdivsufsort adapter (see divsufsort.hpp): 32-bit entries through divsufsort while
// n < 2^31 (its signed index), else divsufsort64 (in place for 64-bit entries, through a
// 64-bit buffer for 32-bit ones).
#include "divsufsort.hpp"

#include <divsufsort.h>
#include <divsufsort64.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include <strix/error.hpp>

namespace strix::backend::host {

namespace {
// libdivsufsort's own buckets: two of 256 and one of 256 * 256 entries.
constexpr std::size_t bucket_entries = 2 * 256 + 256 * 256;
constexpr std::uint64_t max_int32 = std::numeric_limits<std::int32_t>::max();

void check(int status, std::uint64_t n) {
  if (status == -2) throw error(error_code::host_out_of_memory, "libdivsufsort ran out of host memory");
  if (status != 0)
    throw error(error_code::internal, "libdivsufsort failed (status " + std::to_string(status) + ") on " +
                                          std::to_string(n) + " bytes");
}

void sort64(const std::uint8_t* text, std::int64_t* sa, std::uint64_t n) {
  check(divsufsort64(text, sa, static_cast<saidx64_t>(n)), n);
}
}  // namespace

std::size_t divsufsort_scratch_bytes(std::uint64_t n, int index_bytes) {
  const bool wide = index_bytes == 8 || n > max_int32;
  std::size_t bytes = bucket_entries * (wide ? 8 : 4);
  if (index_bytes == 4 && n > max_int32) bytes += n * 8;  // the 64-bit buffer
  return bytes;
}

void divsufsort_suffix_array(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n) {
  if (n == 0) return;
  if (n <= max_int32) {
    // int32 and uint32 share their representation for 0 .. 2^31 - 1.
    check(divsufsort(text, reinterpret_cast<saidx_t*>(sa), static_cast<saidx_t>(n)), n);
    return;
  }
  std::unique_ptr<std::int64_t[]> wide(new (std::nothrow) std::int64_t[n]);
  if (!wide) throw error(error_code::host_out_of_memory, "cannot allocate " + std::to_string(n * 8) +
                                                             " bytes of host memory for libdivsufsort");
  sort64(text, wide.get(), n);
  for (std::uint64_t i = 0; i < n; ++i) sa[i] = static_cast<std::uint32_t>(wide[i]);
}

void divsufsort_suffix_array(const std::uint8_t* text, std::uint64_t* sa, std::uint64_t n) {
  if (n == 0) return;
  sort64(text, reinterpret_cast<std::int64_t*>(sa), n);
}

bool divsufsort_bwt(const std::uint8_t* text, std::uint32_t* workspace, std::uint8_t* out, std::uint64_t n,
                    std::uint64_t& primary) {
  if (n > max_int32) return false;  // divbwt's 32-bit entries cannot index it
  primary = 0;
  if (n == 0) return true;
  const saidx_t p =
      divbwt(text, out, reinterpret_cast<saidx_t*>(workspace), static_cast<saidx_t>(n));
  if (p < 0) check(p, n);
  primary = static_cast<std::uint64_t>(p);
  return true;
}

bool divsufsort_bwt(const std::uint8_t* text, std::uint64_t* workspace, std::uint8_t* out, std::uint64_t n,
                    std::uint64_t& primary) {
  primary = 0;
  if (n == 0) return true;
  const saidx64_t p =
      divbwt64(text, out, reinterpret_cast<saidx64_t*>(workspace), static_cast<saidx64_t>(n));
  if (p < 0) check(static_cast<int>(p), n);
  primary = static_cast<std::uint64_t>(p);
  return true;
}

}  // namespace strix::backend::host
