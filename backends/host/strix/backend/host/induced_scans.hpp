// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The induced sort's scans: from the LMS suffixes at their buckets' tails, the L-type
// suffixes left to right and then the S-type ones right to left, on one thread or a block
// at a time on several. Backend sources only.
#include <type_traits>
#include <vector>

#include "induced_common.hpp"
#include "induced_scans_unmarked.hpp"

namespace strix::backend::host::induced {

// The scans with each entry's next step in its top bit (the idea of Mori's sais and of
// libsais): an entry p written by a scan carries a mark when the suffix before it, p - 1,
// is S-type, read from the text line that was loaded for p anyway. The L scan then acts on
// unmarked entries only and the S scan on marked ones only, and neither reads the text for
// the entries it passes: one random text read per suffix and stage instead of nearly two
// (the scans' time is in those reads). Needs the top bit free: n < 2^31 on 32-bit entries;
// the reduced levels always have it.
template <class S>
constexpr S mark_bit = S(1) << (8 * sizeof(S) - 1);

// The entry for suffix p induced by an L scan (p is L-type: p - 1 is S-type when smaller)
// or by an S scan (p is S-type: p - 1 is S-type when not larger).
template <bool l_scan, class S, class C>
inline S marked_entry(const C* text, S p, C c, C& before) {
  before = text[p - (p != 0)];
  const bool s_before = (p != 0) & (l_scan ? before < c : before <= c);
  return p | (S(s_before) << (8 * sizeof(S) - 1));
}
template <bool l_scan, class S, class C>
inline S marked_entry(const C* text, S p, C c) {
  C before;
  return marked_entry<l_scan>(text, p, c, before);
}

// Where a scan will read the text for entry v, to prefetch (0, a cached line, when it will
// not read it): the L scan reads for unmarked entries, the S scan for marked ones.
template <bool l_scan, class S>
inline S marked_read_at(S v) {
  const S j = v & ~mark_bit<S>;
  const bool reads = l_scan ? (v & mark_bit<S>) == 0 : (v & mark_bit<S>) != 0;
  // By mask: compiled as a branch, this test was mispredicted about every other entry and
  // cost the blocked scans on DNA 10-20 % (the flushes dropped the loads issued behind it).
  return (j - 2) & (S(0) - S(reads & (j >= 2)));
}

#ifdef _OPENMP
// What the first phase of a blocked scan leaves for an entry: the symbol whose bucket gets
// the induced entry and the mark of that entry (bytes: 9 bits; names: the top bit), or one
// of three codes above them.
// With the BWT (bytes only), 32-bit codes also carry the symbol before the induced suffix
// in bits 16-23.
template <class S, class C, bool bwt = false>
struct marked_symbols {
  static_assert(!bwt || sizeof(C) == 1, "the BWT is made on the byte level");
  using type = std::conditional_t<bwt, std::uint32_t, std::conditional_t<sizeof(C) == 1, std::uint16_t, S>>;
  static constexpr type nothing_to_do = bwt ? type(~type(0)) : sizeof(C) == 1 ? type(514) : type(~type(0));
  static constexpr type read_again = type(nothing_to_do - 1), lms_here = type(nothing_to_do - 2);
  static constexpr int mark_shift = sizeof(C) == 1 ? 8 : 8 * sizeof(S) - 1;
  static type encode(S entry, C c) { return static_cast<type>(c) | static_cast<type>(type(entry >> (8 * sizeof(S) - 1)) << mark_shift); }
  static type encode(S entry, C c, C before) { return encode(entry, c) | (type(before) << 16); }
  static C symbol(type v) { return static_cast<C>(v & ((type(1) << mark_shift) - 1)); }
  static S mark(type v) { return S((v >> mark_shift) & 1) << (8 * sizeof(S) - 1); }
  static std::uint8_t before(type v) { return static_cast<std::uint8_t>(v >> 16); }
};

// Whether every entry that the parts of block [a, e) induce lands outside the block: each
// induced symbol's head at or past e (L scan) or its tail at or before a (S scan). Then nothing
// is induced into the block while it is placed, so its empty entries stay empty (the S scan
// has none then: an S part is filled from above before the scan reaches it) and the parts can
// be placed at once; `offsets` (256 counts a part) become each part's first slot per symbol in
// scan order (the parts after, in scan order, start where the ones before end) and the buckets
// move past them. Otherwise nothing changes.
template <bool l_scan, class S>
bool parts_place_outside(S* offsets, S* bucket, int parts, S a, S e) {
  for (int c = 0; c < 256; ++c) {
    S total = 0;
    for (int t = 0; t < parts; ++t) total += offsets[256 * t + c];
    if (total > 0 && (l_scan ? bucket[c] < e : bucket[c] > a)) return false;
  }
  for (int c = 0; c < 256; ++c) {
    S at = bucket[c];
    for (int j = 0; j < parts; ++j) {
      const int t = l_scan ? j : parts - 1 - j;  // the S scan goes down: the last part first
      const S count = offsets[256 * t + c];
      offsets[256 * t + c] = at;
      at = l_scan ? at + count : at - count;
    }
    bucket[c] = at;
  }
  return true;
}

// The marked scans a block of sa at a time: the threads read the text for the entries of
// the block that are final already and leave the symbol and mark of what each induces;
// then one thread runs the scan over the block from those (it reads again the entries the
// scan itself writes into the block). An entry is final when it is set: the L scan writes
// into empty slots only, and before the S scan the S parts of the buckets are emptied (the
// LMS entries there were used by the L scan; stage 1's L scan empties them as it goes).
// `s_start`: k entries, for where each bucket's S part starts. The result is the
// sequential scans', exactly.
template <bool collect_lms, bool bwt, class S, class C>
S induce_marked_blocked(const C* text, S* sa, S n, bucket_table<S, C>& table, int threads, S* s_start,
                        [[maybe_unused]] std::uint8_t* out) {
  static_assert(!(bwt && collect_lms), "the BWT comes from stage 2");
  using code = marked_symbols<S, C, bwt>;
  using block_symbol = typename code::type;
  constexpr S mark = mark_bit<S>;
  S* bucket = table.bucket;
  const S k = table.k;
  std::vector<block_symbol> symbols(parallel_block);
  // Stage 2 of bytes places a block on all threads when none of its entries can induce into
  // the block itself (`placed_by_all`): then each thread places the entries of its own part,
  // from the part's counts per symbol (`offsets`: counts, then where the part's entries of each
  // symbol go). Otherwise (a bucket's head or tail inside the block) one thread runs the scan
  // over the block, as it must to see the entries induced into it.
  constexpr bool place_by_all = sizeof(C) == 1 && !collect_lms;
  std::vector<S> offsets(place_by_all ? 256 * static_cast<std::size_t>(threads) : 0);
  table.meter->add(symbols.size() * sizeof(block_symbol) + offsets.size() * sizeof(S));
  block_symbol* sym = symbols.data();
  bool placed_by_all = false;
  S top = n;
  table.heads();
  {
    C before;
    const S slot = bucket[text[n - 1]]++;
    sa[slot] = marked_entry<true>(text, n - 1, text[n - 1], before);
    if constexpr (bwt) out[slot] = before;
  }
#pragma omp parallel num_threads(threads)
  {
    const int me = omp_get_thread_num();
    [[maybe_unused]] S* mine = place_by_all ? offsets.data() + 256 * me : nullptr;
    for (S a = 0; a < n; a += parallel_block) {
      const S e = std::min<S>(n, a + parallel_block);
      S lo, hi;
      part_bounds(e - a, threads, me, lo, hi);
      lo += a, hi += a;
      if constexpr (place_by_all) std::fill(mine, mine + 256, S(0));
      for (S i = lo; i < hi; ++i) {
        if (i + prefetch_ahead < e) prefetch(text + marked_read_at<true>(sa[i + prefetch_ahead]));
        const S v = sa[i];
        if (v == 0) sym[i - a] = code::read_again;
        else if (v & mark) sym[i - a] = code::nothing_to_do;
        else {
          const C c = text[v - 1];
          C before;
          const S entry = marked_entry<true>(text, v - 1, c, before);
          sym[i - a] = bwt ? code::encode(entry, c, before) : code::encode(entry, c);
          if constexpr (place_by_all) ++mine[c];
        }
      }
#pragma omp barrier
#pragma omp single
      {
        placed_by_all = place_by_all && parts_place_outside<true>(offsets.data(), bucket, threads, a, e);
        if (!placed_by_all) {
          for (S i = a; i < e; ++i) {
            const block_symbol s = sym[i - a];
            if (s == code::nothing_to_do) continue;
            const S v = sa[i];
            if (s == code::read_again) {
              if (v == 0 || (v & mark)) continue;
              const C c = text[v - 1];
              C before;
              const S slot = bucket[c]++;
              sa[slot] = marked_entry<true>(text, v - 1, c, before);
              if constexpr (bwt) out[slot] = before;
            } else {
              const S slot = bucket[code::symbol(s)]++;
              sa[slot] = (v - 1) | code::mark(s);
              if constexpr (bwt) out[slot] = code::before(s);
            }
            if constexpr (collect_lms) sa[i] = 0;
          }
        }
      }
      if constexpr (place_by_all) {
        if (placed_by_all) {
          for (S i = lo; i < hi; ++i) {
            const block_symbol s = sym[i - a];
            if (s >= code::lms_here) continue;  // passed, or empty (and stays so)
            const S slot = mine[code::symbol(s)]++;
            sa[slot] = (sa[i] - 1) | code::mark(s);
            if constexpr (bwt) out[slot] = code::before(s);
          }
#pragma omp barrier
        }
      }
    }
#pragma omp single
    {
      if constexpr (!collect_lms) std::copy(bucket, bucket + k, s_start);
      table.tails();
    }
    if constexpr (!collect_lms) {
      // Buckets by small dynamic chunks (their sizes vary): one at a time for bytes, more for
      // names, where one at a time cost an atomic step a bucket (2x the scans' time on
      // english's small levels at 2 threads).
      const std::int64_t chunk = std::max<std::int64_t>(1, static_cast<std::int64_t>(k) / (64 * threads));
#pragma omp for schedule(dynamic, chunk)
      for (std::int64_t c = 0; c < static_cast<std::int64_t>(k); ++c)
        if (s_start[c] < bucket[c]) std::memset(sa + s_start[c], 0, (bucket[c] - s_start[c]) * sizeof(S));
    }
    // Stage 2's marks are cleared by the threads a block late, beside the next block's first
    // phase (the block is cached still, and the one thread of the second phase is spared).
    S unmark_end = n;
    for (S e = n; e > 0;) {
      const S a = e > parallel_block ? e - parallel_block : 0;
      if constexpr (!collect_lms && !bwt) {
#pragma omp for schedule(static) nowait
        for (std::int64_t ii = e; ii < static_cast<std::int64_t>(unmark_end); ++ii) sa[ii] &= ~mark;
        unmark_end = e;
      }
      S lo, hi;
      part_bounds(e - a, threads, me, lo, hi);
      lo += a, hi += a;
      if constexpr (place_by_all) std::fill(mine, mine + 256, S(0));
      for (S i = lo; i < hi; ++i) {
        if (i + prefetch_ahead < e) prefetch(text + marked_read_at<false>(sa[i + prefetch_ahead]));
        const S v = sa[i];
        if (v == 0) sym[i - a] = code::read_again;
        else if (v & mark) {
          const S p = (v & ~mark) - 1;
          const C c = text[p];
          C before;
          const S entry = marked_entry<false>(text, p, c, before);
          sym[i - a] = bwt ? code::encode(entry, c, before) : code::encode(entry, c);
          if constexpr (place_by_all) ++mine[c];
        } else sym[i - a] = collect_lms ? code::lms_here : code::nothing_to_do;
      }
#pragma omp barrier
#pragma omp single
      {
        placed_by_all = place_by_all && parts_place_outside<false>(offsets.data(), bucket, threads, a, e);
        if (!placed_by_all) {
          for (S i = e; i-- > a;) {
            const block_symbol s = sym[i - a];
            if (s == code::nothing_to_do) continue;
            const S v = sa[i];
            if (s == code::lms_here) {
              sa[--top] = v;
            } else if (s == code::read_again) {
              if (v & mark) {
                const S p = (v & ~mark) - 1;
                const C c = text[p];
                C before;
                const S slot = --bucket[c];
                sa[slot] = marked_entry<false>(text, p, c, before);
                if constexpr (bwt) out[slot] = before;
              } else if (collect_lms && v != 0) {
                sa[--top] = v;
              }
            } else {
              const S slot = --bucket[code::symbol(s)];
              sa[slot] = ((v & ~mark) - 1) | code::mark(s);
              if constexpr (bwt) out[slot] = code::before(s);
            }
          }
        }
      }
      if constexpr (place_by_all) {
        if (placed_by_all) {
          for (S i = hi; i-- > lo;) {
            const block_symbol s = sym[i - a];
            if (s >= code::lms_here) continue;  // passed (no empty entry: see parts_place_outside)
            const S slot = --mine[code::symbol(s)];
            sa[slot] = ((sa[i] & ~mark) - 1) | code::mark(s);
            if constexpr (bwt) out[slot] = code::before(s);
          }
#pragma omp barrier
        }
      }
      e = a;
    }
    if constexpr (!collect_lms && !bwt) {
#pragma omp for schedule(static)
      for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(unmark_end); ++ii) sa[ii] &= ~mark;
    }
  }
  table.meter->remove(symbols.size() * sizeof(block_symbol) + offsets.size() * sizeof(S));
  return n - top;
}
#endif

