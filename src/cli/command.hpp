// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The subcommands of the strix tool, one file each in commands/. Each registers itself on
// the CLI11 app and returns what runs it once Kokkos is up; a runner returns the exit
// status and throws strix::error for failures main() turns into one line.
#include <functional>
#include <memory>
#include <string>

#include "command_table.hpp"
#include "features/index_job.hpp"
#include "files.hpp"
#include "session.hpp"

// Declared only: main() and the sessions need no CLI11 (its header costs seconds a unit).
namespace CLI {
class App;
}

namespace strix::cli {

struct common_options {
  std::string backend = "default";
  bool stats = false;     // one JSON object on stdout
  bool progress = false;  // show progress even for short runs
  bool quiet = false;     // show no progress, not even for long runs
  std::string algorithm = "auto";  // the suffix-array algorithm (strix/sa/algorithm.hpp)
};

using runner = std::function<int()>;

// --progress and --quiet on a subcommand.
void add_progress_options(CLI::App* sub, common_options& common);
// --backend, --stats, --progress and --quiet on a subcommand.
void add_common_options(CLI::App* sub, common_options& common);
// --distributed on a subcommand that can run across MPI ranks (src/cli/distributed.hpp).
void add_distributed_option(CLI::App* sub, bool& distributed);
// --algorithm on a subcommand that builds a suffix array.
void add_algorithm_option(CLI::App* sub, common_options& common);
// Sets up the progress display (progress.hpp) for a run over `input_bytes` bytes.
void start_progress(const common_options& common, std::uint64_t input_bytes);

// The session the common options ask for, with the progress display set up.
std::unique_ptr<session> open_session(const common_options& common, int width, std::uint64_t input_bytes);

// INPUT, -o/--output, --sa and --width: subcommands that build on a text's suffix array.
struct indexed_input {
  std::string input, output, sa_file;  // sa_file: a suffix array to use instead of building one
  int width = 0;                       // 0: the --sa file's, else the narrowest that holds n
  common_options common;
};
void add_indexed_input_options(CLI::App* sub, indexed_input& o, const std::string& output_help);

// A started run: the output opened (so a bad path fails early), the session and the index
// with the text and the --sa file, if any, loaded.
struct indexed_run {
  std::unique_ptr<input_file> text, sa;
  std::uint64_t n = 0;
  int width = 0;
  std::unique_ptr<atomic_output> out;
  std::unique_ptr<cli::session> session;
  std::unique_ptr<index_job> index;
};
indexed_run start_indexed_run(const indexed_input& o);

#define STRIX_CLI_DECLARE_COMMAND(name) runner add_##name##_command(CLI::App& app);
STRIX_CLI_COMMANDS(STRIX_CLI_DECLARE_COMMAND)
#undef STRIX_CLI_DECLARE_COMMAND

}  // namespace strix::cli
