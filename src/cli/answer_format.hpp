// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Answers as text, fast: numbers written with std::to_chars into one buffer (no string a line).
#include <cstdint>
#include <string>
#include <vector>

namespace strix::cli {

// Appends v in decimal.
void append_decimal(std::string& text, std::uint64_t v);

// One decimal a line, in order.
std::string decimal_lines(const std::vector<std::uint64_t>& values);

}  // namespace strix::cli
