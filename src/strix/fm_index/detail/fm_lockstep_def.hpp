// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The FM-index's queries in lockstep on one host thread: backward searches (count), and LF
// walks (locate's positions, extract). A step waits on rank lines of a structure larger than the
// caches — one line per interval end in the occurrence table, one per code level in the Huffman
// tree, each level needing the one before — so one query at a time waits on one miss at a time.
// A thread here keeps `lanes` queries going, moves each by one dependent part in turn and
// prefetches the lines of its next part before moving the next: the lanes' misses overlap.
// The answers are fm_index_ref's (search, position, lf), exactly. Host spaces only (a GPU's
// warps overlap their misses already); included by fm_query_def.hpp.
#include <cstdint>

#include <strix/fm_index/fm_index_ref.hpp>

namespace strix::detail {

// Searches a thread keeps going: 8, 16 and 32 measured alike on English and DNA (2 threads,
// bench/NOTES.md); 16 leaves room for a core with more misses in flight.
constexpr int fm_lockstep_lanes = 16;

// Whether the lockstep functions can answer for this index (else fm_index_ref's steps do).
template <class I>
bool fm_lockstep_applies(const fm_index_ref<I>& fm) {
  return fm.layout == fm_rank_layout::occurrence_table ||
         (fm.layout == fm_rank_layout::huffman_tree && fm.hwt.sigma > 1);
}

// Always inlined: g++ finds a function that only prefetches free of side effects and drops
// calls to it that it has not inlined yet.
[[gnu::always_inline]] inline void prefetch_rank1(const bit_vector_ref<std::uint64_t>& bits, std::uint64_t x) {
  __builtin_prefetch(bits.words + ((x >> 6) & ~std::uint64_t(3)), 0, 3);
  __builtin_prefetch(bits.l2 + (x >> l2_bits_log2), 0, 3);
}

// A search step of a lane: prepending c to the rows whose BWT positions are [i, j) (the rows
// less the $ row's shift) leaves c's ranks there in i and j. `begin` sets it up and prefetches
// what its first `advance` reads; `advance` does one dependent part of it and returns true
// when the step is done, else prefetches what the next part reads.
struct huffman_step {
  const huffman_wavelet_ref* tree = nullptr;
  std::uint64_t i = 0, j = 0;
  std::uint32_t path = 0;
  unsigned v = 0;
  int level = 0, depth = 0;

  [[gnu::always_inline]] void begin(std::uint8_t c, std::uint64_t from, std::uint64_t to) {
    i = from;
    j = to;
    v = 0;
    level = 0;
    depth = tree->length[c];
    path = tree->code[c];
    prefetch_rank1(tree->bits, tree->node_base[0] + i);
    prefetch_rank1(tree->bits, tree->node_base[0] + j);
  }
  // One level: rank_pair's loop body.
  [[gnu::always_inline]] bool advance() {
    const std::uint64_t base = tree->node_base[v], before = tree->node_ones[v];
    const std::uint64_t oi = tree->bits.rank1(base + i) - before;
    const std::uint64_t oj = i == j ? oi : tree->bits.rank1(base + j) - before;
    const unsigned b = (path >> level) & 1u;
    i = b ? oi : i - oi;
    j = b ? oj : j - oj;
    v = tree->child[2 * v + b];
    if (++level == depth) return true;
    prefetch_rank1(tree->bits, tree->node_base[v] + i);
    prefetch_rank1(tree->bits, tree->node_base[v] + j);
    return false;
  }
};

struct table_step {
  const occurrence_table_ref* occ = nullptr;
  std::uint64_t i = 0, j = 0;
  std::uint8_t c = 0;

