// SPDX-License-Identifier: BSD-3-Clause
// Answers as text (answer_format.hpp).
#include "answer_format.hpp"

#include <charconv>

namespace strix::cli {

void append_decimal(std::string& text, std::uint64_t v) {
  char digits[20];
  text.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
}

std::string decimal_lines(const std::vector<std::uint64_t>& values) {
  // 20 digits and a newline at most a value; trimmed to what was written.
  std::string text(values.size() * 21, '\0');
  char* at = text.data();
  char* const end = text.data() + text.size();
  for (const std::uint64_t v : values) {
    at = std::to_chars(at, end, v).ptr;
    *at++ = '\n';
  }
  text.resize(std::size_t(at - text.data()));
  return text;
}

}  // namespace strix::cli
