// SPDX-License-Identifier: BSD-3-Clause
// SA-IS on host memory (see induced_sort.hpp). Conventions: a suffix is S-type when it is
// smaller than the next one and L-type when larger; the last suffix is L-type (an implicit
// sentinel, smaller than every symbol, follows the text). An LMS position is an S-type one
// right after an L-type one. Entries are unsigned and 0 doubles as "empty": suffix 0 has no
// predecessor to induce, so neither scan ever needs to tell the two apart.
#include "induced_sort.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
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
template <class S>
inline S* slot_address(S* a, S i) {
  return reinterpret_cast<S*>(reinterpret_cast<std::uintptr_t>(a) + static_cast<std::uintptr_t>(i) * sizeof(S));
}

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

template <class S, class C, class F>
void for_each_lms_descending(const C* text, S n, F&& f) {
  for_each_lms_in(text, n, S(0), n, f);
}

// Runs f(c, lo, hi) for the parts c of [0, n) split evenly over the team, in parallel.
template <class S, class F>
int split_parallel(S n, int threads, F&& f) {
  const int t = team_size(n, threads);
  const S part = (n + t - 1) / t;
#ifdef _OPENMP
#pragma omp parallel for num_threads(t) schedule(static, 1) if (t > 1)
#endif
  for (int c = 0; c < t; ++c) {
    const S lo = std::min<S>(n, part * c), hi = std::min<S>(n, lo + part);
    f(c, lo, hi);
  }
  return t;
}

// The m LMS positions of the text, in text order, into out[0, m). `part_counts`: the LMS
// positions in each part of split_parallel(n, threads), as store_lms_lengths counted them.
template <class S, class C>
void gather_lms(const C* text, S n, S* out, S m, int threads, const std::vector<S>& part_counts) {
  if (team_size(n, threads) == 1) {
    S at = m, spare;
    for_each_lms_descending(text, n, [&](S p, bool lms, C) {
      *store_target(lms, slot_address(out, at - 1), &spare) = p;
      at -= lms;
    });
    return;
  }
  // Each part writes its LMS positions from where the counts before it say.
  std::vector<S> first(part_counts.size() + 1, 0);
  for (std::size_t c = 0; c < part_counts.size(); ++c) first[c + 1] = first[c] + part_counts[c];
  split_parallel(n, threads, [&](int c, S lo, S hi) {
    S at = first[c + 1], spare;
    for_each_lms_in(text, n, lo, hi, [&](S p, bool lms, C) {
      *store_target(lms, slot_address(out, at - 1), &spare) = p;
      at -= lms;
    });
  });
}

// For every LMS position p, the length of its LMS substring (through the next LMS symbol)
// at sa[m + p / 2]; the last one's runs into the sentinel and is given n - p + 1. Returns
// the last LMS position; part_counts gets the number of LMS positions in each part of
// split_parallel(n, threads) (for gather_lms).
template <class S, class C>
S store_lms_lengths(const C* text, S n, S* slots, int threads, std::vector<S>& part_counts) {
  const int parts = team_size(n, threads);
  std::vector<S> lowest(parts, n), highest(parts, n);
  part_counts.assign(parts, 0);
  split_parallel(n, threads, [&](int c, S lo, S hi) {
    S next = n, high = n, count = 0, spare;
    for_each_lms_in(text, n, lo, hi, [&](S p, bool lms, C) {
      const bool first = next == n;
      *store_target(lms & !first, slots + p / 2, &spare) = next - p + 1;
      high = (lms & first) ? p : high;
      next = lms ? p : next;
      count += lms;
    });
    highest[c] = high;
    lowest[c] = next;
    part_counts[c] = count;
  });
  // Each part's last LMS substring ends in the next part that has one.
  S next = n, last = n;
  for (int c = parts; c-- > 0;) {
    if (highest[c] == n) continue;
    if (last == n) last = highest[c];
    slots[highest[c] / 2] = next == n ? n - highest[c] + 1 : next - highest[c] + 1;
    next = lowest[c];
  }
  return last;
}

