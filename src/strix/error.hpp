// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix error type: every failure the library reports is a strix::error with a code.
#include <stdexcept>
#include <string>

namespace strix {

enum class error_code {
  invalid_input,      // bad user input: text too long for the index width, sizes that disagree
  host_out_of_memory, // a host allocation failed
  device_out_of_memory, // a device (GPU) allocation failed
  device_error,       // the device runtime reported an error
  io_error,           // a file could not be read or written
  internal            // a broken internal invariant (a bug in strix)
};

inline const char* to_string(error_code c) noexcept {
  switch (c) {
    case error_code::invalid_input: return "invalid input";
    case error_code::host_out_of_memory: return "host out of memory";
    case error_code::device_out_of_memory: return "device out of memory";
    case error_code::device_error: return "device error";
    case error_code::io_error: return "I/O error";
    case error_code::internal: return "internal error";
  }
  return "unknown error";
}

class error : public std::runtime_error {
 public:
  error(error_code code, const std::string& what) : std::runtime_error(what), code_(code) {}
  error_code code() const noexcept { return code_; }

 private:
  error_code code_;
};

}  // namespace strix

// STRIX_USER_REQUIRE: the caller passed something invalid. STRIX_REQUIRE: a strix bug.
#define STRIX_USER_REQUIRE(cond, msg)                                  \
  do {                                                                 \
    if (!(cond)) throw ::strix::error(::strix::error_code::invalid_input, (msg)); \
  } while (0)
#define STRIX_REQUIRE(cond)                                                        \
  do {                                                                             \
    if (!(cond))                                                                   \
      throw ::strix::error(::strix::error_code::internal,                          \
                           std::string("internal check failed: " #cond " at ") +   \
                               __FILE__ + ":" + std::to_string(__LINE__));         \
  } while (0)
