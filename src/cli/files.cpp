// SPDX-License-Identifier: BSD-3-Clause
#include "files.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <atomic>
#include <iostream>
#include <new>

#include <strix/error.hpp>

#include "progress.hpp"

namespace strix::cli {
namespace {

[[noreturn]] void io_fail(const std::string& what, const std::string& path, int err) {
  throw error(error_code::io_error, what + " '" + path + "': " + std::strerror(err));
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The temporaries of unfinished outputs, for the signal handler: fixed storage, so that
// the handler only reads memory and calls unlink (async-signal-safe).
constexpr int max_temporaries = 8;
// Large inputs are read in pieces of this size, so that the progress display moves.
constexpr std::uint64_t progress_chunk_bytes = 64ull << 20;
char temporaries[max_temporaries][PATH_MAX];
volatile std::sig_atomic_t temporary_used[max_temporaries];

int remember_temporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < max_temporaries; ++i)
    if (!temporary_used[i]) {
      std::memcpy(temporaries[i], path.c_str(), path.size() + 1);
      std::atomic_signal_fence(std::memory_order_seq_cst);  // the path before the flag
      temporary_used[i] = 1;
      return i;
    }
  return -1;
}

const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

// Blocks the cleanup signals while a temporary is created and registered.
class signals_blocked {
 public:
  signals_blocked() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : cleanup_signals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~signals_blocked() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};
void forget_temporary(int slot) {
  if (slot >= 0) temporary_used[slot] = 0;
}

extern "C" void remove_temporaries_and_die(int sig) {
  for (int i = 0; i < max_temporaries; ++i)
    if (temporary_used[i]) ::unlink(temporaries[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

mode_t current_umask() {
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

}  // namespace

input_file::input_file(const std::string& path) : path_(path) {
  try {
    open_and_measure();
  } catch (...) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
    throw;
  }
}

void input_file::open_and_measure() {
  const std::string& path = path_;
  if (path == "-") {
    fd_ = ::dup(STDIN_FILENO);
    if (fd_ < 0) io_fail("cannot read standard input as", path, errno);
  } else {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) io_fail(errno == ENOENT ? "cannot open input" : "cannot read input", path, errno);
  }
  struct stat st;
  if (::fstat(fd_, &st) != 0) io_fail("cannot read input", path, errno);
  if (S_ISDIR(st.st_mode)) throw error(error_code::io_error, "input '" + path + "' is a directory");
  // Files under /proc and similar claim size 0: read those like streams, and standard input
  // too (a regular file there may already be partly read).
  regular_ = S_ISREG(st.st_mode) && st.st_size > 0 && path != "-";
  device_ = st.st_dev;
  inode_ = st.st_ino;
  if (regular_) {
    size_ = static_cast<std::uint64_t>(st.st_size);
    return;
  }
  regular_ = S_ISREG(st.st_mode);  // an empty regular file is still an input to protect
  try {
    std::uint8_t chunk[1 << 16];
    for (;;) {
      const ssize_t got = ::read(fd_, chunk, sizeof chunk);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) io_fail("cannot read input", path, errno);
      if (got == 0) break;
      buffered_.insert(buffered_.end(), chunk, chunk + got);
    }
  } catch (const std::bad_alloc&) {
    throw error(error_code::host_out_of_memory, "input '" + path + "' does not fit in host memory");
  }
  size_ = buffered_.size();
}

input_file::~input_file() {
  if (fd_ >= 0) ::close(fd_);
}

void input_file::read_into(std::uint8_t* data) {
  if (!buffered_.empty() || size_ == 0) {
    if (size_) std::memcpy(data, buffered_.data(), size_);
    buffered_ = {};
    return;
  }
  std::uint64_t got = 0;
  while (got < size_) {
    progress().advance(double(got) / double(size_));
    const std::uint64_t chunk = std::min<std::uint64_t>(size_ - got, progress_chunk_bytes);
    const ssize_t r = ::pread(fd_, data + got, chunk, static_cast<off_t>(got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) io_fail("cannot read input", path_, errno);
    if (r == 0) break;
    got += static_cast<std::uint64_t>(r);
  }
  if (got != size_) throw error(error_code::io_error, "input '" + path_ + "' changed size while being read");
}

namespace {
bool standard_output_in_use = false;
}  // namespace

std::ostream& report_stream() { return standard_output_in_use ? std::cerr : std::cout; }

atomic_output::atomic_output(const std::string& path, std::initializer_list<const input_file*> inputs)
    : path_(path), target_(path) {
  if (path == "-") {
    if (standard_output_in_use)
      throw error(error_code::invalid_input, "two outputs to standard output ('-'); name a file for one of them");
    standard_output_in_use = true;
    standard_ = true;
    file_ = stdout;
    return;
  }
  struct stat st, lst;
  const bool exists = ::stat(path.c_str(), &st) == 0;
  if (!exists && errno != ENOENT) io_fail("cannot write output", path, errno);
  if (!exists && ::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode))
    throw error(error_code::io_error, "output '" + path + "' is a symbolic link to nothing");
  if (exists) {
    if (S_ISDIR(st.st_mode)) throw error(error_code::io_error, "output '" + path + "' is a directory");
    if (!S_ISREG(st.st_mode))
      throw error(error_code::io_error, "output '" + path + "' is not a regular file; strix writes regular files only (or standard output: -o -)");
    for (const input_file* in : inputs)
      if (in && in->same_file(st.st_dev, st.st_ino))
        throw error(error_code::invalid_input,
                    "output '" + path + "' is the input '" + in->path() + "'; choose another output");
    // A link to a regular file stays a link: its target is replaced.
    if (::lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
      char* real = ::realpath(path.c_str(), nullptr);
      if (!real) io_fail("cannot resolve output link", path, errno);
      target_ = real;
      std::free(real);
    }
  }
  // A short fixed name, so that any output name the file system allows works.
  std::string tmpl = directory_of(target_) + "/.strix-XXXXXX";
  int fd;
  {
    signals_blocked guard;  // no signal between creating the temporary and registering it
    fd = ::mkstemp(tmpl.data());
    if (fd >= 0) slot_ = remember_temporary(tmpl);
  }
  if (fd < 0) io_fail("cannot create output in", directory_of(target_), errno);
  tmp_path_ = tmpl;
  ::fchmod(fd, exists ? (st.st_mode & 07777) : (0666 & ~current_umask()));
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp_path_.c_str());
    forget_temporary(slot_);
    io_fail("cannot write output", path, err);
  }
}

