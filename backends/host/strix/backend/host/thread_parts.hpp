// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Equal parts of a range for host threads, and a scan that prefetches ahead, shared by the passes over a finished suffix array
// (phi_lcp.cpp, bwt_gather.cpp, sa_check.cpp): part p of `parts` is [begin(p), begin(p + 1)),
// and short ranges stay on one thread. Plain C++ with OpenMP pragmas; backend sources only.
#include <algorithm>
#include <cstdint>
#include <limits>

namespace strix::backend::host::thread_parts {

// Below this, passes run on one thread: starting a team costs more than it saves.
constexpr std::uint64_t parallel_min_length = std::uint64_t(1) << 16;
// What find (below) returns when its part has nothing.
constexpr std::uint64_t nowhere = std::numeric_limits<std::uint64_t>::max();

inline int team_size(std::uint64_t n, int threads) {
  return n < parallel_min_length || threads < 1 ? 1 : threads;
}

// Part p of `parts` nearly equal parts of [0, n).
inline std::uint64_t part_begin(std::uint64_t n, int parts, int p) {
  const std::uint64_t q = n / unsigned(parts), r = n % unsigned(parts);
  return q * unsigned(p) + std::min<std::uint64_t>(unsigned(p), r);
}

// body(begin, end) over the parts of [0, n), one a thread.
template <class Body>
void in_parts(std::uint64_t n, int threads, Body body) {
  const int parts = team_size(n, threads);
#ifdef _OPENMP
#pragma omp parallel for num_threads(parts) schedule(static, 1) if (parts > 1)
#endif
  for (int p = 0; p < parts; ++p) body(part_begin(n, parts, p), part_begin(n, parts, p + 1));
}

// step(i) for i in [b, e), with prefetch(i + ahead) before it while that is inside the range
// (two loops, so that the common one has no bounds test).
template <std::uint64_t ahead, class Prefetch, class Step>
inline void scan_prefetched(std::uint64_t b, std::uint64_t e, Prefetch prefetch, Step step) {
  const std::uint64_t split = e - b > ahead ? e - ahead : b;
  std::uint64_t i = b;
  for (; i < split; ++i) {
    prefetch(i + ahead);
    step(i);
  }
  for (; i < e; ++i) step(i);
}

// The smallest position find(begin, end) reports over the parts of [first, n), where find
// returns the first one of its part or `nowhere`.
template <class Find>
std::uint64_t first_found(std::uint64_t first, std::uint64_t n, int threads, Find find) {
  if (n <= first) return nowhere;
  const std::uint64_t length = n - first;
  const int parts = team_size(length, threads);
  std::uint64_t found = nowhere;
#ifdef _OPENMP
#pragma omp parallel for num_threads(parts) schedule(static, 1) reduction(min : found) if (parts > 1)
#endif
  for (int p = 0; p < parts; ++p)
    found = std::min(found, find(first + part_begin(length, parts, p), first + part_begin(length, parts, p + 1)));
  return found;
}

}  // namespace strix::backend::host::thread_parts
