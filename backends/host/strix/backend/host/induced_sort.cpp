// SPDX-License-Identifier: BSD-3-Clause
// SA-IS on host memory (see induced_sort.hpp). Conventions: a suffix is S-type when it is
// smaller than the next one and L-type when larger; the last suffix is L-type (an implicit
// sentinel, smaller than every symbol, follows the text). An LMS position is an S-type one
// right after an L-type one. Entries are unsigned and 0 doubles as "empty": suffix 0 has no
// predecessor to induce, so neither scan ever needs to tell the two apart.
#include "induced_sort.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include <strix/error.hpp>

namespace strix::backend::host {

namespace {

// How far ahead of the scan the text is prefetched: far enough to cover a memory latency
// at a few nanoseconds an entry, near enough that the lines are still cached when used.
constexpr std::size_t prefetch_ahead = 64;
// Below this, passes run on one thread: starting a team costs more than it saves.
constexpr std::size_t parallel_min_length = std::size_t(1) << 16;

inline void prefetch(const void* p) { __builtin_prefetch(p, 0, 0); }

template <class S>
int team_size(S n, int threads) {
  return n >= parallel_min_length && threads > 1 ? threads : 1;
}

template <class S>
void fill_zero(S* a, S n, int threads) {
#ifdef _OPENMP
  const int t = team_size(n, threads);
#pragma omp parallel num_threads(t) if (t > 1)
  {
    const S parts = static_cast<S>(omp_get_num_threads()), me = static_cast<S>(omp_get_thread_num());
    const S lo = n / parts * me + std::min(me, n % parts), len = n / parts + (me < n % parts ? 1 : 0);
    std::memset(a + lo, 0, len * sizeof(S));
  }
#else
  (void)threads;
  std::memset(a, 0, n * sizeof(S));
#endif
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

// The bucket table of one level: `bucket` holds the current heads or tails; `count` the
// symbol counts when there is room to keep them, else they are counted again each time.
template <class S, class C>
struct bucket_table {
  const C* text;
  S n, k;
  S* count;  // may be null
  S* bucket;
  int threads;

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

// Calls f(p) for every LMS position p, from the last to the first.
template <class S, class C, class F>
void for_each_lms_descending(const C* text, S n, F&& f) {
  if (n < 2) return;
  bool next_is_s = false;  // the last suffix is L-type
  C next = text[n - 1];
  for (S i = n - 1; i-- > 0;) {
    const C here = text[i];
    const bool is_s = here < next || (here == next && next_is_s);
    if (!is_s && next_is_s) f(i + 1);
    next_is_s = is_s;
    next = here;
  }
}

// Prefetches for a scan reading sa[i]: the text before the entry `far` steps ahead, and for
// large alphabets (the reduced levels), the bucket of the entry `far / 2` ahead, whose text
// is cached by then, and the slot it points at.
template <class S, class C>
inline void prefetch_ahead_of(const C* text, const S* sa, const S* bucket, S ahead_far, S ahead_near) {
  prefetch(text + (ahead_far ? ahead_far - 1 : 0));
  if constexpr (sizeof(C) > 1) {
    if (ahead_near) {
      const S* b = bucket + text[ahead_near - 1];
      prefetch(b);
      prefetch(sa + *b);
    }
  }
}

// Induces the order of every suffix from the LMS suffixes already at their buckets' tails:
// L-type suffixes left to right at the heads, then S-type ones right to left at the tails
// (overwriting the LMS entries, which the second scan places again). With the LMS
// suffixes in any order this sorts the LMS substrings; in sorted order, all suffixes.
// With collect_lms, the S scan also gathers the LMS entries it passes, in sorted order,
// into sa[n - m, n) (those slots are read and never written again by then) and returns m.
template <bool collect_lms, class S, class C>
S induce(const C* text, S* sa, S n, bucket_table<S, C>& table) {
  constexpr S far = prefetch_ahead, near = prefetch_ahead / 2;
  S* bucket = table.bucket;
  table.heads();
  // The last suffix is the smallest of its bucket (the sentinel follows it) and L-type.
  sa[bucket[text[n - 1]]++] = n - 1;
  for (S i = 0; i < n; ++i) {
    if (i + far < n) prefetch_ahead_of(text, sa, bucket, sa[i + far], sa[i + near]);
    const S j = sa[i];
    // Here j is L-type or LMS, so j - 1 is L-type exactly when its symbol is not smaller.
    if (j > 0) {
      const C c = text[j - 1];
      if (c >= text[j]) sa[bucket[c]++] = j - 1;
    }
  }
  table.tails();
  S top = n;
  for (S i = n; i-- > 0;) {
    if (i >= far) prefetch_ahead_of(text, sa, bucket, sa[i - far], sa[i - near]);
    const S j = sa[i];
    if (j > 0) {
      const C c = text[j - 1], cj = text[j];
      // j is S-type when it sits in its bucket's S part, which the scan has filled down to
      // bucket[cj] (it is never read before it is filled): then an equal symbol before it
      // is S-type too.
      const bool j_is_s = i >= bucket[cj];
      if (c < cj || (c == cj && j_is_s)) sa[--bucket[c]] = j - 1;
      if constexpr (collect_lms) {
        if (j_is_s && c > cj) sa[--top] = j;
      }
    }
  }
  return n - top;
}

template <class S, class C>
bool same_lms_substring(const C* text, S p, S q, S length) {
  if constexpr (sizeof(C) == 1) return std::memcmp(text + p, text + q, length) == 0;
  for (S i = 0; i < length; ++i)
    if (text[p + i] != text[q + i]) return false;
  return true;
}

// The suffix array of text[0, n) over the alphabet [0, k) into sa[0, n); `free_space`
// (`free_length` entries, disjoint from text and sa) holds the bucket table if it fits.
template <class S, class C>
void sais(const C* text, S* sa, S n, S k, S* free_space, S free_length, int threads) {
  if (n == 0) return;
  if (n == 1) {
    sa[0] = 0;
    return;
  }
  std::vector<S> owned;
  bucket_table<S, C> table{text, n, k, nullptr, nullptr, threads};
  if (free_length >= 2 * k) {
    table.bucket = free_space;
    table.count = free_space + k;
  } else if (free_length >= k) {
    table.bucket = free_space;
  } else {
    owned.resize(sizeof(C) == 1 ? 2 * static_cast<std::size_t>(k) : static_cast<std::size_t>(k));
    table.bucket = owned.data();
    if (sizeof(C) == 1) table.count = owned.data() + k;
  }
  if (table.count) count_symbols(text, n, k, table.count, threads);

  // Stage 1: sort the LMS substrings by inducing from the LMS positions in text order.
  fill_zero(sa, n, threads);
  table.tails();
  S lms_count = 0;
  for_each_lms_descending(text, n, [&](S p) {
    sa[--table.bucket[text[p]]] = p;
    ++lms_count;
  });
  if (lms_count > 1) {
    // The LMS entries, in the order of their substrings, to sa[0, m).
    const S m = induce<true>(text, sa, n, table);
    std::memmove(sa, sa + (n - m), m * sizeof(S));
    // Name the LMS substrings: equal substrings share a name, in sorted order. Lengths
    // and then names are kept at sa[m + p / 2] (LMS positions are at least 2 apart).
    fill_zero(sa + m, n - m, threads);
    S next_lms = n, last_lms = 0;
    for_each_lms_descending(text, n, [&](S p) {
      if (next_lms == n) last_lms = p;
      sa[m + p / 2] = next_lms - p + 1;  // up to and including the next LMS symbol
      next_lms = p;
    });
    S names = 0, previous = 0, previous_length = 0;
    for (S i = 0; i < m; ++i) {
      if (i + prefetch_ahead < m) {
        const S ahead = sa[i + prefetch_ahead];
        prefetch(sa + m + ahead / 2);
        prefetch(text + ahead);
      }
      const S p = sa[i], length = sa[m + p / 2];
      // The last LMS substring runs into the sentinel: it equals no other.
      const bool same = i > 0 && length == previous_length && p != last_lms && previous != last_lms &&
                        same_lms_substring(text, p, previous, length);
      if (!same) ++names;
      sa[m + p / 2] = names;
      previous = p;
      previous_length = length;
    }
    if (names < m) {
      // The reduced text (names - 1 in text order) at the end of sa; its suffix array in
      // sa[0, m); between them, room for the deeper levels' buckets.
      S to = n;
      for (S i = n; i-- > m;)
        if (sa[i]) sa[--to] = sa[i] - 1;
      S* reduced = sa + (n - m);
      sais<S, S>(reduced, sa, m, names, sa + m, n - 2 * m, threads);
      // Map the reduced suffixes back to their LMS positions (in text order at the end).
      S at = n;
      for_each_lms_descending(text, n, [&](S p) { sa[--at] = p; });
      for (S i = 0; i < m; ++i) {
        if (i + prefetch_ahead < m) prefetch(reduced + sa[i + prefetch_ahead]);
        sa[i] = reduced[sa[i]];
      }
    }
    // Stage 2: the sorted LMS suffixes at their buckets' tails, then induce.
    fill_zero(sa + m, n - m, threads);
    table.tails();
    for (S i = m; i-- > 0;) {
      if (i >= prefetch_ahead) prefetch(text + sa[i - prefetch_ahead]);
      const S j = sa[i];
      sa[i] = 0;
      sa[--table.bucket[text[j]]] = j;
    }
  }
  induce<false>(text, sa, n, table);
}

template <class S>
void build(const std::uint8_t* text, S* sa, std::uint64_t n, int threads) {
  if (n == 0) return;
  try {
    sais<S, std::uint8_t>(text, sa, static_cast<S>(n), S(256), nullptr, S(0), threads < 1 ? 1 : threads);
  } catch (const std::bad_alloc&) {
    throw error(error_code::host_out_of_memory, "induced sorting ran out of host memory on " + std::to_string(n) +
                                                    " bytes");
  }
}

}  // namespace

std::size_t induced_scratch_bytes(std::uint64_t n, int index_bytes) {
  // Level 0's tables (counts and buckets of 256 symbols), and a level's bucket table of at
  // most n / 2 names when the suffix array's free part cannot hold it (n / 4 at most: the
  // reduced text and its suffix array take 2m of the n entries and m <= n / 2).
  return 2 * 256 * static_cast<std::size_t>(index_bytes) + static_cast<std::size_t>(n / 2) * index_bytes;
}

void induced_suffix_array(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n, int threads) {
  if (n > 0xFFFFFFFFull)
    throw error(error_code::invalid_input, "32-bit suffix array entries cannot index " + std::to_string(n) +
                                               " bytes (use 64-bit entries)");
  build(text, sa, n, threads);
}

void induced_suffix_array(const std::uint8_t* text, std::uint64_t* sa, std::uint64_t n, int threads) {
  build(text, sa, n, threads);
}

}  // namespace strix::backend::host
