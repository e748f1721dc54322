// SPDX-License-Identifier: BSD-3-Clause
// The index container (see container.hpp): writing, and reading through a read-only map.
#include <strix/io/container.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sched.h>
#include <thread>
#include <vector>

#include <strix/error.hpp>
#include <strix/io/checksum.hpp>

namespace strix::io {

namespace {

constexpr std::size_t header_bytes = 64, entry_bytes = 64, name_bytes = 40, kind_bytes = 16;

std::uint64_t aligned64(std::uint64_t x) { return (x + 63) / 64 * 64; }

void put(unsigned char* at, std::uint64_t v, int bytes) { std::memcpy(at, &v, bytes); }
std::uint64_t get(const unsigned char* at, int bytes) {
  std::uint64_t v = 0;
  std::memcpy(&v, at, bytes);
  return v;
}

}  // namespace

namespace {
int io_threads = 0;  // 0: the CPUs this process may run on
}

void set_threads(int threads) { io_threads = threads > 0 ? threads : 0; }

int threads() {
  if (io_threads > 0) return io_threads;
#if defined(__linux__)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0 && CPU_COUNT(&set) > 0) return CPU_COUNT(&set);
#endif
  const unsigned hardware = std::thread::hardware_concurrency();
  return hardware > 0 ? int(hardware) : 1;
}

std::uint64_t section_checksum(const void* data, std::size_t bytes) {
  const auto* p = static_cast<const unsigned char*>(data);
  const std::size_t blocks = (bytes + detail::checksum_block_bytes - 1) / detail::checksum_block_bytes;
  std::vector<std::uint64_t> values(blocks);
  auto run = [&](std::size_t from, std::size_t to) {
    for (std::size_t b = from; b < to; ++b) {
      const std::size_t first = b * detail::checksum_block_bytes;
      values[b] = detail::block_checksum(p + first, std::min(detail::checksum_block_bytes, bytes - first));
    }
  };
  // Threads for sections of several blocks each (a start costs tens of microseconds).
  const std::size_t workers = std::min<std::size_t>(std::size_t(threads()), blocks / 4);
  if (workers <= 1) {
    run(0, blocks);
  } else {
    std::vector<std::thread> pool;
    for (std::size_t t = 1; t < workers; ++t) {
      try {
        pool.emplace_back(run, blocks * t / workers, blocks * (t + 1) / workers);
      } catch (...) {  // no thread to be had: this one does that share
        run(blocks * t / workers, blocks * (t + 1) / workers);
      }
    }
    run(0, blocks / workers);
    for (auto& thread : pool) thread.join();
  }
  detail::checksum64 sum;
  sum.add_words(values.data(), values.size());
  return sum.value();
}

std::uint64_t checksum(const void* data, std::size_t bytes) {
  detail::checksum64 sum;
  if (bytes % 8 == 0 && reinterpret_cast<std::uintptr_t>(data) % 8 == 0)
    sum.add_words(static_cast<const std::uint64_t*>(data), bytes / 8);
  else
    sum.add(data, bytes);
  return sum.value();
}

container_writer::container_writer(std::string kind, std::uint32_t kind_version)
    : kind_(std::move(kind)), kind_version_(kind_version) {
  STRIX_REQUIRE(kind_.size() <= kind_bytes);
}

void container_writer::add(const std::string& name, const void* data, std::size_t bytes) {
  STRIX_REQUIRE(!name.empty() && name.size() <= name_bytes);
  for (const auto& s : sections_) STRIX_REQUIRE(s.name != name);
  sections_.push_back({name, data, bytes});
}

void write_file(const std::string& path, const std::function<void(const container_writer::sink&)>& fill) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw error(error_code::io_error, "cannot write '" + path + "': " + std::strerror(errno));
  fill([&](const void* data, std::size_t bytes) {
    out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
    if (!out) throw error(error_code::io_error, "cannot write '" + path + "' (disk full?)");
  });
  out.flush();
  if (!out) throw error(error_code::io_error, "cannot write '" + path + "' (disk full?)");
}

