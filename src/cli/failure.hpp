// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// How the strix tool fails: one "strix: error: ..." line on stderr and a typed exit status.
#include <string>

#include <strix/error.hpp>

namespace strix::cli {

// 2 invalid input or usage, 3 I/O, 4 out of memory, 5 device or internal error (1 is
// `strix check`'s "wrong suffix array").
int exit_status(error_code code);

// Prints the message as one line (control characters escaped) and returns `status`.
int fail(const std::string& message, int status);

}  // namespace strix::cli
