// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The checksum of strix's saved files (wavelet files, index containers). No Kokkos here.
#include <cstddef>
#include <cstdint>

namespace strix::detail {

// 64-bit checksum over 8-byte words (a multiply-xor chain with a final mix): catches
// flipped bits and moved or lost blocks, cheap enough for gigabyte files.
class checksum64 {
 public:
  void add(const void* data, std::size_t bytes) {
    const auto* p = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < bytes; ++i) {
      pending_ |= std::uint64_t(p[i]) << (8 * fill_);
      if (++fill_ == 8) flush();
    }
  }
  void add_words(const std::uint64_t* w, std::size_t count) {
    if (fill_) { add(w, count * 8); return; }
    for (std::size_t i = 0; i < count; ++i) mix(w[i]);
  }
  std::uint64_t value() {
    if (fill_) flush();
    std::uint64_t h = h_ ^ length_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
  }

 private:
  void mix(std::uint64_t x) {
    h_ = (h_ ^ (x + 0x9e3779b97f4a7c15ull + (h_ << 6) + (h_ >> 2))) * 0x100000001b3ull;
    ++length_;
  }
  void flush() {
    mix(pending_);
    pending_ = 0;
    fill_ = 0;
  }
  std::uint64_t h_ = 0xcbf29ce484222325ull, pending_ = 0, length_ = 0;
  int fill_ = 0;
};

}  // namespace strix::detail