void container_writer::write(const std::string& path) const {
  write_file(path, [&](const sink& out) { write(out); });
}

void container_writer::write(const sink& out) const {
  std::vector<unsigned char> table(sections_.size() * entry_bytes, 0);
  std::uint64_t offset = aligned64(header_bytes + table.size());
  for (std::size_t k = 0; k < sections_.size(); ++k) {
    const auto& s = sections_[k];
    unsigned char* e = table.data() + k * entry_bytes;
    std::memcpy(e, s.name.data(), s.name.size());
    put(e + 40, offset, 8);
    put(e + 48, s.bytes, 8);
    put(e + 56, section_checksum(s.data, s.bytes), 8);
    offset = aligned64(offset + s.bytes);
  }
  unsigned char header[header_bytes] = {};
  std::memcpy(header, container_magic, 8);
  put(header + 8, container_version, 4);
  put(header + 12, sections_.size(), 4);
  std::memcpy(header + 16, kind_.data(), kind_.size());
  put(header + 32, kind_version_, 4);
  put(header + 40, offset, 8);
  put(header + 48, checksum(table.data(), table.size()), 8);
  put(header + 56, checksum(header, 56), 8);

  static const unsigned char zeros[64] = {};
  std::uint64_t at = 0;
  auto emit = [&](const void* data, std::size_t bytes) {
    if (bytes) out(data, bytes);
    at += bytes;
  };
  auto pad = [&] { emit(zeros, aligned64(at) - at); };
  emit(header, header_bytes);
  emit(table.data(), table.size());
  for (const auto& s : sections_) {
    pad();
    emit(s.data, s.bytes);
  }
  pad();
}

