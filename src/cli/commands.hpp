#pragma once
// The subcommands of the strix tool. Each returns the process exit status and
// throws strix::error for failures the caller turns into a one-line message.
#include <cstdint>
#include <string>

namespace strix::cli {

struct common_options {
  std::string backend = "default";
  bool stats = false;     // one JSON object on stdout
  bool progress = false;  // per-phase lines on stderr
};

struct sa_command {
  std::string input, output;
  int width = 0;  // 0: 32 when n < 2^32, else 64
};
int run_sa(const sa_command& cmd, const common_options& common);

struct bwt_command {
  std::string input, output;
};
int run_bwt(const bwt_command& cmd, const common_options& common);

struct unbwt_command {
  std::string input, output;
  std::uint64_t primary = 0;
};
int run_unbwt(const unbwt_command& cmd, const common_options& common);

struct check_command {
  std::string input, sa_file;
};
int run_check(const check_command& cmd, const common_options& common);

struct demo_command {
  std::uint64_t size = 32ull << 20;
  int repeats = 3;
};
int run_demo(const demo_command& cmd, const common_options& common);

}  // namespace strix::cli
