// SPDX-License-Identifier: BSD-3-Clause
// SA-IS on host memory (see induced_sort.hpp; the conventions are in induced_common.hpp):
// the LMS walks, the naming, the recursion and the entry points. The scans are in
// induced_scans.hpp.
#include "induced_sort.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <strix/error.hpp>

#include "bwt_gather.hpp"
#include "induced_common.hpp"
#include "induced_lms_walk.hpp"
#include "induced_scans_named.hpp"

namespace strix::backend::host {

namespace {

using namespace induced;

// The LMS positions of the text, in text order, into out. `part_counts`: the LMS
// positions in each part of split_parallel(n, threads), as the placement of the seeds counted
// them.
template <class S, class C>
void gather_lms(const C* text, S n, S* out, int threads, const std::vector<S>& part_counts) {
  // Each part writes its LMS positions down from where the parts up to it end.
  std::vector<S> end(part_counts.size(), 0);
  S sum = 0;
  for (std::size_t c = 0; c < part_counts.size(); ++c) end[c] = sum += part_counts[c];
  split_parallel(n, threads, [&](int c, S lo, S hi) {
    S at = end[c];
    for_each_lms_position(text, n, lo, hi, [&](S p, C) { out[--at] = p; });
  });
}

// The LMS positions at their buckets' tails (table.tails() set), walking the parts of
// split_parallel from the last to the first and each part's positions as for_each_lms_position
// gives them; returns their number and leaves each part's count in `part_counts` and each
// bucket's lowest seed slot in table.bucket. On bytes the parts are walked on all threads, twice
// (counts per symbol, then the seeds from where the parts after them end): the same placement.
template <class S, class C>
S place_seeds(const C* text, S* sa, S n, bucket_table<S, C>& table, int threads, std::vector<S>& part_counts) {
  const int t = team_size(n, threads);
  S lms_count = 0;
  if constexpr (sizeof(C) == 1) {
    if (t > 1) {
      std::vector<S> offsets(256 * static_cast<std::size_t>(t), 0);
      table.meter->add(offsets.size() * sizeof(S));
      split_parallel(n, threads, [&](int c, S lo, S hi) {
        S* mine = offsets.data() + 256 * c;
        for_each_lms_position(text, n, lo, hi, [&](S, C symbol) { ++mine[symbol]; });
      });
      part_counts.assign(t, 0);
      for (int symbol = 0; symbol < 256; ++symbol) {
        S at = table.bucket[symbol];
        for (int c = t; c-- > 0;) {
          const S count = offsets[256 * c + symbol];
          offsets[256 * c + symbol] = at;
          at -= count;
          part_counts[c] += count;
          lms_count += count;
        }
        table.bucket[symbol] = at;
      }
      split_parallel(n, threads, [&](int c, S lo, S hi) {
        S* mine = offsets.data() + 256 * c;
        for_each_lms_position(text, n, lo, hi, [&](S p, C symbol) { sa[--mine[symbol]] = p; });
      });
      table.meter->remove(offsets.size() * sizeof(S));
      return lms_count;
    }
  }
  split_parts_descending(n, threads, [&](S lo, S hi) {
    const S before = lms_count;
    for_each_lms_position(text, n, lo, hi, [&](S p, C symbol) {
      sa[--table.bucket[symbol]] = p;
      ++lms_count;
    });
    part_counts.insert(part_counts.begin(), lms_count - before);
  });
  return lms_count;
}

// Marks a unique name at its slot and, where sort_repeated_names runs, at its sorted entry (a
// name is at most m <= n / 2, so its top bit is free).
template <class S>
constexpr S unique_flag = S(1) << (8 * sizeof(S) - 1);

// The reduced text: the m names at sa[m + p / 2] (the other slots of sa[m, n) are 0), `mask`ed
// and less one, in text order, moved to sa[n - m, n); returns where it starts. Each part of
// sa[m, n) packs its names at its own top (writing at or above what it reads), then the packed
// runs move up to their places, the top run first (each run's place ends where the run above
// starts, at or above the run itself).
template <class S>
S* gather_reduced_text(S* sa, S n, S m, int threads, S mask = ~S(0)) {
  const S slots = n - m;
  std::vector<S> packed(static_cast<std::size_t>(team_size(slots, threads)), 0);
  const int t = split_parallel(slots, threads, [&](int c, S lo, S hi) {
    S to = m + hi, spare;
    for (S i = m + hi; i-- > m + lo;) {
      const S name = sa[i] & mask;
      *store_target(name != 0, slot_address(sa, to - 1), &spare) = name - 1;
      to -= name != 0;
    }
    packed[c] = m + hi - to;
  });
  S end = n;
  for (int c = t; c-- > 0;) {
    S lo, hi;
    part_bounds(slots, t, c, lo, hi);
    end -= packed[c];
    if (end != m + hi - packed[c]) std::memmove(sa + end, sa + (m + hi - packed[c]), packed[c] * sizeof(S));
  }
  return sa + end;
}

// For every LMS position p, the length of its LMS substring (through the next LMS symbol)
// at sa[m + p / 2]; the last one's runs into the sentinel and is given n - p + 1. Returns
// the last LMS position.
template <class S, class C>
S store_lms_lengths(const C* text, S n, S* slots, int threads) {
  const int parts = team_size(n, threads);
  std::vector<S> lowest(parts, n), highest(parts, n);
  split_parallel(n, threads, [&](int c, S lo, S hi) {
    S next = n, high = n;
    for_each_lms_position(text, n, lo, hi, [&](S p, C) {
      if (next == n) high = p;  // the part's highest: its length is set below
      else slots[p / 2] = next - p + 1;
      next = p;
    });
    highest[c] = high;
    lowest[c] = next;
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

// Names the sorted LMS substrings in sa[0, m) from the distinct bits the named scans left
// (induce_lms_named: set when an entry's substring differs from the next one's): names 1, 2,
// ... in sorted order at sa[m + p / 2] (zero there), bits cleared. Returns the number of names.
template <class S>
S name_from_distinct_bits(S* sa, S m, int threads) {
  constexpr S distinct = distinct_bit<S>;
  S* slots = sa + m;
  const int parts = team_size(m, threads);
  // Where each part's names start (counted first only when there are several parts).
  std::vector<S> starts(static_cast<std::size_t>(parts), 0);
  if (parts > 1) {
    split_parallel(m, threads, [&](int c, S lo, S hi) {
      if (c + 1 == parts) return;
      S count = 0;
      for (S i = lo; i < hi; ++i) count += (sa[i] & distinct) != 0;
      starts[c + 1] = count;
    });
    for (int c = 1; c < parts; ++c) starts[c] += starts[c - 1];
  }
  S names = 0;
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    S name = starts[c] + 1;
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(slots + (sa[i + prefetch_ahead] & ~distinct) / 2);
      const S v = sa[i], p = v & ~distinct;
      slots[p / 2] = name;
      sa[i] = p;
      name += (v & distinct) != 0;
    }
    if (c + 1 == parts) names = name - 1;  // the last entry carries the bit
  });
  return names;
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

template <class S, class C>
void sais(const C* text, S* sa, S n, S k, S* free_space, S free_length, int threads, scratch_meter& meter,
          bool marks, bool named, std::uint8_t* bwt_out = nullptr);

// Sets unique_flag on each entry of sa[0, m) (sorted LMS positions) whose name (at
// slots[p / 2]) no other entry shares, and on that name. Each part reads the names beside it
// before any part marks.
template <class S>
void mark_unique_names(S* sa, S* slots, S m, int threads) {
  constexpr S flag = unique_flag<S>;
  const int parts = team_size(m, threads);
  std::vector<S> before(parts, 0), after(parts, 0);  // 0: no neighbour (names start at 1)
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    if (lo > 0 && lo < m) before[c] = slots[sa[lo - 1] / 2];
    if (hi < m && lo < hi) after[c] = slots[sa[hi] / 2];
  });
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    if (lo >= hi) return;
    S previous = before[c], name = slots[sa[lo] / 2];
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(slots + sa[i + prefetch_ahead] / 2);
      const S next = i + 1 < hi ? slots[sa[i + 1] / 2] : after[c];
      if (name != previous && name != next) sa[i] |= flag;
      previous = name;
      name = next;
    }
  });
  split_parallel(m, threads, [&](int, S lo, S hi) {
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(slots + (sa[i + prefetch_ahead] & ~flag) / 2);
      const S v = sa[i];
      if (v & flag) slots[(v & ~flag) / 2] |= flag;
    }
  });
}

