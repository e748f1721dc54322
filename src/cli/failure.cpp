// SPDX-License-Identifier: BSD-3-Clause
#include "failure.hpp"

#include <cstdio>

#include "progress.hpp"

namespace strix::cli {

int exit_status(error_code code) {
  switch (code) {
    case error_code::invalid_input: return 2;
    case error_code::io_error: return 3;
    case error_code::host_out_of_memory:
    case error_code::device_out_of_memory: return 4;
    default: return 5;
  }
}

int fail(const std::string& message, int status) {
  progress().stop();  // the live line, if any, first
  std::string line;
  for (char c : message) {  // file names may hold newlines
    if (c == '\n') line += "\\n";
    else if (c == '\r') line += "\\r";
    else if (static_cast<unsigned char>(c) < 0x20) line += '?';
    else line += c;
  }
  std::fprintf(stderr, "strix: error: %s\n", line.c_str());
  return status;
}

}  // namespace strix::cli
