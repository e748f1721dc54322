// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Stage 1's marked scans on a byte text that also name the LMS substrings as they sort them
// (the "distinct" marks of sais-lite and libsais; strix's own code), so that the level needs
// neither a walk for the substrings' lengths nor a comparison of neighbours, which took 10 %
// of a run on English and on linux.tar (their long repeated substrings are compared byte by
// byte). Backend sources only.
//
// Two entries of the sort are equal when their LMS prefixes (the text from the entry through
// the next LMS position) are. The scans count the boundaries between groups of equal entries
// that they have passed (`group`), and an induced entry starts a new group in its bucket when
// a boundary was passed since the last entry induced into that bucket (its source differs from
// that entry's source). The boundary sits in the second bit from the top of an entry
// (distinct_bit): in the L scan on the right entry of the pair (the scan reads it as it
// crosses), in the S scan on the left one (likewise, going down); the L scan moves each bit one
// slot to the left once it has passed both entries, so that the S scan finds them where it
// needs them (the blocked scans; the one-thread scans keep the entries each scan reads apart
// instead, see induce_lms_named_one_thread). The LMS entries the S scan collects carry the bit
// when their substring differs from the next larger one: names are then a count
// (name_from_distinct_bits).
#include <cstdint>
#include <cstring>
#include <vector>

#include "induced_lms_walk.hpp"
#include "induced_scans.hpp"

namespace strix::backend::host::induced {

// Needs n < distinct_bit<S> (the mark takes the top bit).
template <class S>
constexpr S distinct_bit = mark_bit<S> >> 1;

template <class S>
constexpr S distinct_if(bool b) {
  return S(b) << (8 * sizeof(S) - 2);
}

// Marks the lowest LMS seed of each bucket as the start of a group (all seeds of one bucket
// are equal: their prefix is their symbol). `lowest`: each bucket's lowest seed slot, as the
// placement left the tails. A bucket without seeds points at the next bucket's first slot,
// which holds a seed only when that bucket's lowest one is there, so marking it is right.
template <class S>
void mark_seed_groups(S* sa, S n, const S* lowest, S k) {
  for (S c = 0; c < k; ++c)
    if (lowest[c] < n && sa[lowest[c]] != 0) sa[lowest[c]] |= distinct_bit<S>;
}

#ifdef _OPENMP
// What the blocked scans' first phase leaves for an entry: the symbol whose bucket gets the
// induced entry, that entry's mark, the entry's boundary bit, and what to do.
struct named_code {
  using type = std::uint16_t;
  static constexpr type mark = 1 << 8, boundary = 1 << 9;
  static constexpr type kind = 3 << 10, induce = 0, nothing = 1 << 10, read_again = 2 << 10, lms_here = 3 << 10;
  template <class S>
  static type encode(S entry, std::uint8_t c) {
    return static_cast<type>(c | (entry >> (8 * sizeof(S) - 1) << 8));
  }
  template <class S>
  static type boundary_of(S entry) {
    return (entry & distinct_bit<S>) ? boundary : type(0);
  }
  template <class S>
  static S entry_mark(type v) {
    return S((v & mark) != 0) << (8 * sizeof(S) - 1);
  }
};

// Where each part of a block starts in the scans' running state when all threads place the
// block (see parts_place_outside): the group count, and per symbol the group of the last entry
// induced into that bucket before the part. Phase 1 leaves each part's boundary count and, per
// symbol, the part's last induction's group counted from the part's start (`none`: none);
// `start` turns them into the parts' starting state, in scan order, and moves the shared
// state past the block.
template <class S>
struct named_parts {
  static constexpr S none = ~S(0);
  std::vector<S> last;      // 256 a part
  std::vector<S> groups;    // a part's boundaries, then the group count where it starts
  std::vector<S> lms;       // S scan: a part's LMS entries, then where they go (below)
  std::vector<S> lms_last;  // S scan: the group of the part's last LMS entry, then before it
  explicit named_parts(int parts) : last(256 * std::size_t(parts)), groups(parts), lms(parts), lms_last(parts) {}
  std::size_t bytes() const { return (last.size() + 3 * groups.size()) * sizeof(S); }