// The scans prefetch the text before the entry `prefetch_ahead` steps ahead. (Prefetching
// the buckets too, in stages, made the reduced levels 1.5x slower: the loads that find the
// bucket stall the scan.)
template <class S, class C>
inline void prefetch_text_before(const C* text, S entry) {
  prefetch(text + entry - (entry != 0));
}

// One step of each scan, on the entry j = sa[i] (see induce).
// Stage 1 (clear_used) empties the slot of an entry whose predecessor it induced here: the
// S scan then passes it without reading the text (only entries before an S-type position
// still induce anything there, and the final order comes from stage 2).
template <bool clear_used, class S, class C>
inline void induce_l_step(const C* text, S* sa, S* bucket, S i, S j) {
  // Here j is L-type or LMS, so j - 1 is L-type exactly when its symbol is not smaller.
  if (j > 0) {
    const C c = text[j - 1];
    if (c >= text[j]) {
      sa[bucket[c]++] = j - 1;
      if constexpr (clear_used) sa[i] = 0;
    }
  }
}

template <bool collect_lms, class S, class C>
inline void induce_s_step(const C* text, S* sa, S* bucket, S i, S j, S& top) {
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

#ifdef _OPENMP
// The scans on several threads, a block of sa at a time (the idea of
// libsais' and of parallel SA-IS papers): the threads first read, for every entry of the
// block that is final already, the symbol before it and what the scan will do with it
// (the random reads of the text: nearly all of a scan's time), then one thread runs the
// scan over the block from those symbols. An entry the scan itself writes into the block
// is read again in the second phase. The result is the sequential scan's, exactly.
constexpr std::size_t parallel_block = std::size_t(1) << 16;

// What the first phase leaves for an entry: the symbol whose bucket gets an induced entry, or
// one of three marks above every symbol (bytes: 16 bits; names: their own type).
template <class S, class C>
struct block_symbols {
  using type = std::conditional_t<sizeof(C) == 1, std::uint16_t, S>;
  static constexpr type nothing_to_do = sizeof(C) == 1 ? type(258) : type(~type(0));
  static constexpr type read_again = type(nothing_to_do - 1), lms_here = type(nothing_to_do - 2);
};

// s_part: k entries, where each bucket's S part starts (the heads after the L scan).
template <bool collect_lms, class S, class C>
S induce_blocked(const C* text, S* sa, S n, bucket_table<S, C>& table, int threads, S* s_part) {
  using marks = block_symbols<S, C>;
  using block_symbol = typename marks::type;
  constexpr block_symbol nothing_to_do = marks::nothing_to_do, read_again = marks::read_again,
                         lms_here = marks::lms_here;
  S* bucket = table.bucket;
  const S k = table.k;
  std::vector<block_symbol> symbols(parallel_block);
  table.meter->add(symbols.size() * sizeof(block_symbol));
  block_symbol* sym = symbols.data();
  S top = n;
  table.heads();
  sa[bucket[text[n - 1]]++] = n - 1;
#pragma omp parallel num_threads(threads)
  {
    for (S a = 0; a < n; a += parallel_block) {
      const S e = std::min<S>(n, a + parallel_block);
      // L scan entries are written once, from empty: one that is set now is final.
#pragma omp for schedule(static)
      for (std::int64_t ii = a; ii < static_cast<std::int64_t>(e); ++ii) {
        const S i = static_cast<S>(ii);
        if (i + prefetch_ahead < e) prefetch_text_before(text, sa[i + prefetch_ahead]);
        const S j = sa[i];
        if (j == 0) sym[i - a] = read_again;
        else sym[i - a] = text[j - 1] >= text[j] ? static_cast<block_symbol>(text[j - 1]) : nothing_to_do;
      }
#pragma omp single
      for (S i = a; i < e; ++i) {
        const block_symbol v = sym[i - a];
        if (v == read_again) {
          induce_l_step<collect_lms>(text, sa, bucket, i, sa[i]);
        } else if (v != nothing_to_do) {
          sa[bucket[v]++] = sa[i] - 1;
          if constexpr (collect_lms) sa[i] = 0;
        }
      }
    }
#pragma omp single
    {
      std::copy(bucket, bucket + k, s_part);
      table.tails();
    }
    for (S e = n; e > 0;) {
      const S a = e > parallel_block ? e - parallel_block : 0;
      // An entry of a bucket's S part below the scan's tail is not placed yet (empty, or an
      // LMS entry the scan will overwrite): it is read again in the second phase.
#pragma omp for schedule(static)
      for (std::int64_t ii = a; ii < static_cast<std::int64_t>(e); ++ii) {
        const S i = static_cast<S>(ii);
        if (i + prefetch_ahead < e) prefetch_text_before(text, sa[i + prefetch_ahead]);
        const S j = sa[i];
        block_symbol v = read_again;
        if (j > 0) {
          const C cj = text[j];
          const bool j_is_s = i >= s_part[cj];
          if (!j_is_s || i >= bucket[cj]) {
            const C c = text[j - 1];
            if (c < cj || (c == cj && j_is_s)) v = static_cast<block_symbol>(c);
            else v = collect_lms && j_is_s && c > cj ? lms_here : nothing_to_do;
          }
        }
        sym[i - a] = v;
      }
#pragma omp single
      for (S i = e; i-- > a;) {
        const block_symbol v = sym[i - a];
        if (v == nothing_to_do) continue;
        if (v == read_again) induce_s_step<collect_lms>(text, sa, bucket, i, sa[i], top);
        else if (v == lms_here) sa[--top] = sa[i];
        else sa[--bucket[v]] = sa[i] - 1;
      }
      e = a;
    }
  }
  table.meter->remove(symbols.size() * sizeof(block_symbol));
  return n - top;
}
#endif

// Induces the order of every suffix from the LMS suffixes already at their buckets' tails:
// L-type suffixes left to right at the heads, then S-type ones right to left at the tails
// (overwriting the LMS entries, which the second scan places again). With the LMS
// suffixes in any order this sorts the LMS substrings; in sorted order, all suffixes.
// With collect_lms, the S scan also gathers the LMS entries it passes, in sorted order,
// into sa[n - m, n) (those slots are read and never written again by then) and returns m.
template <bool collect_lms, class S, class C>
S induce(const C* text, S* sa, S n, bucket_table<S, C>& table) {
#ifdef _OPENMP
  const int t = team_size(n, table.threads);
  if (t > 1 && table.s_part) return induce_blocked<collect_lms>(text, sa, n, table, t, table.s_part);
  if (t > 1) {
    // A reduced level whose suffix array has no room for the third table borrows one for the
    // length of the scans (k entries, at most a level's length; freed before the next level,
    // so the borrowed tables never add up), or runs on one thread if it cannot.
    std::vector<S> s_part;
    try {
      s_part.resize(table.k);
    } catch (const std::bad_alloc&) {
    }
    if (!s_part.empty()) {
      table.meter->add(s_part.size() * sizeof(S));
      const S m = induce_blocked<collect_lms>(text, sa, n, table, t, s_part.data());
      table.meter->remove(s_part.size() * sizeof(S));
      return m;
    }
  }
#endif
  S* bucket = table.bucket;
  table.heads();
  // The last suffix is the smallest of its bucket (the sentinel follows it) and L-type.
  sa[bucket[text[n - 1]]++] = n - 1;
  S spare;
  for (S i = 0; i < n; ++i) {
    if (i + prefetch_ahead < n) prefetch_text_before(text, sa[i + prefetch_ahead]);
    if constexpr (sizeof(C) == 1) {
      // Bytes: the same step without a branch on the text (the 256 heads are cached).
      const S j = sa[i];
      const C c = text[j - (j != 0)];
      const bool push = (j != 0) & (c >= text[j]);
      S& head = bucket[c];
      *store_target(push, slot_address(sa, head), &spare) = j - 1;
      head += push;
      if constexpr (collect_lms) sa[i] = j & (S(0) - S(!push));
    } else {
      induce_l_step<collect_lms>(text, sa, bucket, i, sa[i]);
    }
  }
  table.tails();
  S top = n;
  for (S i = n; i-- > 0;) {
    if (i >= prefetch_ahead) prefetch_text_before(text, sa[i - prefetch_ahead]);
    if constexpr (sizeof(C) == 1) {
      const S j = sa[i];
      const C c = text[j - (j != 0)], cj = text[j];
      const bool j_is_s = i >= bucket[cj];
      const bool push = (j != 0) & ((c < cj) | ((c == cj) & j_is_s));
      S& tail = bucket[c];
      tail -= push;
      *store_target(push, slot_address(sa, tail), &spare) = j - 1;
      if constexpr (collect_lms) {
        const bool lms = (j != 0) & j_is_s & (c > cj);
        top -= lms;
        *store_target(lms, slot_address(sa, top), &spare) = j;
      }
    } else {
      induce_s_step<collect_lms>(text, sa, bucket, i, sa[i], top);
    }
  }
  return n - top;
}

template <class S, class C>
bool same_lms_substring(const C* text, S n, S p, S q, S length) {
  if constexpr (sizeof(C) == 1) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    // Most LMS substrings of text are a few bytes long: compare them as one word each.
    if (length <= 8 && p + 8 <= n && q + 8 <= n) {
      std::uint64_t a, b;
      std::memcpy(&a, text + p, 8);
      std::memcpy(&b, text + q, 8);
      const std::uint64_t low = length == 8 ? ~std::uint64_t(0) : (std::uint64_t(1) << (8 * length)) - 1;
      return ((a ^ b) & low) == 0;
    }
#endif
    return std::memcmp(text + p, text + q, length) == 0;
  }
  for (S i = 0; i < length; ++i)
    if (text[p + i] != text[q + i]) return false;
  return true;
}

