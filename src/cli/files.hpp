// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// File handling of the strix tool: inputs of any kind read whole, and all-or-nothing
// outputs that never replace an input or a non-regular file and never outlive a signal.
#include <sys/types.h>

#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <ostream>
#include <string>
#include <vector>

#include <strix/error.hpp>

namespace strix::cli {

// An input file, opened once. A regular file is read straight into its destination; any
// other readable file (a pipe, FIFO, character device, /proc file, or standard input named
// "-") is read to its end first, so its size is known. Throws strix::error(io_error).
class input_file {
 public:
  explicit input_file(const std::string& path);
  ~input_file();
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }
  // Reads the whole input (size() bytes) into `data`; once.
  void read_into(std::uint8_t* data);
  // A regular file (through links; standard input redirected from one counts too).
  bool regular() const { return regular_; }
  // The file's identity (regular files only), to refuse an output that would replace it.
  bool same_file(dev_t device, ino_t inode) const {
    return regular_ && device == device_ && inode == inode_;
  }

 private:
  void open_and_measure();

  std::string path_;
  int fd_ = -1;
  bool regular_ = false;
  dev_t device_ = 0;
  ino_t inode_ = 0;
  std::uint64_t size_ = 0;
  std::vector<std::uint8_t> buffered_;  // a stream's bytes
};

// Writes to a temporary file in the output's folder, renamed onto the output by commit().
// The path "-" is standard output (samtools' and bwa's convention): written as it comes,
// flushed by commit(), its failures (closed, full, a broken pipe) reported like a file's;
// what was written before a failure cannot be taken back. One output at most takes it.
// Refuses an output that is an input (also through links) or an existing non-regular file
// (a device, FIFO, folder). A new output gets the umask's mode, an existing one keeps its
// mode; a symbolic link to a regular file stays and its target is replaced. Destroyed
// without commit(), or on SIGINT, SIGTERM or SIGHUP, the temporary is removed.
class atomic_output {
 public:
  explicit atomic_output(const std::string& path, std::initializer_list<const input_file*> inputs = {});
  ~atomic_output();
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;

  void write(const void* data, std::size_t bytes);
  void commit();
  // The temporary file (in the output's folder) that commit() renames: a distributed run's
  // ranks write their parts into it. Empty for standard output.
  const std::string& temporary_path() const { return tmp_path_; }
  // A new descriptor of the output (its own to close), for a writer that takes one (htslib's
  // BGZF); what was written through this object is flushed first.
  int descriptor_copy();

 private:
  std::string path_, target_, tmp_path_;
  std::FILE* file_ = nullptr;
  int slot_ = -1;  // in the signal handler's list of temporaries
  bool standard_ = false;
};

// Where a report goes (--stats, the BWT's primary index): standard output, or standard error
// when an output took standard output ("-o -"), so that it carries the data alone.
std::ostream& report_stream();

// Removes the temporaries of unfinished outputs on SIGINT, SIGTERM, SIGHUP and SIGQUIT (unless
// the parent ignores them), then dies of the signal; SIGPIPE and SIGXFSZ become failed writes.
// (SIGKILL cannot be caught: a temporary named .strix-* may then remain.)
void install_signal_cleanup();

}  // namespace strix::cli