// induce_unmarked's result with marked entries (see mark_bit): the LMS entries start
// unmarked (the suffix before an LMS one is L-type), and the scans leave every entry
// unmarked. Stage 1's L scan also empties the entries it induced from. Needs
// n < mark_bit<S>. With `bwt` (stage 2 of a byte text, for induced_bwt), the BWT's symbol of
// each row goes to out[row] and the entries keep their marks: the symbol before a suffix is
// read when the suffix is induced (for its mark), which is when its row is known, and every
// row but suffix 0's is induced exactly once in stage 2 (suffix n - 1 placed first, the other
// L-type ones by the L scan, all S-type ones by the S scan after the LMS seeds are cleared).
template <bool collect_lms, bool bwt = false, class S, class C>
S induce_marked(const C* text, S* sa, S n, bucket_table<S, C>& table, [[maybe_unused]] std::uint8_t* out = nullptr) {
  static_assert(!bwt || (sizeof(C) == 1 && !collect_lms), "the BWT comes from stage 2 of the byte level");
  constexpr S mark = mark_bit<S>;
#ifdef _OPENMP
  const int t = scan_team_size<S, C>(n, table.threads);
  S m = 0;
  // Stage 1's blocked scans do not use the third table (only stage 2 empties the S parts).
  if (t > 1 && with_third_table(table, !collect_lms, [&](S* s_start) {
        m = induce_marked_blocked<collect_lms, bwt>(text, sa, n, table, t, s_start, out);
      }))
    return m;
#endif
  S* bucket = table.bucket;
  table.heads();
  // The last suffix is the smallest of its bucket (the sentinel follows it) and L-type.
  {
    C before;
    const S slot = bucket[text[n - 1]]++;
    sa[slot] = marked_entry<true>(text, n - 1, text[n - 1], before);
    if constexpr (bwt) out[slot] = before;
  }
  S spare;
  [[maybe_unused]] std::uint8_t spare_symbol;
  for (S i = 0; i < n; ++i) {
    if (i + prefetch_ahead < n) prefetch(text + marked_read_at<true>(sa[i + prefetch_ahead]));
    const S v = sa[i];
    if constexpr (sizeof(C) == 1) {
      // Bytes: without a branch on the mark (the 256 heads are cached); an entry the scan
      // passes reads text[0] and stores into `spare`.
      const bool push = (v != 0) & ((v & mark) == 0);
      const S p = (v - 1) & (S(0) - S(push));
      const C c = text[p];
      S& head = bucket[c];
      C before;
      *store_target(push, slot_address(sa, head), &spare) = marked_entry<true>(text, p, c, before);
      if constexpr (bwt) *store_target(push, slot_address(out, head), &spare_symbol) = before;
      head += push;
      if constexpr (collect_lms) sa[i] = v & (S(0) - S(!push));
    } else if (v != 0 && !(v & mark)) {
      const C c = text[v - 1];
      sa[bucket[c]++] = marked_entry<true>(text, v - 1, c);
      if constexpr (collect_lms) sa[i] = 0;
    }
  }
  table.tails();
  S top = n;
  for (S i = n; i-- > 0;) {
    if (i >= prefetch_ahead) prefetch(text + marked_read_at<false>(sa[i - prefetch_ahead]));
    const S v = sa[i];
    if constexpr (sizeof(C) == 1) {
      const bool push = (v & mark) != 0;
      const S p = ((v & ~mark) - 1) & (S(0) - S(push));
      const C c = text[p];
      S& tail = bucket[c];
      tail -= push;
      C before;
      *store_target(push, slot_address(sa, tail), &spare) = marked_entry<false>(text, p, c, before);
      if constexpr (bwt) *store_target(push, slot_address(out, tail), &spare_symbol) = before;
      if constexpr (collect_lms) {
        const bool lms = (v != 0) & !push;
        top -= lms;
        *store_target(lms, slot_address(sa, top), &spare) = v;
      } else if constexpr (!bwt) {
        sa[i] = v & ~mark;
      }
    } else if (v & mark) {
      const S p = (v & ~mark) - 1;
      const C c = text[p];
      sa[--bucket[c]] = marked_entry<false>(text, p, c);
      if constexpr (!collect_lms) sa[i] = v & ~mark;
    } else if (collect_lms && v != 0) {
      sa[--top] = v;
    }
  }
  return n - top;
}

// The scans for a level: marked when the top bit is free (always but for 32-bit entries of
// texts of 2^31 bytes and more, or when a test asks for the unmarked ones).
template <bool collect_lms, class S, class C>
S induce(const C* text, S* sa, S n, bucket_table<S, C>& table, bool marks) {
  return marks ? induce_marked<collect_lms>(text, sa, n, table) : induce_unmarked<collect_lms>(text, sa, n, table);
}

// Stage 2's scans for a level: the suffix array, or with `bwt_out` (bytes with marks only) the
// BWT's symbols by row.
template <class S, class C>
void induce_final(const C* text, S* sa, S n, bucket_table<S, C>& table, bool marks, std::uint8_t* bwt_out) {
  if constexpr (sizeof(C) == 1)
    if (bwt_out) {
      induce_marked<false, true>(text, sa, n, table, bwt_out);
      return;
    }
  induce<false>(text, sa, n, table, marks);
}

}  // namespace strix::backend::host::induced