  void start(int parts, bool l_scan, S& group, S* bucket_last, S& top, S& lms_group) {
    for (int j = 0; j < parts; ++j) {
      const int t = l_scan ? j : parts - 1 - j;  // the S scan goes down: the last part first
      const S base = group;
      S* mine = last.data() + 256 * std::size_t(t);
      for (int c = 0; c < 256; ++c) {
        const S ends = mine[c];
        mine[c] = bucket_last[c];
        if (ends != none) bucket_last[c] = base + ends;
      }
      if (!l_scan) {
        const S count = lms[t], ends = lms_last[t];
        lms[t] = top;
        lms_last[t] = lms_group;
        top -= count;
        if (ends != none) lms_group = base + ends;
      }
      group = base + groups[t];
      groups[t] = base;
    }
  }
};

// The named scans a block at a time on several threads (see induce_marked_blocked): phase 1
// reads the text for the block's final entries on all threads; then, when nothing the block
// induces lands inside it (and, in the S scan, the LMS entries it collects land above it), each
// thread places its own part's entries from its counts, else one thread runs the scans over
// the block from phase 1's codes.
template <class S>
S induce_lms_named_blocked(const std::uint8_t* text, S* sa, S n, bucket_table<S, std::uint8_t>& table, S* last,
                           int threads) {
  using code = named_code;
  constexpr S mark = mark_bit<S>, distinct = distinct_bit<S>;
  constexpr S none = named_parts<S>::none;
  S* bucket = table.bucket;
  // Two blocks' codes: the L scan keeps the previous block's boundaries until it moves them.
  std::vector<code::type> codes(2 * parallel_block);
  std::vector<S> offsets(256 * static_cast<std::size_t>(threads));
  named_parts<S> parts(threads);
  const std::size_t scratch = codes.size() * sizeof(code::type) + offsets.size() * sizeof(S) + parts.bytes();
  table.meter->add(scratch);
  S group = 1, top = n, lms_group = 0;  // shared: the second phases run on any one thread
  bool placed_by_all = false;
  table.heads();
  {
    const std::uint8_t c = text[n - 1];
    sa[bucket[c]++] = marked_entry<true>(text, n - 1, c) | distinct;
    last[c] = group;
  }
  // Moves the boundaries read at [from, to) one slot to the left (slot i - 1 gets the bit read
  // at slot i): both slots are final and passed.
  const auto move_boundaries = [&](const code::type* read, S from, S to) {
#pragma omp for schedule(static) nowait
    for (std::int64_t ii = from; ii < static_cast<std::int64_t>(to); ++ii) {
      const S i = static_cast<S>(ii);
      if (i > 0) sa[i - 1] = (sa[i - 1] & ~distinct) | distinct_if<S>(read[i - from] & code::boundary);
    }
  };
#pragma omp parallel num_threads(threads)
  {
    const int me = omp_get_thread_num();
    S* mine = offsets.data() + 256 * std::size_t(me);
    S* my_last = parts.last.data() + 256 * std::size_t(me);
    S a = 0;
    for (int b = 0; a < n; a += parallel_block, ++b) {
      const S e = std::min<S>(n, a + parallel_block);
      code::type* sym = codes.data() + (b & 1) * parallel_block;
      if (a > 0) move_boundaries(codes.data() + ((b & 1) ^ 1) * parallel_block, a - parallel_block, a);
      S lo, hi;
      part_bounds(e - a, threads, me, lo, hi);
      lo += a, hi += a;
      std::fill(mine, mine + 256, S(0));
      std::fill(my_last, my_last + 256, none);
      S g = 0;  // boundaries passed in the part (an empty slot counts: it stays empty when placed by all)
      for (S i = lo; i < hi; ++i) {
        if (i + prefetch_ahead < e) prefetch(text + marked_read_at<true>(sa[i + prefetch_ahead] & ~distinct));
        const S v = sa[i], body = v & ~distinct;
        if (body == 0) {
          sym[i - a] = code::read_again;
          ++g;
        } else if (body & mark) {
          sym[i - a] = code::nothing | code::boundary_of(v);
          g += (v & distinct) != 0;
        } else {
          const std::uint8_t c = text[body - 1];
          sym[i - a] = code::encode(marked_entry<true>(text, body - 1, c), c) | code::boundary_of(v);
          g += (v & distinct) != 0;
          ++mine[c];
          my_last[c] = g;
        }
      }
      parts.groups[me] = g;
#pragma omp barrier
#pragma omp single
      {
        placed_by_all = parts_place_outside<true>(offsets.data(), bucket, threads, a, e);
        if (placed_by_all) {
          parts.start(threads, true, group, last, top, lms_group);
        } else {
          for (S i = a; i < e; ++i) {
            code::type s = sym[i - a];
            if ((s & code::kind) == code::read_again) {
              // Set by this block's own inductions, or empty (an S part: a boundary).
              const S v = sa[i], body = v & ~distinct;
              s = (body == 0 || (body & mark)) ? code::nothing : code::induce;
              if (s == code::induce) {
                const std::uint8_t c = text[body - 1];
                s |= code::encode(marked_entry<true>(text, body - 1, c), c);
              }
              s |= (body == 0) ? code::boundary : code::boundary_of(v);
              sym[i - a] = s;  // for move_boundaries
            }
            group += (s & code::boundary) != 0;
            if ((s & code::kind) == code::nothing) continue;
            const std::uint8_t c = static_cast<std::uint8_t>(s);
            const S p = (sa[i] & ~distinct) - 1;
            sa[bucket[c]++] = p | code::entry_mark<S>(s) | distinct_if<S>(last[c] != group);
            last[c] = group;
            sa[i] = 0;  // induced from: not needed by the S scan
          }
        }
      }
      if (placed_by_all) {
        S grp = parts.groups[me];
        for (S i = lo; i < hi; ++i) {
          code::type s = sym[i - a];
          if ((s & code::kind) == code::read_again) sym[i - a] = s = code::nothing | code::boundary;  // empty
          grp += (s & code::boundary) != 0;
          if ((s & code::kind) == code::nothing) continue;
          const std::uint8_t c = static_cast<std::uint8_t>(s);
          sa[mine[c]++] = ((sa[i] & ~distinct) - 1) | code::entry_mark<S>(s) | distinct_if<S>(my_last[c] != grp);
          my_last[c] = grp;
          sa[i] = 0;
        }
#pragma omp barrier
      }
    }
    // The last block's boundaries; the last slot has none to its right: it ends a group.
    move_boundaries(codes.data() + (((n - 1) / parallel_block) & 1) * parallel_block,
                    static_cast<S>((n - 1) / parallel_block * parallel_block), n);
#pragma omp barrier
#pragma omp single
    {
      sa[n - 1] |= distinct;
      table.tails();
      std::fill(last, last + table.k, S(0));
    }
    code::type* sym = codes.data();
    for (S e = n; e > 0;) {
      const S a = e > parallel_block ? e - parallel_block : 0;
      S lo, hi;
      part_bounds(e - a, threads, me, lo, hi);
      lo += a, hi += a;
      std::fill(mine, mine + 256, S(0));
      std::fill(my_last, my_last + 256, none);
      S g = 0, lms = 0, lms_last = none;
      for (S i = hi; i-- > lo;) {
        if (i >= a + prefetch_ahead) prefetch(text + marked_read_at<false>(sa[i - prefetch_ahead] & ~distinct));
        const S v = sa[i], body = v & ~distinct;
        g += (v & distinct) != 0;
        if (body == 0) {
          sym[i - a] = code::read_again;
        } else if (body & mark) {
          const S p = (body & ~mark) - 1;
          const std::uint8_t c = text[p];
          sym[i - a] = code::encode(marked_entry<false>(text, p, c), c) | code::boundary_of(v);
          ++mine[c];
          my_last[c] = g;
        } else {
          sym[i - a] = code::lms_here | code::boundary_of(v);
          ++lms;
          lms_last = g;
        }
      }
      parts.groups[me] = g;
      parts.lms[me] = lms;
      parts.lms_last[me] = lms_last;
#pragma omp barrier
#pragma omp single
      {
        S lms_total = 0;
        for (int t = 0; t < threads; ++t) lms_total += parts.lms[t];
        // The collected LMS entries go below `top`, which must stay at or above the block.
        placed_by_all = top - lms_total >= e && parts_place_outside<false>(offsets.data(), bucket, threads, a, e);
        if (placed_by_all) {
          parts.start(threads, false, group, last, top, lms_group);
        } else {
          for (S i = e; i-- > a;) {
            code::type s = sym[i - a];
            const S v = sa[i], body = v & ~distinct;
            if ((s & code::kind) == code::read_again) {
              // Written by this block's own inductions, or emptied by the L scan.
              s = code::boundary_of(v);
              if (body & mark) {
                const S p = (body & ~mark) - 1;
                const std::uint8_t c = text[p];
                s |= code::encode(marked_entry<false>(text, p, c), c);
              } else {
                s |= body == 0 ? code::nothing : code::lms_here;
              }
            }
            group += (s & code::boundary) != 0;
            if ((s & code::kind) == code::nothing) continue;
            if ((s & code::kind) == code::lms_here) {
              sa[--top] = body | distinct_if<S>(lms_group != group);
              lms_group = group;
              continue;
            }
            const std::uint8_t c = static_cast<std::uint8_t>(s);
            sa[--bucket[c]] = ((body & ~mark) - 1) | code::entry_mark<S>(s) | distinct_if<S>(last[c] != group);
            last[c] = group;
          }
        }
      }
      if (placed_by_all) {
        // Nothing is written into the block: its entries are as phase 1 read them.
        S grp = parts.groups[me], lg = parts.lms_last[me], at = parts.lms[me];
        for (S i = hi; i-- > lo;) {
          const code::type s = sym[i - a];
          const S body = sa[i] & ~distinct;
          grp += (sa[i] & distinct) != 0;
          if ((s & code::kind) == code::read_again) continue;  // empty
          if ((s & code::kind) == code::lms_here) {
            sa[--at] = body | distinct_if<S>(lg != grp);
            lg = grp;
            continue;
          }
          const std::uint8_t c = static_cast<std::uint8_t>(s);
          sa[--mine[c]] = ((body & ~mark) - 1) | code::entry_mark<S>(s) | distinct_if<S>(my_last[c] != grp);
          my_last[c] = grp;
        }
#pragma omp barrier
      }
      e = a;
    }
  }
  table.meter->remove(scratch);
  return n - top;
}
#endif

// The named scans on one thread, each bucket split by the type of its entries' predecessors so
// that a scan visits only the entries it induces from (the other ones cost a text read and a
// spare store each in a branch-free scan over all slots: the 2n visits become n, for one
// counting pass over the text and a packing of the LMS entries). A bucket c:
//   [start, +after_s[c])  L entries whose predecessor is S-type: the S scan's sources
//   [.., s_start)         the other L entries (and suffix 0 when L-type): the L scan's
//   [s_start, lowest)     S entries whose predecessor is S-type (and suffix 0 when S-type)
//   [lowest, end)         the LMS entries: the seeds, then what the S scan collects
// Each part is filled in scan order, so an entry's distinct bit (names: see above) says whether
// it differs from the entry before it in its part: equal entries are induced one after another
// from equal sources, so that is whether the group count moved between the two inductions. A
// scan counts a group at each bit it passes (before the entry in the order it was filled, after
// it against that order) and one between an L and an S part of a bucket (L and S entries
// differ; the lowest seed of a bucket carries its bit). The S scan writes the sorted LMS entries
// into the LMS parts; they are packed at the end of sa after it.
template <class S>
S induce_lms_named_one_thread(const std::uint8_t* text, S* sa, S n, bucket_table<S, std::uint8_t>& table) {
  constexpr S mark = mark_bit<S>, distinct = distinct_bit<S>;
  constexpr int k = 256;
  S* bucket = table.bucket;
  // Per symbol: the lowest seed slot (as the placement left it), the first slot (k + 1: the
  // last is n), the L entries after S, where the S part starts; per part (2 a symbol) the
  // next slot and the group of the entry last induced into it (0: none). On the stack (8 KiB
  // for 32-bit entries), where the scans over all slots had a k-entry table of groups.
  S lowest[k], start[k + 1], after_s[k], s_start[k], next[2 * k], last[2 * k];
  std::copy(bucket, bucket + k, lowest);
  table.heads();
  std::copy(bucket, bucket + k, start);
  start[k] = n;
  count_l_after_s(text, n, S(k), after_s);
  // L scan: part 2c + 1 the L entries after S, part 2c the others.
  for (int c = 0; c < k; ++c) {
    next[2 * c + 1] = start[c];
    next[2 * c] = start[c] + after_s[c];
  }
  std::fill(last, last + 2 * k, S(0));
  S group = 1;
  const auto induce_l = [&](S p) __attribute__((always_inline)) {  // p: an L-type suffix
    const std::uint8_t c = text[p];
    const bool s_before = (p != 0) & (text[p - (p != 0)] < c);
    const int part = 2 * c + s_before;
    sa[next[part]++] = p | (S(s_before) << (8 * sizeof(S) - 1)) | distinct_if<S>(last[part] != group);
    last[part] = group;
  };
  induce_l(n - 1);  // the sentinel before it: a group of its own
  for (int c = 0; c < k; ++c) {
    for (S i = start[c] + after_s[c]; i < next[2 * c]; ++i) {  // filled up to here: complete at the head
      if (i + prefetch_ahead < n) prefetch(text + marked_read_at<true>(sa[i + prefetch_ahead] & ~distinct));
      const S v = sa[i];
      group += (v & distinct) != 0;
      const S p = v & ~distinct;
      if (p != 0) induce_l(p - 1);  // 0: suffix 0, nothing before it (it starts its group)
    }
    s_start[c] = next[2 * c];
    for (S i = lowest[c]; i < start[c + 1]; ++i) {
      if (i + prefetch_ahead < n) prefetch(text + marked_read_at<true>(sa[i + prefetch_ahead] & ~distinct));
      const S v = sa[i];
      group += (v & distinct) != 0;
      induce_l((v & ~distinct) - 1);
    }
  }
  // S scan: part 2c the S entries after S (down from the lowest seed), part 2c + 1 the LMS ones.
  for (int c = 0; c < k; ++c) {
    next[2 * c] = lowest[c];
    next[2 * c + 1] = start[c + 1];
  }
  std::fill(last, last + 2 * k, S(0));
  const auto induce_s = [&](S p) __attribute__((always_inline)) {  // p: an S-type suffix
    const std::uint8_t c = text[p];
    const bool l_before = (p != 0) & (text[p - (p != 0)] > c);
    const int part = 2 * c + l_before;
    sa[--next[part]] = p | (S((p != 0) & !l_before) << (8 * sizeof(S) - 1)) | distinct_if<S>(last[part] != group);
    last[part] = group;
  };
  for (int c = k; c-- > 0;) {
    for (S i = lowest[c]; i-- > s_start[c];) {  // filled from above before the scan is here
      if (i >= prefetch_ahead) prefetch(text + marked_read_at<false>(sa[i - prefetch_ahead] & ~distinct));
      const S v = sa[i];
      group += (v & distinct) != 0;
      const S p = v & ~(mark | distinct);
      if (p != 0) induce_s(p - 1);  // 0: suffix 0
    }
    ++group;
    for (S i = start[c] + after_s[c]; i-- > start[c];) {
      if (i >= prefetch_ahead) prefetch(text + marked_read_at<false>(sa[i - prefetch_ahead] & ~distinct));
      const S v = sa[i];
      induce_s((v & ~(mark | distinct)) - 1);
      group += (v & distinct) != 0;
    }
  }
  // The LMS parts, packed at the end (each part moves up or stays).
  S top = n;
  for (int c = k; c-- > 0;) {
    const S count = start[c + 1] - lowest[c];
    top -= count;
    if (top != lowest[c]) std::memmove(sa + top, sa + lowest[c], count * sizeof(S));
  }
  return n - top;
}

// induce_marked<true>'s result (the m sorted LMS positions at the end of sa, returning m),
// with each LMS entry's distinct bit set when its substring differs from the next one's (and
// on the last). Needs the seeds at their buckets' tails and n < distinct_bit<S>.
template <class S>
S induce_lms_named(const std::uint8_t* text, S* sa, S n, bucket_table<S, std::uint8_t>& table) {
  mark_seed_groups(sa, n, table.bucket, table.k);
#ifdef _OPENMP
  const int t = team_size(n, table.threads);
  if (t > 1) {
    // The group of the last entry induced into each bucket (0: none yet).
    std::vector<S> last(table.k, 0);
    table.meter->add(last.size() * sizeof(S));
    const S m = induce_lms_named_blocked(text, sa, n, table, last.data(), t);
    table.meter->remove(last.size() * sizeof(S));
    return m;
  }
#endif
  return induce_lms_named_one_thread(text, sa, n, table);
}

// Stage 1's scans for a level (the seeds at their buckets' tails): the sorted LMS positions at
// the end of sa, returning how many, named on the way when `named` (bytes only).
template <class S, class C>
S induce_lms(const C* text, S* sa, S n, bucket_table<S, C>& table, bool marks, bool named) {
  if constexpr (sizeof(C) == 1)
    if (named) return induce_lms_named(text, sa, n, table);
  return induce<true>(text, sa, n, table, marks);
}

}  // namespace strix::backend::host::induced