// Walks the names in text order (slots[0, count), zero where no LMS position is): a unique name
// right after a repeated one is where comparing the suffixes before it ends, so it is kept
// (its flag cleared). Returns how many are kept: the repeated names and these.
template <class S>
S keep_terminators(S* slots, S count, int threads) {
  constexpr S flag = unique_flag<S>;
  const int parts = team_size(count, threads);
  // Whether each part's last name is unique (2: the part has none), read before any clearing.
  std::vector<unsigned char> last(parts, 2);
  std::vector<S> kept(parts, 0);
  split_parallel(count, threads, [&](int c, S lo, S hi) {
    for (S i = hi; i-- > lo;) {
      if (slots[i] != 0) {
        last[c] = (slots[i] & flag) != 0;
        break;
      }
    }
  });
  split_parallel(count, threads, [&](int c, S lo, S hi) {
    bool previous_unique = true;  // the first name has none before it
    for (int d = c; d-- > 0;) {
      if (last[d] != 2) {
        previous_unique = last[d] == 1;
        break;
      }
    }
    S k = 0;
    for (S i = lo; i < hi; ++i) {
      const S name = slots[i];
      if (name == 0) continue;
      const bool unique = (name & flag) != 0;
      if (unique && !previous_unique) slots[i] = name & ~flag;
      k += !unique || !previous_unique;
      previous_unique = unique;
    }
    kept[c] = k;
  });
  S total = 0;
  for (S k : kept) total += k;
  return total;
}

