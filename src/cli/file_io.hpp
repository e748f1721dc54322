#pragma once
// File handling of the strix tool: whole-file input and all-or-nothing output.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>
#include <string>

#include <strix/error.hpp>

namespace strix::cli {

// Size in bytes of a regular, readable input file; throws strix::error(io_error) otherwise.
std::uint64_t input_size(const std::string& path);

// Reads exactly `size` bytes of a file (as measured by input_size) into `data`.
void read_file_into(const std::string& path, std::uint8_t* data, std::uint64_t size);

// Reads a whole file into host-accessible memory (pinned memory for faster GPU copies).
template <class MemorySpace = Kokkos::HostSpace>
Kokkos::View<std::uint8_t*, MemorySpace> read_file(const std::string& path) {
  const std::uint64_t size = input_size(path);
  Kokkos::View<std::uint8_t*, MemorySpace> data;
  try {
    data = Kokkos::View<std::uint8_t*, MemorySpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix::input"), size);
  } catch (const std::exception&) {
    throw error(error_code::host_out_of_memory,
                "cannot allocate " + std::to_string(size) + " bytes to read '" + path + "'");
  }
  read_file_into(path, data.data(), size);
  return data;
}

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