// Names the sorted LMS substrings in sa[0, m) (lengths at sa[m + p / 2], see
// store_lms_lengths): equal substrings share a name, names 1, 2, ... in sorted order, each
// written over its length. Returns the number of names. On several threads (when the top
// bit of an entry is free) the threads first mark where a new name starts, reading only,
// then name their parts from the counts of the parts before.
template <class S, class C>
S name_lms_substrings(const C* text, S n, S* sa, S m, S last_lms, int threads) {
  S* slots = sa + m;
  // The last LMS substring runs into the sentinel: it equals no other.
  const auto differs = [&](S p, S length, S q, S q_length) {
    return length != q_length || p == last_lms || q == last_lms || !same_lms_substring(text, n, p, q, length);
  };
  constexpr S top = S(1) << (8 * sizeof(S) - 1);
  const int parts = team_size(m, threads);
  if (parts == 1 || n >= top) {
    S names = 0, previous = 0, previous_length = 0;
    for (S i = 0; i < m; ++i) {
      if (i + prefetch_ahead < m) {
        const S ahead = sa[i + prefetch_ahead];
        prefetch(slots + ahead / 2);
        prefetch(text + ahead);
      }
      const S p = sa[i], length = slots[p / 2];
      if (i == 0 || differs(p, length, previous, previous_length)) ++names;
      slots[p / 2] = names;
      previous = p;
      previous_length = length;
    }
    return names;
  }
  // Each part's first entry is compared with the entry before the part, read before any
  // part marks its entries.
  std::vector<S> before(parts, 0), before_length(parts, 0), starts(static_cast<std::size_t>(parts) + 1, 0);
  split_parallel(m, threads, [&](int c, S lo, S) {
    if (lo > 0) {
      before[c] = sa[lo - 1];
      before_length[c] = slots[before[c] / 2];
    }
  });
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    S previous = before[c], previous_length = before_length[c], count = 0;
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) {
        const S ahead = sa[i + prefetch_ahead];
        prefetch(slots + ahead / 2);
        prefetch(text + ahead);
      }
      const S p = sa[i], length = slots[p / 2];
      if (i == 0 || differs(p, length, previous, previous_length)) {
        sa[i] = p | top;
        ++count;
      }
      previous = p;
      previous_length = length;
    }
    starts[c + 1] = count;
  });
  for (int c = 0; c < parts; ++c) starts[c + 1] += starts[c];
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    S name = starts[c];
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(slots + (sa[i + prefetch_ahead] & ~top) / 2);
      S p = sa[i];
      if (p & top) {
        ++name;
        p &= ~top;
        sa[i] = p;
      }
      slots[p / 2] = name;
    }
  });
  return starts[parts];
}