// Gives the kept names (unflagged at slots[p / 2]) new names 1, 2, ... dense and in the same
// order, over the old ones, and clears the flag of the kept entries of sa[0, m) (the
// terminators): the flagged entries are then the dropped ones. Returns the number of new names.
template <class S>
S renumber_kept_names(S* sa, S* slots, S m, int threads) {
  constexpr S flag = unique_flag<S>;
  const int parts = team_size(m, threads);
  // Each part's first entry is compared with the old name before the part, read before any
  // part renames.
  std::vector<S> before(parts, 0), starts(static_cast<std::size_t>(parts) + 1, 0);
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    if (lo > 0 && lo < m) before[c] = slots[(sa[lo - 1] & ~flag) / 2] & ~flag;
    S previous = before[c], count = 0;
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(slots + (sa[i + prefetch_ahead] & ~flag) / 2);
      const S name = slots[(sa[i] & ~flag) / 2], old = name & ~flag;
      count += (name & flag) == 0 && old != previous;
      previous = old;
    }
    starts[c + 1] = count;
  });
  for (int c = 0; c < parts; ++c) starts[c + 1] += starts[c];
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    S previous = before[c], renamed = starts[c];
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(slots + (sa[i + prefetch_ahead] & ~flag) / 2);
      const S p = sa[i] & ~flag, name = slots[p / 2], old = name & ~flag;
      if ((name & flag) == 0) {
        renamed += old != previous;
        slots[p / 2] = renamed;
        sa[i] = p;
      }
      previous = old;
    }
  });
  return starts[parts];
}

// Bit i of bits: whether r[i] (of the reduced text r[0, m)) is kept (unflagged).
template <class S>
void mark_kept_bits(const S* r, S m, S* bits, int threads) {
  constexpr S flag = unique_flag<S>, width = 8 * sizeof(S);
  split_parallel((m + width - 1) / width, threads, [&](int, S lo, S hi) {
    for (S w = lo; w < hi; ++w) {
      const S end = std::min<S>(m, (w + 1) * width);
      S word = 0;
      for (S i = w * width; i < end; ++i) word |= S((r[i] & flag) == 0) << (i - w * width);
      bits[w] = word;
    }
  });
}

