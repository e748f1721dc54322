// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The induced sort's walks over the text for its LMS positions (conventions in
// induced_common.hpp): 64 positions at a time, whose types come from two compares (SIMD for
// bytes and 32-bit names) and a fill down the runs of equal symbols rather than a chain of
// dependent steps (the placement walk of english.txt took 0.2 s, 5 ns a byte, and
// linux.tar's 1.3 s), and position by position for what is left. Backend sources only.
#include <algorithm>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace strix::backend::host::induced {

// Whether position i is S-type, from the text after it (past a run of equal symbols).
template <class S, class C>
bool s_type_at(const C* text, S n, S i) {
  S j = i;
  while (j + 1 < n && text[j] == text[j + 1]) ++j;
  return j + 1 < n && text[j] < text[j + 1];
}

// Calls f(p, lms, symbol at p) for every position p in [lo, hi) but 0, from the last to the
// first; lms says whether p is an LMS position. Every position, not just the LMS ones, so that
// the callers can act without a branch (which the text would make unpredictable: half of
// this walk's time went to mispredicted branches when it called back for LMS positions only).
template <class S, class C, class F>
void for_each_lms_in(const C* text, S n, S lo, S hi, F&& f) {
  if (hi <= lo) return;
  bool next_is_s = s_type_at(text, n, hi - 1);
  C next = text[hi - 1];
  const S stop = lo == 0 ? 0 : lo - 1;
  for (S i = hi - 1; i-- > stop;) {
    const C here = text[i];
    const bool is_s = (here < next) | ((here == next) & next_is_s);
    f(i + 1, next_is_s & !is_s, next);
    next_is_s = is_s;
    next = here;
  }
}

// Bit i: text[i] < text[i + 1] (less) or == (equal), for i in [0, 64); reads text[0, 65).
template <class C>
inline void compare_next64(const C* text, std::uint64_t& less, std::uint64_t& equal) {
  less = equal = 0;
#if defined(__SSE2__)
  if constexpr (sizeof(C) == 1) {
    const __m128i flip = _mm_set1_epi8(static_cast<char>(0x80));  // unsigned order by signed compares
    for (int k = 0; k < 4; ++k) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 16 * k));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 16 * k + 1));
      const auto bits = [](__m128i m) { return std::uint64_t(static_cast<std::uint32_t>(_mm_movemask_epi8(m))); };
      less |= bits(_mm_cmplt_epi8(_mm_xor_si128(a, flip), _mm_xor_si128(b, flip))) << (16 * k);
      equal |= bits(_mm_cmpeq_epi8(a, b)) << (16 * k);
    }
    return;
  } else if constexpr (sizeof(C) == 4) {
    const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
    for (int k = 0; k < 16; ++k) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 4 * k));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(text + 4 * k + 1));
      const auto bits = [](__m128i m) { return std::uint64_t(static_cast<std::uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(m)))); };
      less |= bits(_mm_cmplt_epi32(_mm_xor_si128(a, flip), _mm_xor_si128(b, flip))) << (4 * k);
      equal |= bits(_mm_cmpeq_epi32(a, b)) << (4 * k);
    }
    return;
  }
#endif
  for (int i = 0; i < 64; ++i) {
    less |= std::uint64_t(text[i] < text[i + 1]) << i;
    equal |= std::uint64_t(text[i] == text[i + 1]) << i;
  }
}

// Bit i: position base + i is S-type, for the 64 positions from base, given whether base + 64
// is (`above`); reads text[base, base + 65). A position is S-type when it is less than the
// next, or equal to it and the next is S-type: the "less" bits filled down each run of
// "equal" bits (six doubling steps).
template <class C>
inline std::uint64_t s_types64(const C* text, bool above) {
  std::uint64_t s, equal;
  compare_next64(text, s, equal);
  // The run of "equal" bits at the top (up to the highest bit where a run ends) takes `above`.
  const std::uint64_t decided = ~equal;
  const int top_equal = decided == 0 ? 64 : __builtin_clzll(decided);
  const std::uint64_t top_run = top_equal == 0 ? 0 : top_equal == 64 ? ~std::uint64_t(0) : ~std::uint64_t(0) << (64 - top_equal);
  s |= top_run & (std::uint64_t(0) - std::uint64_t(above));
  std::uint64_t run = equal;  // bit i: positions i .. i + step - 1 are all "equal"
  for (int step = 1; step < 64; step *= 2) {
    s |= (s >> step) & run;
    run &= run >> step;
  }
  return s;
}

// Calls f(p, symbol at p) for the LMS positions p in [lo, hi), from the last to the first:
// 64 positions a step where the text allows, the rest one at a time.
template <class S, class C, class F>
void for_each_lms_position(const C* text, S n, S lo, S hi, F&& f) {
  if (hi <= lo) return;
  // The last position is L-type (the sentinel follows it), so never LMS; the words need the
  // symbol after their top position.
  S top = hi < n ? hi : n - 1;
  const S bottom = lo < 1 ? 1 : lo;
  if (top > bottom && top - bottom >= 64) {
    bool above = s_type_at(text, n, top);
    for (; top >= bottom + 64; top -= 64) {
      const S base = top - 64;
      const std::uint64_t s = s_types64(text + base, above);
      // The S-type of base - 1 (base >= 1), for whether base itself is LMS.
      const C a = text[base - 1], b = text[base];
      const std::uint64_t below = std::uint64_t((a < b) | ((a == b) & (s & 1)));
      std::uint64_t lms = s & ~((s << 1) | below);
      while (lms != 0) {
        const int bit = 63 - __builtin_clzll(lms);
        const S p = base + static_cast<S>(bit);
        f(p, text[p]);
        lms &= ~(std::uint64_t(1) << bit);
      }
      above = (s & 1) != 0;
    }
  }
  for_each_lms_in(text, n, lo, top, [&](S p, bool lms, C c) {
    if (lms) f(p, c);
  });
}

// Per symbol, the L-type positions after an S-type one (count[c] for symbol c, k entries): the
// L entries whose predecessor is S-type, which stage 1's one-thread named scans keep apart.
// 64 positions a step from the top, the rest one at a time.
template <class S, class C>
void count_l_after_s(const C* text, S n, S k, S* count) {
  std::fill(count, count + k, S(0));
  if (n < 2) return;
  // The last position is L-type (the sentinel follows it): after S when the one before is less.
  count[text[n - 1]] += S(text[n - 2] < text[n - 1]);
  S top = n - 1;  // positions from top up are counted; `above`: whether top is S-type
  bool above = false;
  for (; top >= 65; top -= 64) {
    const S base = top - 64;
    const std::uint64_t s = s_types64(text + base, above);
    const C a = text[base - 1], b = text[base];
    const std::uint64_t below = std::uint64_t((a < b) | ((a == b) & (s & 1)));
    for (std::uint64_t after_s = ~s & ((s << 1) | below); after_s != 0; after_s &= after_s - 1)
      ++count[text[base + static_cast<S>(__builtin_ctzll(after_s))]];
    above = (s & 1) != 0;
  }
  // [1, top): p + 1 counts when it is L-type and p S-type.
  bool next_is_s = above;
  for (S p = top; p-- > 0;) {
    const bool is_s = (text[p] < text[p + 1]) | ((text[p] == text[p + 1]) & next_is_s);
    if (p + 1 < top) count[text[p + 1]] += S(is_s & !next_is_s);
    next_is_s = is_s;
  }
}

}  // namespace strix::backend::host::induced
