#include "files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <strix/error.hpp>

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

}  // namespace

std::uint64_t input_size(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) io_fail("cannot open input", path, errno);
  if (S_ISDIR(st.st_mode)) throw error(error_code::io_error, "input '" + path + "' is a directory");
  if (::access(path.c_str(), R_OK) != 0) io_fail("cannot read input", path, errno);
  return S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
}

void read_file_into(const std::string& path, std::uint8_t* data, std::uint64_t expected) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) io_fail("cannot open input", path, errno);
  std::uint64_t got = 0;
  while (got < expected) {
    const std::size_t r = std::fread(data + got, 1, expected - got, f);
    if (r == 0) break;
    got += r;
  }
  const bool failed = std::ferror(f);
  const int err = errno;
  std::fclose(f);
  if (failed) io_fail("cannot read input", path, err ? err : EIO);
  if (got != expected)
    throw error(error_code::io_error, "input '" + path + "' changed size while being read");
}

atomic_output::atomic_output(const std::string& path) : path_(path) {
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
    throw error(error_code::io_error, "output '" + path + "' is a directory");
  std::string tmpl = directory_of(path) + "/." + path.substr(path.find_last_of('/') + 1) +
                     ".strix-tmp-XXXXXX";
  const int fd = ::mkstemp(tmpl.data());
  if (fd < 0) io_fail("cannot create output in", directory_of(path), errno);
  tmp_path_ = tmpl;
  file_ = ::fdopen(fd, "wb");
  if (!file_) {
    const int err = errno;
    ::close(fd);
    ::unlink(tmp_path_.c_str());
    io_fail("cannot write output", path, err);
  }
  ::fchmod(fd, 0644);
}

atomic_output::~atomic_output() {
  if (file_) std::fclose(file_);
  if (!tmp_path_.empty()) ::unlink(tmp_path_.c_str());
}

void atomic_output::write(const void* data, std::size_t bytes) {
  if (bytes && std::fwrite(data, 1, bytes, file_) != bytes) io_fail("cannot write output", path_, errno);
}

void atomic_output::commit() {
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) io_fail("cannot write output", path_, errno);
  if (std::rename(tmp_path_.c_str(), path_.c_str()) != 0) io_fail("cannot rename output to", path_, errno);
  tmp_path_.clear();
}

}  // namespace strix::cli
