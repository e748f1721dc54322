#pragma once
// File handling of the strix tool: whole-file input and all-or-nothing output.
#include <cstdint>
#include <cstdio>
#include <string>

#include <strix/error.hpp>

namespace strix::cli {

// Size in bytes of a regular, readable input file; throws strix::error(io_error) otherwise.
std::uint64_t input_size(const std::string& path);

// Reads exactly `size` bytes of a file (as measured by input_size) into `data`.
void read_file_into(const std::string& path, std::uint8_t* data, std::uint64_t size);

// Writes to a temporary file next to `path`, renamed onto `path` by commit().
// Destroyed without commit(), it removes the temporary: no partial output is left.
class atomic_output {
 public:
  explicit atomic_output(const std::string& path);
  ~atomic_output();
  atomic_output(const atomic_output&) = delete;
  atomic_output& operator=(const atomic_output&) = delete;

  void write(const void* data, std::size_t bytes);
  void commit();

 private:
  std::string path_, tmp_path_;
  std::FILE* file_ = nullptr;
};

}  // namespace strix::cli
