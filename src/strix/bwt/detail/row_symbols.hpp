// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The symbols of BWT rows read off the buckets the rows fall in, for the inverse BWT's walks
// (src/strix/bwt/inverse_bwt.cpp): a row's first symbol, and the first two symbols of a row
// that two LF steps reach. Host code.
#include <array>
#include <cstdint>
#include <vector>

namespace strix::detail {

// First row of each symbol's bucket (row 0 is "$"), with the rows of every `1 << shift` span
// mapped to the first symbol whose bucket reaches into it: the symbol of a row in a step or two.
class symbol_buckets {
 public:
  symbol_buckets(const std::array<std::uint64_t, 256>& counts, std::uint64_t rows) {
    first_[0] = 1;
    for (int c = 0; c < 256; ++c) first_[c + 1] = first_[c] + counts[c];
    while ((rows >> shift_) > (std::uint64_t(1) << 16)) ++shift_;
    hint_.resize((rows >> shift_) + 1);
    int c = 0;
    for (std::uint64_t span = 0; span < hint_.size(); ++span) {
      while (c < 255 && first_[c + 1] <= (span << shift_)) ++c;
      hint_[span] = static_cast<std::uint8_t>(c);
    }
  }
  // The symbol whose bucket holds `row` (row >= 1).
  std::uint8_t symbol_of(std::uint64_t row) const {
    int c = hint_[row >> shift_];
    while (first_[c + 1] <= row) ++c;
    return static_cast<std::uint8_t>(c);
  }
  std::uint64_t first(int c) const { return first_[c]; }

 private:
  std::array<std::uint64_t, 257> first_{};
  std::vector<std::uint8_t> hint_;
  int shift_ = 0;
};

// The first row of each symbol pair's bucket among the targets of two LF steps, and the pair
// of a target row in a few cached steps: a hint a span of rows (the first used pair reaching
// into it), then forward over the used pairs. Row 0 ("$") and the row of the text's last
// suffix ("x$", first of bucket x) are never targets; the latter sits at the end of the range
// of the pair before (x, 0), which is harmless since no lookup asks for it.
class pair_buckets {
 public:
  // `counts`: 65536 per block (key c1 * 256 + c2), which become each block's next target row per
  // pair; `last_symbol`: x, the symbol of row 0.
  pair_buckets(std::vector<std::vector<std::uint64_t>>& counts, std::uint64_t rows, int last_symbol) {
    std::uint64_t at = 1;
    for (int key = 0; key < 65536; ++key) {
      if (key == last_symbol * 256) ++at;  // the "x$" row
      const std::uint64_t begin = at;
      for (auto& block : counts) {
        const std::uint64_t here = block[key];
        block[key] = at;
        at += here;
      }
      if (at > begin) {
        pairs_.push_back(static_cast<std::uint16_t>(key));
        first_.push_back(begin);
      }
    }
    consistent_ = at == rows;
    first_.push_back(rows);
    while ((rows >> shift_) > (std::uint64_t(1) << 18)) ++shift_;
    hint_.resize((rows >> shift_) + 1);
    std::uint32_t used = 0;
    for (std::uint64_t span = 0; span < hint_.size(); ++span) {
      while (used + 1 < pairs_.size() && first_[used + 1] <= (span << shift_)) ++used;
      hint_[span] = used;
    }
  }
  bool consistent() const { return consistent_; }
  // The pair (first symbol * 256 + second) of target row `row`.
  std::uint16_t pair_of(std::uint64_t row) const {
    std::uint32_t u = hint_[row >> shift_];
    while (first_[u + 1] <= row) ++u;
    return pairs_[u];
  }

 private:
  std::vector<std::uint16_t> pairs_;  // the used pairs, in order
  std::vector<std::uint64_t> first_;  // their first rows, then `rows`
  std::vector<std::uint32_t> hint_;
  int shift_ = 0;
  bool consistent_ = false;
};

}  // namespace strix::detail