  [[gnu::always_inline]] void begin(std::uint8_t symbol, std::uint64_t from, std::uint64_t to) {
    c = symbol;
    i = from;
    j = to;
    __builtin_prefetch(occ->lines + i / occ_line_symbols * occ_line_words, 0, 3);
    __builtin_prefetch(occ->lines + j / occ_line_symbols * occ_line_words, 0, 3);
  }
  [[gnu::always_inline]] bool advance() {
    std::uint64_t ri, rj;
    occ->rank_pair(c, i, j, ri, rj);
    i = ri;
    j = rj;
    return true;
  }
};

// Counts (and with `ranges`, the rows [sp, ep)) of patterns [first, last) of the batch, as
// fm.search gives them.
template <int lanes, class Step, class I>
void fm_count_lockstep(const fm_index_ref<I>& fm, const Step& blank, const std::uint8_t* bytes,
                       const std::uint64_t* offsets, std::int64_t first, std::int64_t last, I* counts,
                       std::uint64_t* ranges) {
  using P = std::uint64_t;
  // A search: pattern[0, k) is still to prepend to the rows [sp, ep) by steps of symbol c.
  struct lane {
    std::int64_t q = -1;  // -1: idle
    const std::uint8_t* pattern = nullptr;
    P k = 0, sp = 0, ep = 0;
    std::uint8_t c = 0;
    Step step;
  };
  lane state[lanes];
  for (lane& s : state) s.step = blank;
  std::int64_t next = first;
  const auto finish = [&](lane& s, P sp, P ep) {
    counts[s.q] = static_cast<I>(ep - sp);
    if (ranges) {
      ranges[2 * s.q] = sp;
      ranges[2 * s.q + 1] = ep;
    }
    s.q = -1;
  };
  // Sets up the step that prepends pattern[k - 1] (fm.extend's); false (and the search
  // finished) when that symbol ends it.
  const auto begin_step = [&](lane& s) {
    const std::uint8_t c = s.pattern[s.k - 1];
    if (!fm.occurs(c) || int(c) == fm.separator) {
      finish(s, 0, 0);
      return false;
    }
    s.c = c;
    s.step.begin(c, fm.stored(s.sp), fm.stored(s.ep));
    return true;
  };
  // Gives an idle lane the next pattern that needs a step, answering on the way those that
  // need none (fm.search's first lines).
  const auto start = [&](lane& s) {
    while (next < last) {
      s.q = next++;
      const P length = offsets[s.q + 1] - offsets[s.q];
      s.pattern = bytes + offsets[s.q];
      if (length == 0) {
        finish(s, 0, fm.rows());
        continue;
      }
      const std::uint8_t end = s.pattern[length - 1];
      if (!fm.occurs(end) || int(end) == fm.separator || length > fm.n) {
        finish(s, 0, 0);
        continue;
      }
      if (fm.kmer_length > 0 && length >= P(fm.kmer_length) &&
          fm.kmer_start(s.pattern + (length - fm.kmer_length), s.sp, s.ep)) {
        if (s.sp >= s.ep) {
          finish(s, 0, 0);
          continue;
        }
        s.k = length - fm.kmer_length;
      } else {
        s.sp = fm.C[end];
        s.ep = fm.C[end + 1];
        s.k = length - 1;
      }
      if (s.k == 0) {
        finish(s, s.sp, s.ep);
        continue;
      }
      if (begin_step(s)) return;
    }
  };
  int busy = 0;
  for (lane& s : state) {
    start(s);
    busy += s.q >= 0;
  }
  while (busy > 0) {
    for (lane& s : state) {
      if (s.q < 0 || !s.step.advance()) continue;
      s.sp = fm.C[s.c] + s.step.i;
      s.ep = fm.C[s.c] + s.step.j;
      --s.k;
      if (s.sp >= s.ep || s.k == 0) finish(s, s.sp, s.ep);
      else if (begin_step(s)) continue;
      start(s);
      busy -= s.q < 0;
    }
  }
}

// An LF step of a lane (fm.lf's): the symbol c at BWT position i and its rank there, in parts
// as the search steps above.
struct huffman_lf {
  const huffman_wavelet_ref* tree = nullptr;
  std::uint64_t pos = 0, before = 0;
  unsigned v = 0;
  std::uint8_t c = 0;

  [[gnu::always_inline]] void begin(std::uint64_t i) {
    pos = i;
    v = 0;
    prefetch_rank1(tree->bits, tree->node_base[0] + pos);
  }
  // One level: access_and_rank's loop body.
  [[gnu::always_inline]] bool advance() {
    bool bit = false;
    const std::uint64_t ones = tree->bits.rank1_and_bit(tree->node_base[v] + pos, bit) - tree->node_ones[v];
    pos = bit ? ones : pos - ones;
    const unsigned u = tree->child[2 * v + (bit ? 1 : 0)];
    if (u & huffman_wavelet_ref::leaf) {
      before = pos;
      c = static_cast<std::uint8_t>(u & 0xFFu);
      return true;
    }
    v = u;
    prefetch_rank1(tree->bits, tree->node_base[v] + pos);
    return false;
  }
};

struct table_lf {
  const occurrence_table_ref* occ = nullptr;
  std::uint64_t i = 0, before = 0;
  std::uint8_t c = 0;