container_reader::container_reader(const std::string& path, const std::string& kind, std::uint32_t newest)
    : path_(path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw error(error_code::io_error, "cannot open '" + path + "': " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw error(error_code::io_error, "'" + path + "' is not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  if (size_ > 0) {
    // Every page is read by the checks: mapped at once, not a fault at a time.
#if defined(MAP_POPULATE)
    const int flags = MAP_PRIVATE | MAP_POPULATE;
#else
    const int flags = MAP_PRIVATE;
#endif
    void* p = ::mmap(nullptr, size_, PROT_READ, flags, fd, 0);
    if (p == MAP_FAILED) {
      ::close(fd);
      throw error(error_code::io_error, "cannot map '" + path + "': " + std::strerror(errno));
    }
    map_ = static_cast<const unsigned char*>(p);
  }
  ::close(fd);
  mapped_ = map_ != nullptr;
  try {
    check(kind, newest);
  } catch (...) {
    if (mapped_) ::munmap(const_cast<unsigned char*>(map_), size_);
    throw;
  }
}

container_reader::container_reader(std::vector<unsigned char> bytes, const std::string& name, const std::string& kind,
                                   std::uint32_t newest)
    : path_(name), owned_(std::move(bytes)) {
  map_ = owned_.data();
  size_ = owned_.size();
  check(kind, newest);
}

void container_reader::check(const std::string& kind, std::uint32_t newest) {
  const std::string& path = path_;
  const std::string what = "'" + path + "' ";
  STRIX_USER_REQUIRE(size_ >= 8 && std::memcmp(map_, container_magic, 8) == 0,
                     what + "is not a strix index file (no STRIXIDX signature)");
  STRIX_USER_REQUIRE(size_ >= header_bytes, what + "is truncated (in its header)");
  STRIX_USER_REQUIRE(checksum(map_, 56) == get(map_ + 56, 8), what + "is corrupt (header checksum mismatch)");
  const std::uint32_t version = static_cast<std::uint32_t>(get(map_ + 8, 4));
  STRIX_USER_REQUIRE(version <= container_version, what + "has container version " + std::to_string(version) +
                                                       "; this strix reads up to " +
                                                       std::to_string(container_version));
  const std::string file_kind(reinterpret_cast<const char*>(map_ + 16), strnlen(reinterpret_cast<const char*>(map_ + 16), kind_bytes));
  STRIX_USER_REQUIRE(file_kind == kind, what + "holds a " + (file_kind.empty() ? std::string("nameless") : file_kind) +
                                            " index, not a " + kind);
  kind_version_ = static_cast<std::uint32_t>(get(map_ + 32, 4));
  STRIX_USER_REQUIRE(kind_version_ >= 1 && kind_version_ <= newest,
                     what + "has " + kind + " version " + std::to_string(kind_version_) +
                         "; this strix reads up to " + std::to_string(newest));
  STRIX_USER_REQUIRE(get(map_ + 40, 8) == size_, what + "is truncated or has bytes after its end (" +
                                                     std::to_string(size_) + " bytes, header says " +
                                                     std::to_string(get(map_ + 40, 8)) + ")");
  const std::uint64_t count = get(map_ + 12, 4);
  STRIX_USER_REQUIRE(count <= (size_ - header_bytes) / entry_bytes, what + "is corrupt (section table)");
  const unsigned char* table = map_ + header_bytes;
  STRIX_USER_REQUIRE(checksum(table, count * entry_bytes) == get(map_ + 48, 8),
                     what + "is corrupt (section table checksum mismatch)");
  for (std::uint64_t k = 0; k < count; ++k) {
    const unsigned char* e = table + k * entry_bytes;
    entry s{std::string(reinterpret_cast<const char*>(e), strnlen(reinterpret_cast<const char*>(e), name_bytes)),
            get(e + 40, 8), get(e + 48, 8)};
    STRIX_USER_REQUIRE(s.offset % 64 == 0 && s.offset >= header_bytes + count * entry_bytes && s.offset <= size_ &&
                           s.bytes <= size_ - s.offset,
                       what + "is corrupt (section '" + s.name + "' out of the file)");
    const std::uint64_t sum = version >= 2 ? section_checksum(map_ + s.offset, s.bytes) : checksum(map_ + s.offset, s.bytes);
    STRIX_USER_REQUIRE(sum == get(e + 56, 8),
                       what + "is corrupt (checksum mismatch in section '" + s.name + "')");
    entries_.push_back(s);
  }
  // Every byte outside the header, the table and the sections is zero padding.
  std::vector<std::pair<std::uint64_t, std::uint64_t>> used{{0, header_bytes + entries_.size() * entry_bytes}};
  for (const auto& e : entries_) used.push_back({e.offset, e.offset + e.bytes});
  std::sort(used.begin(), used.end());
  std::uint64_t at = 0;
  for (const auto& u : used) {
    for (std::uint64_t i = at; i < u.first; ++i)
      STRIX_USER_REQUIRE(map_[i] == 0, "'" + path + "' is corrupt (a non-zero byte between its sections)");
    at = std::max(at, u.second);
  }
  for (std::uint64_t i = at; i < size_; ++i)
    STRIX_USER_REQUIRE(map_[i] == 0, "'" + path + "' is corrupt (a non-zero byte after its sections)");
}

container_reader::~container_reader() {
  if (mapped_) ::munmap(const_cast<unsigned char*>(map_), size_);
}

bool container_reader::has(const std::string& name) const {
  for (const auto& e : entries_)
    if (e.name == name) return true;
  return false;
}

container_reader::span container_reader::section(const std::string& name, std::size_t element) const {
  for (const auto& e : entries_)
    if (e.name == name) {
      STRIX_USER_REQUIRE(element == 0 || e.bytes % element == 0,
                         "'" + path_ + "' is corrupt (section '" + name + "' has a partial element)");
      return {map_ + e.offset, static_cast<std::size_t>(e.bytes)};
    }
  throw error(error_code::invalid_input, "'" + path_ + "' is corrupt (no section '" + name + "')");
}

}  // namespace strix::io
