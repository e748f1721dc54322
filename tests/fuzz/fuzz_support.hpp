// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Shared by the strix fuzz targets: Kokkos started once per process, inputs as files
// without touching the disk, and an oracle check that aborts (libFuzzer then keeps the
// input as a crash).
#include <sys/mman.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace strix_fuzz {

// Kokkos (the Serial backend) for the process' lifetime.
inline void start_kokkos() {
  static bool started = false;
  if (started) return;
  started = true;
  Kokkos::initialize();
  std::atexit([] { Kokkos::finalize(); });
}

// A file in memory holding `bytes`, read through its /proc/self/fd path.
class memory_file {
 public:
  memory_file(const std::uint8_t* data, std::size_t size) {
    fd_ = ::memfd_create("strix-fuzz", 0);
    if (fd_ < 0) std::abort();
    for (std::size_t done = 0; done < size;) {
      const ssize_t w = ::write(fd_, data + done, size - done);
      if (w <= 0) std::abort();
      done += static_cast<std::size_t>(w);
    }
  }
  ~memory_file() { ::close(fd_); }
  memory_file(const memory_file&) = delete;
  memory_file& operator=(const memory_file&) = delete;
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  int fd_ = -1;
};

#define STRIX_FUZZ_EXPECT(cond)                                                           \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      std::fprintf(stderr, "strix fuzz: %s:%d: expected %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                      \
    }                                                                                    \
  } while (0)

}  // namespace strix_fuzz
