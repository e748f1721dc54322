// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// What the levels of the induced sort share (induced_sort.cpp and its scans): prefetching,
// stores without branches, the bucket table, the parts of a range for threads, and the
// meter of what a call allocates. Backend sources only.
//
// Conventions: a suffix is S-type when it is smaller than the next one and L-type when
// larger; the last suffix is L-type (an implicit sentinel, smaller than every symbol,
// follows the text). An LMS position is an S-type one right after an L-type one. Entries
// are unsigned and 0 doubles as "empty": suffix 0 has no predecessor to induce, so no scan
// ever needs to tell the two apart.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "thread_parts.hpp"

namespace strix::backend::host::induced {

// How far ahead of the scan the text is prefetched: far enough to cover a memory latency
// at a few nanoseconds an entry, near enough that the lines are still cached when used.
constexpr std::size_t prefetch_ahead = 64;

// Always inlined: g++ finds a function that only prefetches free of side effects, and where it
// does not inline it (it did not into a lambda) it drops the call (bench/NOTES.md).
[[gnu::always_inline]] inline void prefetch(const void* p) { __builtin_prefetch(p, 0, 0); }

// Where a conditional store goes: `to` when `take`, else `spare`, chosen by masks so that the
// compiler cannot turn it back into a branch (as it does with ?: on pointers), which on text
// would be mispredicted about half the time.
template <class S>
inline S* store_target(bool take, S* to, S* spare) {
  const auto mask = std::uintptr_t(0) - static_cast<std::uintptr_t>(take);
  return reinterpret_cast<S*>((reinterpret_cast<std::uintptr_t>(to) & mask) |
                              (reinterpret_cast<std::uintptr_t>(spare) & ~mask));
}

// The address of a[i] without forming an out-of-range pointer when i is not used.
template <class T, class S>
inline T* slot_address(T* a, S i) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(a) + static_cast<std::uintptr_t>(i) * sizeof(T));
}

template <class S>
int team_size(S n, int threads) {
  return thread_parts::team_size(static_cast<std::uint64_t>(n), threads);
}

template <class S>
void fill_zero(S* a, S n, int threads) {
  thread_parts::in_parts(n, threads,
                         [&](std::uint64_t b, std::uint64_t e) { std::memset(a + b, 0, (e - b) * sizeof(S)); });
}

// Symbol counts of text[0, n) over the alphabet [0, k).
template <class S, class C>
void count_symbols(const C* text, S n, S k, S* count, int threads) {
  std::fill(count, count + k, S(0));
#ifdef _OPENMP
  // Bytes: one private table per thread, summed after. Larger alphabets count on one
  // thread (the tables would be as large as the text).
  if constexpr (sizeof(C) == 1) {
    const int t = team_size(n, threads);
    if (t > 1) {
      std::vector<S> local(static_cast<std::size_t>(t) * 256, 0);
#pragma omp parallel num_threads(t)
      {
        S* mine = local.data() + 256 * omp_get_thread_num();
#pragma omp for schedule(static)
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) ++mine[text[i]];
      }
      for (int p = 0; p < t; ++p)
        for (S c = 0; c < k; ++c) count[c] += local[256 * p + c];
      return;
    }
  }
#else
  (void)threads;
#endif
  for (S i = 0; i < n; ++i) ++count[text[i]];
}

#ifdef _OPENMP
// The blocks of sa that the scans on several threads take at a time (see the scans).
constexpr std::size_t parallel_block = std::size_t(1) << 16;
#endif

// The threads a level's scans run on. A level of names (C wider than a byte) scans on one
// thread below four threads: there the blocked scans' one-thread placement and the threads'
// reads took longer than the one-thread scans on every level of names measured, at two
// threads (bench/NOTES.md, "The names levels on one thread below four threads"). From four
// threads the reads, spread over the threads, are expected to pay for the blocks (not measured).
constexpr int names_blocked_min_threads = 4;
template <class S, class C>
int scan_team_size(S n, int threads) {
  return sizeof(C) > 1 && threads < names_blocked_min_threads ? 1 : team_size(n, threads);
}

// Bytes a call allocates beyond the text and the suffix array: now and at most.
struct scratch_meter {
  std::size_t now = 0, peak = 0;
  void add(std::size_t bytes) { peak = std::max(peak, now += bytes); }
  void remove(std::size_t bytes) { now -= bytes; }
};

// The bucket table of one level: `bucket` holds the current heads or tails; `count` the
// symbol counts when there is room to keep them, else they are counted again each time.
template <class S, class C>
struct bucket_table {
  const C* text;
  S n, k;
  S* count;  // may be null
  S* bucket;
  int threads;
  scratch_meter* meter;
  S* s_part;  // k entries for the scans on several threads, or null: one thread

  void load_counts() {
    if (count) std::copy(count, count + k, bucket);
    else count_symbols(text, n, k, bucket, threads);
  }
  void heads() {  // bucket[c] = first slot of symbol c's bucket
    load_counts();
    S sum = 0;
    for (S c = 0; c < k; ++c) {
      const S here = bucket[c];
      bucket[c] = sum;
      sum += here;
    }
  }
  void tails() {  // bucket[c] = one past the last slot of symbol c's bucket
    load_counts();
    S sum = 0;
    for (S c = 0; c < k; ++c) bucket[c] = sum += bucket[c];
  }
};

#ifdef _OPENMP
// Runs blocked(third) for the scans on several threads, with `third` the table's third table
// of k entries (s_part) when `needed`: the level's own, or one borrowed for the length of the
// scans when the level's free part had no room for it (at most a level's length; freed before
// the next level, so borrowed tables never add up). Returns false, having run nothing, when it
// cannot be borrowed: the scans then run on one thread.
template <class S, class C, class Blocked>
bool with_third_table(bucket_table<S, C>& table, bool needed, Blocked&& blocked) {
  if (!needed || table.s_part) {
    blocked(table.s_part);
    return true;
  }
  std::vector<S> borrowed;
  try {
    borrowed.resize(table.k);
  } catch (const std::bad_alloc&) {
    return false;
  }
  table.meter->add(borrowed.size() * sizeof(S));
  blocked(borrowed.data());
  table.meter->remove(borrowed.size() * sizeof(S));
  return true;
}
#endif

// Part c of [0, n) split into t parts of ceil(n / t): [lo, hi).
template <class S>
void part_bounds(S n, int t, int c, S& lo, S& hi) {
  const S part = (n + t - 1) / t;
  lo = std::min<S>(n, part * c);
  hi = std::min<S>(n, lo + part);
}

// Runs f(c, lo, hi) for the parts c of [0, n) split evenly over the team, in parallel.
template <class S, class F>
int split_parallel(S n, int threads, F&& f) {
  const int t = team_size(n, threads);
#ifdef _OPENMP
#pragma omp parallel for num_threads(t) schedule(static, 1) if (t > 1)
#endif
  for (int c = 0; c < t; ++c) {
    S lo, hi;
    part_bounds(n, t, c, lo, hi);
    f(c, lo, hi);
  }
  return t;
}

// Runs f(lo, hi) for the same parts as split_parallel, on this thread, from the last part to
// the first.
template <class S, class F>
void split_parts_descending(S n, int threads, F&& f) {
  const int t = team_size(n, threads);
  for (int c = t; c-- > 0;) {
    S lo, hi;
    part_bounds(n, t, c, lo, hi);
    f(lo, hi);
  }
}

}  // namespace strix::backend::host::induced
