// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix's saved-index container: one versioned, little-endian, checksummed file of named
// sections, for every structure strix saves (the FM-index today). No Kokkos here.
//
// Layout (integers little-endian):
//   0  magic "STRIXIDX"                 8 bytes (a file's first 8 bytes: container_magic)
//   8  container version (2)            u32
//  12  sections                         u32
//  16  kind (ASCII, zero-padded)        16 bytes, e.g. "fm_index"
//  32  kind version                     u32,  reserved u32 = 0
//  40  file bytes                       u64
//  48  checksum of the section table    u64
//  56  checksum of bytes 0..55          u64
//  64  section table: per section, name (40 bytes, zero-padded), offset u64, bytes u64,
//      checksum u64 (64 bytes each): version 1, the chain of checksum(); version 2 (written
//      since 2026-11-26; both read), section_checksum(): the chain of its 1 MiB blocks' values,
//      which threads compute side by side
//      payloads, each at an offset that is a multiple of 64, zero-padded.
// A reader maps the file (mmap), checks the header, the table, every section's checksum and
// that every byte outside them is zero before handing out a byte of it; a truncated, corrupt, foreign or newer file is an
// invalid_input strix::error with one line.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace strix::io {

constexpr std::uint32_t container_version = 2;
constexpr char container_magic[8] = {'S', 'T', 'R', 'I', 'X', 'I', 'D', 'X'};

// Sections to write: each points at bytes that must live until write().
class container_writer {
 public:
  container_writer(std::string kind, std::uint32_t kind_version);
  void add(const std::string& name, const void* data, std::size_t bytes);
  template <class T>
  void add(const std::string& name, const std::vector<T>& v) {
    add(name, v.data(), v.size() * sizeof(T));
  }
  // Writes the file through `sink` (which throws when it cannot), or to `path` (the caller
  // picks a temporary and renames it; throws io_error).
  using sink = std::function<void(const void* data, std::size_t bytes)>;
  void write(const sink& out) const;
  void write(const std::string& path) const;

 private:
  struct section {
    std::string name;
    const void* data;
    std::size_t bytes;
  };
  std::string kind_;
  std::uint32_t kind_version_;
  std::vector<section> sections_;
};

// A container file mapped read-only and checked.
class container_reader {
 public:
  // `kind`: what the caller expects; `newest`: the newest kind version it reads.
  container_reader(const std::string& path, const std::string& kind, std::uint32_t newest);
  // The same from bytes already read (`name` stands for them in errors).
  container_reader(std::vector<unsigned char> bytes, const std::string& name, const std::string& kind,
                   std::uint32_t newest);
  ~container_reader();
  container_reader(const container_reader&) = delete;
  container_reader& operator=(const container_reader&) = delete;

  std::uint32_t kind_version() const { return kind_version_; }
  bool has(const std::string& name) const;
  struct span {
    const unsigned char* data;
    std::size_t bytes;
  };
  // The section's bytes; throws invalid_input when it is missing or, with `element` > 0, not
  // a whole number of elements of that size.
  span section(const std::string& name, std::size_t element = 1) const;
  template <class T>
  std::vector<T> vector(const std::string& name) const {
    const auto s = section(name, sizeof(T));
    std::vector<T> v(s.bytes / sizeof(T));
    if (s.bytes) std::memcpy(v.data(), s.data, s.bytes);
    return v;
  }

 private:
  struct entry {
    std::string name;
    std::uint64_t offset, bytes;
  };
  void check(const std::string& kind, std::uint32_t newest);

  std::string path_;
  std::vector<unsigned char> owned_;  // the bytes, when not mapped
  bool mapped_ = false;
  const unsigned char* map_ = nullptr;
  std::size_t size_ = 0;
  std::uint32_t kind_version_ = 0;
  std::vector<entry> entries_;
};

// Writes the file `path` through the sink `fill` is given; throws io_error when it cannot.
void write_file(const std::string& path, const std::function<void(const container_writer::sink&)>& fill);

// 64-bit checksum of a byte range (the same function as the wavelet files'; a version-1
// container's sections and every container's header and table).
std::uint64_t checksum(const void* data, std::size_t bytes);
// The checksum of a version-2 container's sections (checksum.hpp: block_checksum), over
// threads() threads for sections of several megabytes.
std::uint64_t section_checksum(const void* data, std::size_t bytes);

// The threads the container uses to check and write checksums: set_threads(n) for n, 0 (the
// default) for the CPUs this process may run on (its affinity: a job's share of a node).
void set_threads(int threads);
int threads();

}  // namespace strix::io