atomic_output::~atomic_output() {
  if (standard_) {
    std::fflush(stdout);
    return;
  }
  if (file_) std::fclose(file_);
  if (!tmp_path_.empty()) ::unlink(tmp_path_.c_str());
  forget_temporary(slot_);
}

void atomic_output::write(const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, file_) != bytes) {
    if (standard_) throw error(error_code::io_error, std::string("cannot write to standard output: ") + std::strerror(errno));
    io_fail("cannot write output", path_, errno);
  }
}

int atomic_output::descriptor_copy() {
  if (std::fflush(file_) != 0) io_fail("cannot write output", path_, errno);
  const int fd = ::dup(::fileno(file_));
  if (fd < 0) io_fail("cannot write output", path_, errno);
  return fd;
}

void atomic_output::commit() {
  if (standard_) {
    if (std::fflush(stdout) != 0)
      throw error(error_code::io_error, std::string("cannot write to standard output: ") + std::strerror(errno));
    return;
  }
  // On disk before the rename: after a crash, the old output or the whole new one.
  if (std::fflush(file_) != 0 || ::fsync(::fileno(file_)) != 0) {
    const int err = errno;
    if (err != EINVAL && err != EROFS) io_fail("cannot write output", path_, err);  // fsync unsupported: fine
  }
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) io_fail("cannot write output", path_, errno);
  if (std::rename(tmp_path_.c_str(), target_.c_str()) != 0) io_fail("cannot rename output to", path_, errno);
  tmp_path_.clear();
  forget_temporary(slot_);
  slot_ = -1;
}

void install_signal_cleanup() {
  for (int sig : cleanup_signals) {
    struct sigaction current;
    // A signal the parent ignores stays ignored (nohup, background jobs of scripts).
    if (sigaction(sig, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    std::signal(sig, remove_temporaries_and_die);
  }
  // A closed pipe or a file-size limit: failed writes, reported as I/O errors (and the
  // temporary removed), not deaths by signal.
  std::signal(SIGPIPE, SIG_IGN);
  std::signal(SIGXFSZ, SIG_IGN);
}

}  // namespace strix::cli