// Moves the m sorted LMS suffixes in sa[0, m) to the tails of their buckets (`tail`: one past
// each bucket's last slot), in order, emptying the slots they leave; sa[m, n) is empty. Each
// entry's target is at or above its slot, so going down from the last is safe. Bytes: the
// entries of one symbol are contiguous, so each bucket's are found by binary search and moved
// as a block; larger alphabets move entry by entry.
template <class S, class C>
void place_sorted_lms(const C* text, S* sa, S m, S* tail) {
  if constexpr (sizeof(C) == 1) {
    S hi = m;
    for (int c = 255; c >= 0 && hi > 0; --c) {
      const S lo = static_cast<S>(
          std::partition_point(sa, sa + hi, [&](S p) { return text[p] < static_cast<C>(c); }) - sa);
      const S count = hi - lo, to = tail[c] - count;
      if (count > 0 && to != lo) {
        std::memmove(sa + to, sa + lo, count * sizeof(S));
        std::fill(sa + lo, sa + std::min(hi, to), S(0));
      }
      hi = lo;
    }
  } else {
    for (S i = m; i-- > 0;) {
      if (i >= prefetch_ahead) prefetch(text + sa[i - prefetch_ahead]);
      const S j = sa[i];
      sa[i] = 0;
      sa[--tail[text[j]]] = j;
    }
  }
}

