// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The induced sort's scans that read the text for every entry they pass: the first level
// of texts of 2^31 bytes and more on 32-bit entries runs them, where the entries' top bit,
// which the marked scans (induced_scans.hpp) use, is taken. Backend sources only.
#include <type_traits>
#include <vector>

#include "induced_common.hpp"

namespace strix::backend::host::induced {

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
S induce_blocked_unmarked(const C* text, S* sa, S n, bucket_table<S, C>& table, int threads, S* s_part) {
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
// These scans read the text for every entry they pass; induce_marked below reads it about
// half as often but needs the entries' top bit, which 32-bit entries of texts of 2^31 bytes
// and more do not have free: those texts' first level runs these.
template <bool collect_lms, class S, class C>
S induce_unmarked(const C* text, S* sa, S n, bucket_table<S, C>& table) {
#ifdef _OPENMP
  const int t = team_size(n, table.threads);
  S m = 0;
  if (t > 1 && with_third_table(table, true, [&](S* s_part) {
        m = induce_blocked_unmarked<collect_lms>(text, sa, n, table, t, s_part);
      }))
    return m;
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

}  // namespace strix::backend::host::induced