// Drops the flagged names of r[0, m), the kept ones packed at its top in order; returns where
// they start. Each part packs at its own top (writing at or above what it reads), then the
// runs move up, the top one first (as in gather_reduced_text).
template <class S>
S* drop_flagged(S* r, S m, int threads) {
  constexpr S flag = unique_flag<S>;
  std::vector<S> packed(static_cast<std::size_t>(team_size(m, threads)), 0);
  const int t = split_parallel(m, threads, [&](int c, S lo, S hi) {
    S to = hi;
    for (S i = hi; i-- > lo;) {
      const S v = r[i];
      if ((v & flag) == 0) r[--to] = v;
    }
    packed[c] = hi - to;
  });
  S end = m;
  for (int c = t; c-- > 0;) {
    S lo, hi;
    part_bounds(m, t, c, lo, hi);
    end -= packed[c];
    if (end != hi - packed[c]) std::memmove(r + end, r + (hi - packed[c]), packed[c] * sizeof(S));
  }
  return r + end;
}

// The LMS positions whose reduced-text index has its bit set, in text order, into out.
// `part_counts`: the LMS positions in each part of split_parallel(n, threads) (see gather_lms).
template <class S, class C>
void gather_kept_positions(const C* text, S n, const S* bits, const std::vector<S>& part_counts, S* out,
                           int threads) {
  constexpr S width = 8 * sizeof(S);
  const auto kept = [&](S i) { return ((bits[i / width] >> (i % width)) & 1) != 0; };
  std::vector<S> first(part_counts.size() + 1, 0), end(part_counts.size(), 0);
  for (std::size_t c = 0; c < part_counts.size(); ++c) first[c + 1] = first[c] + part_counts[c];
  split_parallel(n, threads, [&](int c, S, S) {
    S count = 0;
    for (S i = first[c]; i < first[c + 1]; ++i) count += kept(i);
    end[c] = count;
  });
  for (std::size_t c = 1; c < end.size(); ++c) end[c] += end[c - 1];
  split_parallel(n, threads, [&](int c, S lo, S hi) {
    S at = end[c], index = first[c + 1];
    for_each_lms_position(text, n, lo, hi, [&](S p, C) {
      if (kept(--index)) out[--at] = p;
    });
  });
}

// Writes sorted[0, ...) over the kept (unflagged) entries of sa[0, m) in turn and clears the
// flags of the others.
template <class S>
void zip_kept(S* sa, S m, const S* sorted, int threads) {
  constexpr S flag = unique_flag<S>;
  const int parts = team_size(m, threads);
  std::vector<S> starts(static_cast<std::size_t>(parts) + 1, 0);
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    S count = 0;
    for (S i = lo; i < hi; ++i) count += (sa[i] & flag) == 0;
    starts[c + 1] = count;
  });
  for (int c = 0; c < parts; ++c) starts[c + 1] += starts[c];
  split_parallel(m, threads, [&](int c, S lo, S hi) {
    S k = starts[c];
    for (S i = lo; i < hi; ++i) {
      const S v = sa[i];
      sa[i] = v & flag ? v & ~flag : sorted[k++];
    }
  });
}

// Sorts the LMS suffixes in sa[0, m) (sorted by their LMS substrings, named at sa[m + p / 2])
// by recursing only on what needs it. A suffix whose name is unique is at its place already;
// comparing two suffixes of the reduced text that start with the same repeated name stops at
// the first unique name (the other cannot have it) or at the end. So the kept text (the
// repeated names and each unique one right after a repeated one, renamed densely in order)
// orders the repeated ones as the reduced text would, and its sorted suffixes, group by group
// in name order, go over the kept entries of sa[0, m) in turn (a kept unique one is a group of
// one: it gets itself back). Returns false, leaving the names usable, where it does not apply:
// the entries' top bit is taken, or sa[0, m), a bit per name, the kept text, its suffix array
// and then its positions do not fit in n entries (most names repeat: level 0 on text).
template <class S, class C>
bool sort_repeated_names(const C* text, S* sa, S n, S m, S names, int threads, scratch_meter& meter,
                         const std::vector<S>& part_counts) {
  constexpr S width = 8 * sizeof(S);
  const S words = (m + width - 1) / width;
  // (At least m - names + 1 names are kept.)
  if (n >= unique_flag<S> || 2 * m + words > n || m + words + 3 * (m - names + 1) > n) return false;
  S* slots = sa + m;
  mark_unique_names(sa, slots, m, threads);
  const S kept = keep_terminators(slots, n / 2, threads);
  if (m + words + 3 * kept > n) return false;
  const S kept_names = renumber_kept_names(sa, slots, m, threads);
  // Layout: sa[0, m) | kept bits | the recursion's suffix array, then its free part | kept text.
  S* reduced = gather_reduced_text(sa, n, m, threads);
  S* bits = sa + m;
  mark_kept_bits(reduced, m, bits, threads);
  S* kept_text = drop_flagged(reduced, m, threads);
  S* order = bits + words;
  sais<S, S>(kept_text, order, kept, kept_names, order + kept, n - m - words - 2 * kept, threads, meter, true,
             false);
  // The kept positions in the recursion's free part, then the sorted ones over the kept slots.
  S* positions = order + kept;
  gather_kept_positions(text, n, bits, part_counts, positions, threads);
  split_parallel(kept, threads, [&](int, S lo, S hi) {
    for (S i = lo; i < hi; ++i) {
      if (i + prefetch_ahead < hi) prefetch(positions + order[i + prefetch_ahead]);
      order[i] = positions[order[i]];
    }
  });
  zip_kept(sa, m, order, threads);
  return true;
}

