// SPDX-License-Identifier: BSD-3-Clause
#include <strix/core/host_memory.hpp>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace strix {

namespace {

constexpr std::uint64_t unknown = std::numeric_limits<std::uint64_t>::max();

// The number in a file such as memory.max ("max" or unreadable: unknown).
std::uint64_t read_number(const std::string& path) {
  std::ifstream in(path);
  std::string word;
  if (!(in >> word) || word.find_first_not_of("0123456789") != std::string::npos) return unknown;
  return std::strtoull(word.c_str(), nullptr, 10);
}

std::uint64_t meminfo_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string key;
    std::uint64_t kib = 0;
    if (fields >> key >> kib && key == "MemAvailable:") return kib * 1024;
  }
  return unknown;
}

// What the process' control group may still take (cgroup v2, else v1).
std::uint64_t cgroup_room() {
  std::ifstream self("/proc/self/cgroup");
  std::string v2_path;
  for (std::string line; std::getline(self, line);)
    if (line.compare(0, 3, "0::") == 0) v2_path = line.substr(3);
  std::uint64_t limit = unknown, used = 0;
  if (!v2_path.empty()) {
    const std::string dir = "/sys/fs/cgroup" + (v2_path == "/" ? std::string() : v2_path);
    limit = read_number(dir + "/memory.max");
    used = read_number(dir + "/memory.current");
  } else {
    limit = read_number("/sys/fs/cgroup/memory/memory.limit_in_bytes");
    used = read_number("/sys/fs/cgroup/memory/memory.usage_in_bytes");
  }
  if (limit == unknown || used == unknown) return unknown;
  return limit > used ? limit - used : 0;
}

}  // namespace

std::uint64_t host_memory_available() {
  std::uint64_t bytes = std::min(meminfo_available(), cgroup_room());
  if (const char* set = std::getenv("STRIX_HOST_MEMORY_BYTES")) {
    char* end = nullptr;
    const unsigned long long limit = std::strtoull(set, &end, 10);
    if (*set != '\0' && *end == '\0') bytes = std::min<std::uint64_t>(bytes, limit);
  }
  return bytes;
}

void advise_huge_pages(void* p, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t huge = std::uintptr_t(1) << 21;
  if (bytes < 2 * huge) return;  // no whole huge page inside, or too small to matter
  static const bool wanted = [] {
    const char* v = std::getenv("STRIX_HUGE_PAGES");
    return !(v && std::string(v) == "0");
  }();
  if (!wanted) return;
  const std::uintptr_t first = (reinterpret_cast<std::uintptr_t>(p) + huge - 1) & ~(huge - 1);
  const std::uintptr_t last = (reinterpret_cast<std::uintptr_t>(p) + bytes) & ~(huge - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);  // advice: failure is harmless
#else
  (void)p, (void)bytes;
#endif
}

}  // namespace strix
