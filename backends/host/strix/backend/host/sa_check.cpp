// SPDX-License-Identifier: BSD-3-Clause
// The suffix array check on host threads (see sa_check.hpp).
#include "sa_check.hpp"

#include "thread_parts.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>


namespace strix::backend::host {

// (Named: libstrix's unity build puts this file beside the other host sources.)
namespace check_passes {

constexpr std::uint64_t prefetch_ahead = 32;

using thread_parts::first_found;
using thread_parts::nowhere;

template <class I>
sa_check_finding check(const std::uint8_t* text, const I* sa, I* isa, std::uint64_t n, int threads) {
  sa_check_finding finding;
  if (n == 0) return finding;
  // 1. Range, and the scatter of the rows that are in range over a cleared isa.
  constexpr I unset = std::numeric_limits<I>::max();  // never a row: rows are < n <= max(I)
  first_found(0, n, threads, [&](std::uint64_t b, std::uint64_t e) {
    std::fill(isa + b, isa + e, unset);
    return nowhere;
  });
  std::uint64_t row = first_found(0, n, threads, [&](std::uint64_t b, std::uint64_t e) {
    std::uint64_t bad = nowhere;
    for (std::uint64_t i = b; i < e; ++i) {
      if (i + prefetch_ahead < e) {
        const std::uint64_t ahead = sa[i + prefetch_ahead];
        if (ahead < n) __builtin_prefetch(isa + ahead, 1, 0);
      }
      const std::uint64_t s = sa[i];
      // (Relaxed atomic stores, plain stores on common hardware: rows with the same value
      // race for its slot, and a race of plain stores would be undefined behaviour.)
      if (s < n) __atomic_store_n(isa + s, static_cast<I>(i), __ATOMIC_RELAXED);
      else bad = std::min(bad, i);
    }
    return bad;
  });
  if (row != nowhere) return {sa_check_problem::out_of_range, row};
  // 2. n values in range: a value is repeated exactly when some value is missing, which a
  // sequential read of isa finds. Only then are the rows read again, to find which one: those
  // that did not win their slot hold a repeated value. Of a value's rows the one reported is
  // the larger of a loser and the winner (with two rows, always the second).
  const std::uint64_t missing = first_found(0, n, threads, [&](std::uint64_t b, std::uint64_t e) {
    const I* hole = std::find(isa + b, isa + e, unset);
    return hole == isa + e ? nowhere : static_cast<std::uint64_t>(hole - isa);
  });
  if (missing != nowhere) {
    row = first_found(0, n, threads, [&](std::uint64_t b, std::uint64_t e) {
      std::uint64_t bad = nowhere;
      for (std::uint64_t i = b; i < e; ++i) {
        if (i + prefetch_ahead < e) __builtin_prefetch(isa + sa[i + prefetch_ahead], 0, 0);
        const std::uint64_t winner = __atomic_load_n(isa + sa[i], __ATOMIC_RELAXED);
        if (winner != i) bad = std::min(bad, std::max(i, winner));
      }
      return bad;
    });
    return {sa_check_problem::duplicate, row};
  }
  // 3. Neighbours: T[a] < T[b], or T[a] == T[b] and suffix a + 1 before suffix b + 1 (the
  // empty suffix, a + 1 == n, first). Every row reads the text and isa after its suffix.
  row = first_found(1, n, threads, [&](std::uint64_t b, std::uint64_t e) {
    for (std::uint64_t i = b; i < e; ++i) {
      if (i + prefetch_ahead < e) {
        const std::uint64_t ahead = sa[i + prefetch_ahead];
        __builtin_prefetch(text + ahead, 0, 0);
        __builtin_prefetch(isa + ahead + 1, 0, 0);
      }
      const std::uint64_t x = sa[i - 1], y = sa[i];
      const std::uint8_t cx = text[x], cy = text[y];
      if (cx > cy) return i;
      if (cx == cy && x + 1 != n && (y + 1 == n || isa[x + 1] > isa[y + 1])) return i;
    }
    return nowhere;
  });
  if (row != nowhere) return {sa_check_problem::out_of_order, row};
  return finding;
}

}  // namespace check_passes

sa_check_finding check_suffix_array(const std::uint8_t* text, const std::uint32_t* sa, std::uint32_t* isa,
                                    std::uint64_t n, int threads) {
  return check_passes::check(text, sa, isa, n, threads);
}
sa_check_finding check_suffix_array(const std::uint8_t* text, const std::uint64_t* sa, std::uint64_t* isa,
                                    std::uint64_t n, int threads) {
  return check_passes::check(text, sa, isa, n, threads);
}

}  // namespace strix::backend::host
