// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The strix tool's subcommands, one row each, in the order --help lists them: ROW(name) is
// added by `runner add_<name>_command(CLI::App&)` in commands/<name>.cpp. A new subcommand is
// its file there (CMake finds it), its row here, and its test tests/cli/cli_<name>_test.sh.
#define STRIX_CLI_COMMANDS(ROW) \
  ROW(sa)                       \
  ROW(bwt)                      \
  ROW(unbwt)                    \
  ROW(check)                    \
  ROW(lcp)                      \
  ROW(repeats)                  \
  ROW(demo)                     \
  ROW(wt)                       \
  ROW(index)                    \
  ROW(count)                    \
  ROW(locate)                   \
  ROW(extract)                  \
  ROW(search)
