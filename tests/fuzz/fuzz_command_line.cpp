// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the strix tool's command-line parser on arbitrary arguments. Whatever
// the arguments, parsing ends in a runnable subcommand, help/version (0) or a one-line
// usage error (2), never a crash, a leak or undefined behaviour. Nothing is run.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "command_line.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // "strix", then the input split at NUL bytes: one argument each.
  std::vector<std::string> args{"strix"};
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < 24; ++i) {
    if (data[i] == 0) {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty() && args.size() < 24) args.push_back(current);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);

  const auto parsed = strix::cli::parse_command_line(static_cast<int>(args.size()), argv.data());
  if (parsed.exit_status < 0 && !parsed.run) std::abort();  // parsed, yet nothing to run
  if (parsed.exit_status > 0 && parsed.exit_status != 2) std::abort();  // usage errors exit 2
  return 0;
}