// The suffix array of text[0, n) over the alphabet [0, k) into sa[0, n); `free_space`
// (`free_length` entries, disjoint from text and sa) holds the bucket table if it fits.
template <class S, class C>
void sais(const C* text, S* sa, S n, S k, S* free_space, S free_length, int threads, scratch_meter& meter) {
  if (n == 0) return;
  if (n == 1) {
    sa[0] = 0;
    return;
  }
  std::vector<S> owned;
  bucket_table<S, C> table{text, n, k, nullptr, nullptr, threads, &meter, nullptr};
  // The scans run on several threads when a third table fits: always for bytes, for names
  // when the free part holds it (about the first reduced level on text).
  if (free_length >= 3 * k && threads > 1) {
    table.bucket = free_space;
    table.count = free_space + k;
    table.s_part = free_space + 2 * k;
  } else if (free_length >= 2 * k) {
    table.bucket = free_space;
    table.count = free_space + k;
  } else if (free_length >= k) {
    table.bucket = free_space;
  } else {
    owned.resize(sizeof(C) == 1 ? 3 * static_cast<std::size_t>(k) : static_cast<std::size_t>(k));
    meter.add(owned.size() * sizeof(S));
    table.bucket = owned.data();
    if (sizeof(C) == 1) {
      table.count = owned.data() + k;
      table.s_part = owned.data() + 2 * k;
    }
  }
  if (table.count) count_symbols(text, n, k, table.count, threads);

  // Stage 1: sort the LMS substrings by inducing from the LMS positions in text order.
  fill_zero(sa, n, threads);
  table.tails();
  S lms_count = 0, spare;
  for_each_lms_descending(text, n, [&](S p, bool lms, C symbol) {
    if constexpr (sizeof(C) == 1) {  // the 256 tails are cached: no branch
      S& tail = table.bucket[symbol];
      tail -= lms;
      *store_target(lms, slot_address(sa, tail), &spare) = p;
    } else if (lms) {  // a bucket of names is a cache miss: only for LMS positions
      sa[--table.bucket[symbol]] = p;
    }
    lms_count += lms;
  });
  if (lms_count > 1) {
    // The LMS entries, in the order of their substrings, to sa[0, m).
    const S m = induce<true>(text, sa, n, table);
    std::memmove(sa, sa + (n - m), m * sizeof(S));
    // Name the LMS substrings: equal substrings share a name, in sorted order. Lengths
    // and then names are kept at sa[m + p / 2] (LMS positions are at least 2 apart).
    fill_zero(sa + m, n - m, threads);
    std::vector<S> part_counts;
    const S last_lms = store_lms_lengths(text, n, sa + m, threads, part_counts);
    const S names = name_lms_substrings(text, n, sa, m, last_lms, threads);
    if (names < m) {
      // The reduced text (names - 1 in text order) at the end of sa; its suffix array in
      // sa[0, m); between them, room for the deeper levels' buckets.
      S to = n, spare;
      for (S i = n; i-- > m;) {
        const S name = sa[i];
        *store_target(name != 0, slot_address(sa, to - 1), &spare) = name - 1;
        to -= name != 0;
      }
      S* reduced = sa + (n - m);
      sais<S, S>(reduced, sa, m, names, sa + m, n - 2 * m, threads, meter);
      // Map the reduced suffixes back to their LMS positions (in text order at the end).
      gather_lms(text, n, reduced, m, threads, part_counts);
      split_parallel(m, threads, [&](int, S lo, S hi) {
        for (S i = lo; i < hi; ++i) {
          if (i + prefetch_ahead < hi) prefetch(reduced + sa[i + prefetch_ahead]);
          sa[i] = reduced[sa[i]];
        }
      });
    }
    // Stage 2: the sorted LMS suffixes at their buckets' tails, then induce.
    fill_zero(sa + m, n - m, threads);
    table.tails();
    place_sorted_lms(text, sa, m, table.bucket);
  }
  induce<false>(text, sa, n, table);
  meter.remove(owned.size() * sizeof(S));
}