// The suffix array of text[0, n) over the alphabet [0, k) into sa[0, n); `free_space`
// (`free_length` entries, disjoint from text and sa) holds the bucket table if it fits.
// `marks`: whether the scans may be marked; `named`: whether stage 1 names (bytes only).
// `bwt_out` (bytes with marks only): stage 2 writes the BWT's symbol of each row there instead
// of leaving a suffix array (see induce_marked); sa is then the working space.
template <class S, class C>
void sais(const C* text, S* sa, S n, S k, S* free_space, S free_length, int threads, scratch_meter& meter,
          bool marks, bool named, std::uint8_t* bwt_out) {
  if (n == 0) return;
  if (n == 1) {
    sa[0] = 0;
    return;
  }
  std::vector<S> owned;
  bucket_table<S, C> table{text, n, k, nullptr, nullptr, threads, &meter, nullptr};
  // The scans run on several threads when a third table fits: always for bytes, for names
  // when the free part holds it (about the first reduced level on text) and scan_team_size
  // gives them several.
  if (free_length >= 3 * k && scan_team_size<S, C>(n, threads) > 1) {
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

  // Stage 1: sort the LMS substrings by inducing from the LMS positions in text order
  // (counted by parts of split_parallel(n, threads), for gather_lms).
  fill_zero(sa, n, threads);
  table.tails();
  std::vector<S> part_counts;
  const S lms_count = place_seeds(text, sa, n, table, threads, part_counts);
  if (lms_count > 1) {
    // The LMS entries, in the order of their substrings, to sa[0, m); named on the way
    // (equal substrings share a name, in sorted order) or after, by comparing neighbours.
    // Names are kept at sa[m + p / 2] (LMS positions are at least 2 apart).
    const S m = induce_lms(text, sa, n, table, marks, named);
    std::memmove(sa, sa + (n - m), m * sizeof(S));
    fill_zero(sa + m, n - m, threads);
    // By comparison: lengths first, then names over them.
    const S names = named ? name_from_distinct_bits(sa, m, threads)
                          : name_lms_substrings(text, n, sa, m, store_lms_lengths(text, n, sa + m, threads), threads);
    if (names < m && !sort_repeated_names(text, sa, n, m, names, threads, meter, part_counts)) {
      // The reduced text (names - 1 in text order) at the end of sa; its suffix array in
      // sa[0, m); between them, room for the deeper levels' buckets.
      S* reduced = gather_reduced_text(sa, n, m, threads, S(~unique_flag<S>));
      sais<S, S>(reduced, sa, m, names, sa + m, n - 2 * m, threads, meter, true, false);
      // Map the reduced suffixes back to their LMS positions (in text order at the end).
      gather_lms(text, n, reduced, threads, part_counts);
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
  induce_final(text, sa, n, table, marks, bwt_out);
  meter.remove(owned.size() * sizeof(S));
}

// `scans`: the most the first level may use (marks need n < mark_bit<S>, names in the scans
// n < distinct_bit<S>); the reduced levels run the marked scans and name by comparison.
// `bwt_out`: the BWT's symbols by row instead of the suffix array (needs the marks).
template <class S>
std::size_t build(const std::uint8_t* text, S* sa, std::uint64_t n, int threads, detail::first_level_scans scans,
                  std::uint8_t* bwt_out = nullptr) {
  if (n == 0) return 0;
  scratch_meter meter;
  const bool marks = scans != detail::first_level_scans::unmarked && n < mark_bit<S>;
  const bool named = scans == detail::first_level_scans::named && n < distinct_bit<S>;
  try {
    sais<S, std::uint8_t>(text, sa, static_cast<S>(n), S(256), nullptr, S(0), threads < 1 ? 1 : threads, meter,
                          marks, named, bwt_out);
  } catch (const std::bad_alloc&) {
    throw error(error_code::host_out_of_memory, "induced sorting ran out of host memory on " + std::to_string(n) +
                                                    " bytes");
  }
  return meter.peak;
}

// The BWT in divbwt's layout, from stage 2's symbols by row when the first level has marks
// (every row's symbol is then in out but suffix 0's, whose row is the one entry 0 left in
// workspace), else from the suffix array by a gather. Returns the primary index.
template <class S>
std::uint64_t build_bwt(const std::uint8_t* text, S* workspace, std::uint8_t* out, std::uint64_t n, int threads,
                        detail::first_level_scans scans, std::size_t* scratch) {
  if (scratch) *scratch = 0;
  if (n == 0) return 0;
  threads = threads < 1 ? 1 : threads;
  const bool by_rows = scans != detail::first_level_scans::unmarked && n < mark_bit<S> && n > 1;
  const std::size_t bytes = build(text, workspace, n, threads, scans, by_rows ? out : nullptr);
  if (scratch) *scratch = bytes;
  const std::uint64_t row = row_of_suffix_zero(workspace, n, threads);
  if (row >= n) throw error(error_code::internal, "induced BWT: no row for suffix 0");
  if (by_rows) {
    std::memmove(out + 1, out, row);
    out[0] = text[n - 1];
  } else {
    bwt_from_suffix_array(text, workspace, out, n, row, threads);
  }
  return row + 1;
}

void require_32_bit_entries(std::uint64_t n) {
  if (n > 0xFFFFFFFFull)
    throw error(error_code::invalid_input, "32-bit suffix array entries cannot index " + std::to_string(n) +
                                               " bytes (use 64-bit entries)");
}

}  // namespace

std::size_t induced_scratch_bytes(std::uint64_t n, int index_bytes) {
  // Level 0's tables (counts and buckets of 256 symbols), and a level's bucket table of at
  // most n / 2 names when the suffix array's free part cannot hold it (n / 4 at most: the
  // reduced text and its suffix array take 2m of the n entries and m <= n / 2).
  return 2 * 256 * static_cast<std::size_t>(index_bytes) + static_cast<std::size_t>(n / 2) * index_bytes;
}

std::size_t induced_suffix_array(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n, int threads) {
  require_32_bit_entries(n);
  return build(text, sa, n, threads, detail::first_level_scans::named);
}

std::size_t induced_suffix_array(const std::uint8_t* text, std::uint64_t* sa, std::uint64_t n, int threads) {
  return build(text, sa, n, threads, detail::first_level_scans::named);
}

std::size_t detail::induced_suffix_array_with(const std::uint8_t* text, std::uint32_t* sa, std::uint64_t n,
                                              int threads, first_level_scans scans) {
  require_32_bit_entries(n);
  return build(text, sa, n, threads, scans);
}

std::uint64_t induced_bwt(const std::uint8_t* text, std::uint32_t* workspace, std::uint8_t* out, std::uint64_t n,
                          int threads, std::size_t* scratch) {
  return detail::induced_bwt_with(text, workspace, out, n, threads, detail::first_level_scans::named, scratch);
}

std::uint64_t induced_bwt(const std::uint8_t* text, std::uint64_t* workspace, std::uint8_t* out, std::uint64_t n,
                          int threads, std::size_t* scratch) {
  return build_bwt(text, workspace, out, n, threads, detail::first_level_scans::named, scratch);
}

std::uint64_t detail::induced_bwt_with(const std::uint8_t* text, std::uint32_t* workspace, std::uint8_t* out,
                                       std::uint64_t n, int threads, first_level_scans scans, std::size_t* scratch) {
  require_32_bit_entries(n);
  return build_bwt(text, workspace, out, n, threads, scans, scratch);
}

}  // namespace strix::backend::host
