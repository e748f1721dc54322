// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The default input of `strix demo`: a deterministic English-like text.
#include <cstdint>
#include <vector>

namespace strix::cli {

// `bytes` bytes of words drawn with a Zipf-like law from a fixed vocabulary, with
// punctuation, line breaks and repeated phrases, so that it has the long repeats
// and skewed alphabet of real text. The same `seed` always gives the same text.
std::vector<std::uint8_t> demo_text(std::uint64_t bytes, std::uint64_t seed = 1);

}  // namespace strix::cli