template <class S>
std::size_t build(const std::uint8_t* text, S* sa, std::uint64_t n, int threads) {
  if (n == 0) return 0;
  scratch_meter meter;
  try {
    sais<S, std::uint8_t>(text, sa, static_cast<S>(n), S(256), nullptr, S(0), threads < 1 ? 1 : threads, meter);
  } catch (const std::bad_alloc&) {
    throw error(error_code::host_out_of_memory, "induced sorting ran out of host memory on " + std::to_string(n) +
                                                    " bytes");
  }
  return meter.peak;
}

}  // namespace

std::size_t induced_scratch_bytes(std::uint64_t n, int index_bytes) {
  // Level 0's tables (counts and buckets of 256 symbols), and a level's bucket table of at
  // most n / 2 names when the suffix array's free part cannot hold it (n / 4 at most: the
  // reduced text and its suffix array take 2m of the n entries and m <= n / 2).
  return 2 * 256 * static_cast<std::size_t>(index_bytes) + static_cast<std::size_t>(n / 2) * index_bytes;
}

std::size_t induced_suffix_array(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n, int threads) {
  if (n > 0xFFFFFFFFull)
    throw error(error_code::invalid_input, "32-bit suffix array entries cannot index " + std::to_string(n) +
                                               " bytes (use 64-bit entries)");
  return build(text, sa, n, threads);
}

std::size_t induced_suffix_array(const std::uint8_t* text, std::uint64_t* sa, std::uint64_t n, int threads) {
  return build(text, sa, n, threads);
}

}  // namespace strix::backend::host