  [[gnu::always_inline]] void begin(std::uint64_t at) {
    i = at;
    __builtin_prefetch(occ->lines + i / occ_line_symbols * occ_line_words, 0, 3);
  }
  [[gnu::always_inline]] bool advance() {
    c = occ->access_and_rank(i, before);
    return true;
  }
};

// positions[t] = fm.position(rows[t]) for t in [first, last), LF steps of several rows in
// lockstep; returns how many rows reached no sample (a damaged index).
template <int lanes, class Lf, class I>
std::uint64_t fm_positions_lockstep(const fm_index_ref<I>& fm, const Lf& blank, const I* rows, std::int64_t first,
                                    std::int64_t last, I* positions) {
  using P = std::uint64_t;
  struct lane {
    std::int64_t t = -1;  // -1: idle
    P row = 0, steps = 0;
    Lf lf;
  };
  lane state[lanes];
  for (lane& s : state) s.lf = blank;
  std::int64_t next = first;
  std::uint64_t damaged = 0;
  // The position when row is sampled (and the lane idle), else its LF step begun.
  const auto check_sample = [&](lane& s) {
    P p = fm.n + 1;  // no sample within sample_rate steps
    if (s.steps < fm.sample_rate) {
      bool marked = false;
      const P rank = fm.sampled.rank1_and_bit(s.row, marked);
      if (!marked) {
        s.lf.begin(fm.stored(s.row));
        return;
      }
      p = fm.sa_samples[rank] * fm.sample_rate + s.steps;
    }
    damaged += p > fm.n;
    positions[s.t] = static_cast<I>(p);
    s.t = -1;
  };
  const auto start = [&](lane& s) {
    while (s.t < 0 && next < last) {
      s.t = next++;
      s.row = rows[s.t];
      s.steps = 0;
      check_sample(s);
    }
  };
  int busy = 0;
  for (lane& s : state) {
    start(s);
    busy += s.t >= 0;
  }
  while (busy > 0) {
    for (lane& s : state) {
      if (s.t < 0 || !s.lf.advance()) continue;
      s.row = fm.C[s.lf.c] + s.lf.before;
      ++s.steps;
      check_sample(s);
      start(s);
      busy -= s.t < 0;
    }
  }
  return damaged;
}

// out[out_offsets[q], out_offsets[q] + lengths[q]) = text[starts[q], starts[q] + lengths[q])
// for q in [first, last): each range's LF walk back from the sample at or after its end (or
// from the text's end, row 0), the walks of several ranges in lockstep (fm_extract's other path).
template <int lanes, class Lf, class I>
void fm_extract_lockstep(const fm_index_ref<I>& fm, const Lf& blank, const std::uint64_t* starts,
                         const std::uint64_t* lengths, const std::uint64_t* out_offsets, std::uint8_t* out,
                         std::int64_t first, std::int64_t last) {
  using P = std::uint64_t;
  struct lane {
    bool busy = false;
    P p = 0, start = 0, end = 0;  // the walk is at text position p, writing [start, end)
    std::uint8_t* dst = nullptr;
    Lf lf;
  };
  lane state[lanes];
  for (lane& s : state) s.lf = blank;
  std::int64_t next = first;
  const P rate = fm.sample_rate;
  const auto start = [&](lane& s) {
    s.busy = false;
    while (next < last) {
      const std::int64_t q = next++;
      if (lengths[q] == 0) continue;
      s.start = starts[q];
      s.end = s.start + lengths[q];
      s.dst = out + out_offsets[q];
      P row = 0;
      s.p = (s.end + rate - 1) / rate * rate;
      if (s.p > fm.n) s.p = fm.n;
      else row = fm.sampled_row(s.p / rate);
      s.lf.begin(fm.stored(row));  // s.p > start: the walk never steps from position 0 (the $ row)
      s.busy = true;
      return;
    }
  };
  int busy = 0;
  for (lane& s : state) {
    start(s);
    busy += s.busy;
  }
  while (busy > 0) {
    for (lane& s : state) {
      if (!s.busy || !s.lf.advance()) continue;
      --s.p;
      if (s.p < s.end) s.dst[s.p - s.start] = s.lf.c;
      if (s.p > s.start) {
        s.lf.begin(fm.stored(fm.C[s.lf.c] + s.lf.before));
        continue;
      }
      start(s);
      busy -= !s.busy;
    }
  }
}

// f(blank step) with the step of the index's layout (fm_lockstep_applies): Huffman's or the
// table's search step (HuffmanStep, TableStep) or LF step.
template <class HuffmanStep, class TableStep, class I, class F>
decltype(auto) with_layout_step(const fm_index_ref<I>& fm, F&& f) {
  if (fm.layout == fm_rank_layout::huffman_tree) {
    HuffmanStep step;
    step.tree = &fm.hwt;
    return f(step);
  }
  TableStep step;
  step.occ = &fm.occ;
  return f(step);
}

template <int lanes, class I>
void fm_count_lockstep(const fm_index_ref<I>& fm, const std::uint8_t* bytes, const std::uint64_t* offsets,
                       std::int64_t first, std::int64_t last, I* counts, std::uint64_t* ranges) {
  with_layout_step<huffman_step, table_step>(fm, [&](const auto& step) {
    fm_count_lockstep<lanes>(fm, step, bytes, offsets, first, last, counts, ranges);
  });
}

template <int lanes, class I>
std::uint64_t fm_positions_lockstep(const fm_index_ref<I>& fm, const I* rows, std::int64_t first, std::int64_t last,
                                    I* positions) {
  return with_layout_step<huffman_lf, table_lf>(fm, [&](const auto& lf) {
    return fm_positions_lockstep<lanes>(fm, lf, rows, first, last, positions);
  });
}

template <int lanes, class I>
void fm_extract_lockstep(const fm_index_ref<I>& fm, const std::uint64_t* starts, const std::uint64_t* lengths,
                         const std::uint64_t* out_offsets, std::uint8_t* out, std::int64_t first, std::int64_t last) {
  with_layout_step<huffman_lf, table_lf>(fm, [&](const auto& lf) {
    fm_extract_lockstep<lanes>(fm, lf, starts, lengths, out_offsets, out, first, last);
  });
}

}  // namespace strix::detail
