// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Approximate search's edit-distance walk (device code, included by approximate_def.hpp).
//
// A search's pieces fall into phases: runs of consecutive steps that grow the match on the
// same side (the first piece takes the side of the second). A phase's pieces are one
// contiguous part of the read, read in the direction of growth; the walk takes one text
// symbol a stack frame and keeps a banded column of the alignment of that part against the
// text taken in the phase: D[i][j] = errors before the phase + the edit distance of the part's
// first j symbols and the phase's i text symbols. The band holds j = i - K .. i + K (K the
// scheme's most errors): farther cells exceed K.
//
// A scheme's bounds apply where an alignment crosses from one piece into the next: the row j
// that ends a piece. Text inserted between two pieces may count for either (each split of an
// alignment is a spread of its errors over the pieces, and the scheme covers one of them), so
// that row keeps two values: `raw`, the alignments still inside the piece (its last symbol
// followed by insertions), and `out`, those that crossed — each cut at a cell whose raw value
// met the piece's bounds, plus insertions after it. Rows after it grow from `out`. Keeping
// one matrix per phase (rather than a branch per crossing point) walks each text once per
// phase; the walk only branches where a phase ends (a cell of its last row within bounds):
// the next phase starts there, or the last one reports the match.
// A read shorter than the scheme's pieces runs one search of one piece instead.
// Frames a read: its length + K + pieces + 1 (text taken is at most m + K).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/approximate/bidirectional_ref.hpp>

namespace strix::approximate::detail {

constexpr int edit_max_errors = 7;
constexpr int edit_band = 2 * edit_max_errors + 1;
constexpr int edit_max_pieces = 16;
constexpr std::uint8_t edit_far = 250;  // a cell out of reach (values saturate below it)

struct edit_frame {
  bi_rows rows;
  std::uint64_t smaller = 0;          // rows of the symbols tried so far (and the $ row), this side
  std::uint8_t out[edit_band] = {};   // D[i][i - K + t], alignments past a piece's end
  std::uint8_t raw[edit_band] = {};   // the same before the cut (differs on a piece's last row)
  std::int32_t next = -1;             // -1: ending the phase not tried yet; 256: nothing left
  std::int32_t phase = 0;
  std::int32_t taken = 0;             // i: text symbols taken in this phase
  std::int32_t back = -1;             // where the walk resumes when this frame is done: the
                                      // deepest frame below with something left (-1: the end)
};

// A phase: read symbols [a, b), grown on `side` (0: prepend, the part read right to left), and
// its steps first .. first + steps - 1 (where each ends: the walk's plan).
struct edit_phase {
  std::uint32_t a = 0, b = 0;
  int side = 0;
  int first = 0, steps = 0;
  bool other = true;  // whether the other side's rows are needed (a later phase or the end uses them)
};

KOKKOS_INLINE_FUNCTION std::uint8_t edit_add(std::uint8_t v, int d) {
  const int w = int(v) + d;
  return std::uint8_t(w < int(edit_far) ? w : int(edit_far));
}

KOKKOS_INLINE_FUNCTION std::uint8_t edit_min(std::uint8_t a, std::uint8_t b) { return a < b ? a : b; }

template <class I, class Scheme>
struct edit_walker {
  using frame = edit_frame;
  // At most 80 registers a lane on CUDA (6 blocks of 128 an SM): the walk keeps ~90 live at its
  // widest; capped, ptxas spills 96 bytes and the walks ran 1.17-1.32x faster at k = 2-4
  // (bench/RESULTS.md §73), level at k = 1.
  using launch_bounds = Kokkos::LaunchBounds<128, 6>;
  bidirectional_ref<I> index;
  Scheme scheme;
  int searches = 0, pieces = 1, max_errors = 0;

  KOKKOS_INLINE_FUNCTION std::uint64_t extra_frames() const { return std::uint64_t(max_errors + pieces + 1); }

  // The per-search tables of a walk.
  struct plan {
    edit_phase phases[edit_max_pieces];
    int phase_count = 0;
    std::uint32_t ends[edit_max_pieces];  // by step: the row of its phase that ends it
    const int* lower = nullptr;
    const int* upper = nullptr;
    int naive[2] = {0, 0};  // bounds of the one-piece search of a short read (lower, upper)
  };

  // A walk in progress: its plan and the depth of its top frame (-1: ended). Its plan may
  // point into itself (a short read's bounds): start it where it stays.
  struct state {
    plan q;
    std::int64_t depth = -1;
    int s = 0;  // the search
  };

  KOKKOS_INLINE_FUNCTION static int symbol(const std::uint8_t* read, const edit_phase& p, std::uint32_t j) {
    return p.side == 0 ? read[p.b - j] : read[p.a + j - 1];
  }

  // Row j's step within phase p (the first step whose end row is at or after j; row 0 is the
  // phase's first step's).
  KOKKOS_INLINE_FUNCTION static int step_of(const plan& q, const edit_phase& p, std::uint32_t j) {
    int s = p.first;
    while (s + 1 < p.first + p.steps && j > q.ends[s]) ++s;
    return s;
  }

  // A phase's first column: D[0][j] = errors + j, cut where a step ends within its bounds.
  KOKKOS_INLINE_FUNCTION void start_phase(const plan& q, edit_frame& f, const bi_rows& rows, int phase, int errors) const {
    const edit_phase& p = q.phases[phase];
    const int K = max_errors;
    const std::uint32_t L = p.b - p.a;
    f.rows = rows;
    f.phase = phase;
    f.taken = 0;
    f.next = -1;
    std::uint8_t previous = edit_far;
    for (int t = 0; t <= 2 * K; ++t) {
      const int j = t - K;
      std::uint8_t raw = edit_far, out = edit_far;
      if (j == 0) {
        raw = out = std::uint8_t(errors);
      } else if (j > 0 && std::uint32_t(j) <= L) {
        const int s = step_of(q, p, std::uint32_t(j));
        raw = edit_add(previous, 1);
        if (raw > q.upper[s]) raw = edit_far;
        out = raw;
        if (std::uint32_t(j) == q.ends[s] && s + 1 < p.first + p.steps && raw < q.lower[s]) out = edit_far;
      }
      f.raw[t] = raw;
      f.out[t] = out;
      previous = out;
    }
    f.smaller = p.side == 0 ? end_row_in(index.forward, rows.fs, rows.fe) : end_row_in(index.reverse, rows.rs, rows.re);
  }

  // The next column, text symbol b taken: returns its least value (edit_far: a dead end).
  KOKKOS_INLINE_FUNCTION int next_column(const plan& q, const std::uint8_t* read, const edit_frame& f, edit_frame& g,
                                         int b) const {
    const edit_phase& p = q.phases[f.phase];
    const int K = max_errors, i = f.taken;
    const std::uint32_t L = p.b - p.a;
    int least = edit_far;
    int s = p.first;
    for (int t = 0; t <= 2 * K; ++t) {
      const int j = i + 1 - K + t;
      std::uint8_t raw = edit_far, out = edit_far;
      const bool last = t == 2 * K;
      if (j == 0) {
        if (!last) raw = out = edit_add(f.out[t + 1], 1);  // text before the phase's first symbol
        if (raw > q.upper[p.first]) raw = out = edit_far;
      } else if (j > 0 && std::uint32_t(j) <= L) {
        while (s + 1 < p.first + p.steps && std::uint32_t(j) > q.ends[s]) ++s;
        raw = edit_add(f.out[t], symbol(read, p, std::uint32_t(j)) == b ? 0 : 1);  // from D[i][j-1]
        if (!last) raw = edit_min(raw, edit_add(f.raw[t + 1], 1));                // b inserted
        if (t > 0) raw = edit_min(raw, edit_add(g.out[t - 1], 1));                 // symbol j left out
        if (raw > q.upper[s]) raw = edit_far;
        out = raw;
        if (std::uint32_t(j) == q.ends[s] && s + 1 < p.first + p.steps) {
          // The end of a step inside the phase: cut here within bounds, or earlier plus b.
          if (raw < q.lower[s]) out = edit_far;
          if (!last) out = edit_min(out, edit_add(f.out[t + 1], 1));
          if (out > q.upper[s + 1]) out = edit_far;
        }
      }
      g.raw[t] = raw;
      g.out[t] = out;
      least = raw < least ? raw : least;
      least = out < least ? out : least;
    }
    return least;
  }

  // Search s's plan for a read of m symbols; false when the search has no walk (a read shorter
  // than the scheme's pieces runs one search of one piece, with any K errors, instead). Sets
  // the pieces the plan cuts the read into and the first piece it visits.
  KOKKOS_INLINE_FUNCTION bool make_plan(plan& q, std::uint64_t m, int s, int& pieces, int& first) const {
    q = plan{};
    pieces = this->pieces;
    const int* order = &scheme(std::size_t(s) * 3 * pieces);
    const int first_piece = 0;
    if (m < std::uint64_t(pieces)) {
      if (s > 0) return false;
      order = &first_piece;
      pieces = 1;
      q.naive[1] = max_errors;
      q.lower = &q.naive[0];
      q.upper = &q.naive[1];
    } else {
      q.lower = order + pieces;
      q.upper = q.lower + pieces;
    }
    first = order[0];
    // Sides: a piece right of those visited grows rightwards (append), else leftwards; the
    // first takes its successor's side. Phases: runs of one side.
    int sides[edit_max_pieces];
    int high = order[0];
    for (int i = 1; i < pieces; ++i) {
      sides[i] = order[i] > high ? 1 : 0;
      if (order[i] > high) high = order[i];
    }
    sides[0] = pieces > 1 ? sides[1] : 0;
    for (int i = 0; i < pieces; ++i) {
      const std::uint32_t a = std::uint32_t(piece_start(m, pieces, order[i]));
      const std::uint32_t b = std::uint32_t(piece_start(m, pieces, order[i] + 1));
      if (i == 0 || sides[i] != sides[i - 1]) {
        edit_phase& p = q.phases[q.phase_count++];
        p.a = a;
        p.b = b;
        p.side = sides[i];
        p.first = i;
        p.steps = 0;
      }
      edit_phase& p = q.phases[q.phase_count - 1];
      p.a = a < p.a ? a : p.a;
      p.b = b > p.b ? b : p.b;
      ++p.steps;
      q.ends[i] = p.side == 0 ? p.b - a : b - p.a;
    }
    // The forward rows are what the end reports: a phase that prepends (the forward index's
    // side) and after which every phase prepends needs no rows of the reverse index.
    bool later_append = false;
    for (int ph = q.phase_count - 1; ph >= 0; --ph) {
      q.phases[ph].other = later_append || q.phases[ph].side == 1;
      later_append = later_append || q.phases[ph].side == 1;
    }
    return true;
  }

  // Starts search s of a read of m symbols in frames[base, base + m + K + pieces + 1):
  // whether it has steps.
  template <class Frames>
  KOKKOS_INLINE_FUNCTION bool start(state& w, const std::uint8_t* read, std::uint64_t m, int s, const Frames& frames,
                                    std::uint64_t base) const {
    plan& q = w.q;
    int pieces = 0, first_piece = 0;
    w.s = s;
    w.depth = -1;
    if (!make_plan(q, m, s, pieces, first_piece)) return false;
    edit_frame& f = frames(base);
    start_phase(q, f, index.all_rows(), 0, 0);
    f.back = -1;
    w.depth = 0;
    // A first piece without errors that is longer than the k-mer tables' k plus K: its first k
    // symbols in the phase's direction from the tables, taken at once (the widest intervals,
    // where every symbol is tried a step each). The column then holds the one exact cell: its
    // others are errors in the first piece, past its bound of 0.
    const edit_phase& p = q.phases[0];
    const std::uint32_t a = std::uint32_t(piece_start(m, pieces, first_piece));
    const std::uint32_t b = std::uint32_t(piece_start(m, pieces, first_piece + 1));
    const std::uint32_t k = std::uint32_t(index.kmer_length());
    bi_rows rows;
    if (k > 0 && q.upper[0] == 0 && b - a > k + std::uint32_t(max_errors) &&
        index.kmer_rows(read + (p.side == 0 ? b - k : a), rows)) {
      if (rows.fs >= rows.fe) {
        w.depth = -1;
        return false;
      }
      f.rows = rows;
      f.taken = std::int32_t(k);
      for (int t = 0; t <= 2 * max_errors; ++t) f.raw[t] = f.out[t] = t == max_errors ? 0 : edit_far;
      f.smaller = p.side == 0 ? end_row_in(index.forward, rows.fs, rows.fe) : end_row_in(index.reverse, rows.rs, rows.re);
    }
    return true;
  }

  // A deferred chain: a unique match in its last phase, its column and rows, read and search.
  struct chain {
    std::uint64_t forward_row = 0, reverse_row = 0, read = 0;
    std::int32_t taken = 0;
    std::int8_t phase = 0, search = 0;
    std::uint8_t raw[edit_band] = {}, out[edit_band] = {};
  };
  KOKKOS_INLINE_FUNCTION static chain chain_of(const edit_frame& f, std::uint64_t q, int s) {
    chain c;
    c.forward_row = f.rows.fs;
    c.reverse_row = f.rows.rs;
    c.read = q;
    c.taken = f.taken;
    c.phase = std::int8_t(f.phase);
    c.search = std::int8_t(s);
    for (int t = 0; t < edit_band; ++t) {
      c.raw[t] = f.raw[t];
      c.out[t] = f.out[t];
    }
    return c;
  }

  // Runs a deferred chain (its own kernel: the registers of this loop do not count against
  // the walks'): the text's own symbols one after another, a column each, reporting at every
  // row where the last phase may end, until the band holds nothing within bounds.
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void finish(const chain& c, const std::uint8_t* read, std::uint64_t m, const Sink& sink) const {
    plan q;
    int pieces = 0, first_piece = 0;
    make_plan(q, m, c.search, pieces, first_piece);
    const edit_phase& p = q.phases[c.phase];
    const int K = max_errors, last_step = p.first + p.steps - 1, sep = index.separator();
    const auto& fm = p.side == 0 ? index.forward : index.reverse;
    std::uint64_t row = p.side == 0 ? c.forward_row : c.reverse_row;
    edit_frame columns[2];
    for (int t = 0; t < edit_band; ++t) {
      columns[0].raw[t] = c.raw[t];
      columns[0].out[t] = c.out[t];
    }
    columns[0].phase = columns[1].phase = c.phase;
    columns[0].taken = c.taken;
    for (int at = 0;; at ^= 1) {
      const edit_frame& column = columns[at];
      edit_frame& next = columns[at ^ 1];
      std::uint8_t symbol = 0;
      if (!text_step(fm, row, symbol, row) || int(symbol) == sep) return;
      if (next_column(q, read, column, next, symbol) > q.upper[last_step]) return;
      next.taken = column.taken + 1;
      const int t = int(p.b - p.a) - next.taken + K;
      const int v = t < 0 || t > 2 * K ? int(edit_far) : int(next.raw[t]);
      if (v <= q.upper[last_step] && v >= q.lower[last_step]) {
        const std::uint64_t first_row = p.side == 0 ? row : c.forward_row;  // appending keeps the forward row
        sink(first_row, first_row + 1, v);
      }
    }
  }

  // One step of the walk: ends the top frame's phase where it can (pushing the next phase's
  // frame, or reporting at the last phase's end), else tries its next text symbol, pushing a
  // frame when the column stays within bounds. A frame with nothing left is left at once for
  // the deepest one below that has something (`back`): a chain of frames of one symbol each (a
  // match that occurs once grows by the text's symbol) costs a step a symbol, none to unwind.
  // Calls sink(first forward row, end forward row, distance) for each match found; whether
  // the walk goes on.
  // defer(frame, search): whether the caller takes a unique match's chain in the last phase
  // (then finish() runs it later, in a kernel of such chains alone).
  template <class Frames, class Sink, class Defer>
  KOKKOS_INLINE_FUNCTION bool step(state& w, const std::uint8_t* read, std::uint64_t, const Frames& frames,
                                   std::uint64_t base, const Sink& sink, const Defer& defer) const {
    const plan& q = w.q;
    std::int64_t& depth = w.depth;
    const int K = max_errors;
    const int sep = index.separator(), first = index.next_symbol(0);
    edit_frame& f = frames(base + std::uint64_t(depth));
    do {  // one step: each `break` leaves it without a new frame
      if (f.next >= 256) break;
      const edit_phase& p = q.phases[f.phase];
      const int last_step = p.first + p.steps - 1;
      if (f.next < 0) {
        // End the phase here when its last row is within the band and its last step's bounds;
        // then (or else) the text symbols, in this same step unless a frame was pushed.
        f.next = first;
        const int t = int(p.b - p.a) - f.taken + K;
        const int v = t < 0 || t > 2 * K ? int(edit_far) : int(f.raw[t]);
        if (v <= q.upper[last_step] && v >= q.lower[last_step]) {
          if (f.phase + 1 == q.phase_count) {
            sink(f.rows.fs, f.rows.fe, v);
          } else {
            edit_frame& g = frames(base + std::uint64_t(depth) + 1);
            start_phase(q, g, f.rows, f.phase + 1, v);
            g.back = std::int32_t(depth);
            ++depth;
            return true;
          }
        }
      }
      const int b = f.next;
      f.next = index.next_symbol(b + 1);
      const auto& fm = p.side == 0 ? index.forward : index.reverse;
      const std::uint64_t s0 = p.side == 0 ? f.rows.fs : f.rows.rs, e0 = p.side == 0 ? f.rows.fe : f.rows.re;
      const std::uint64_t o0 = p.side == 0 ? f.rows.rs : f.rows.fs;
      std::uint64_t ns, ne, os = 0, oe = 0;
      edit_frame& g = frames(base + std::uint64_t(depth) + 1);
      if (b == first && e0 - s0 == 1) {
        // One occurrence: the text's next symbol, no branch. In the last phase, the rest of it
        // in this step, nothing pushed (a unique match has one way on): the columns alternate
        // between this frame and the one above, a report at every row where the phase may
        // end, until the band holds nothing within bounds. (One call of next_column serves
        // both: a second would cost the kernel registers, and the branching steps occupancy.)
        f.next = 256;
        const bool last_phase = f.phase + 1 == q.phase_count;
        if (last_phase && defer(f, w.s)) break;
        edit_frame* column = &f;
        edit_frame* next = &g;
        std::uint64_t row = s0;
        bool push = false;
        g.phase = f.phase;
        for (;;) {
          std::uint8_t c = 0;
          if (!text_step(fm, row, c, row) || int(c) == sep) break;
          if (next_column(q, read, *column, *next, c) > q.upper[last_step]) break;
          if (!last_phase) {
            push = true;
            break;
          }
          next->taken = column->taken + 1;
          const int t = int(p.b - p.a) - next->taken + K;
          const int v = t < 0 || t > 2 * K ? int(edit_far) : int(next->raw[t]);
          if (v <= q.upper[last_step] && v >= q.lower[last_step]) {
            const std::uint64_t first_row = p.side == 0 ? row : f.rows.fs;  // appending keeps the forward row
            sink(first_row, first_row + 1, v);
          }
          edit_frame* done = column;
          column = next;
          next = done;
        }
        if (!push) break;
        ns = row;
        ne = ns + 1;
        os = o0;
        oe = o0 + 1;
      } else if (b == sep) {
        if (p.other) f.smaller += fm.rank(std::uint8_t(b), e0) - fm.rank(std::uint8_t(b), s0);
        break;
      } else if (!p.other) {
        // No running sum to keep: the column first, the ranks only for a symbol that keeps it.
        if (next_column(q, read, f, g, b) > q.upper[last_step]) break;
        ns = fm.C[b] + fm.rank(std::uint8_t(b), s0);
        ne = fm.C[b] + fm.rank(std::uint8_t(b), e0);
        if (ns == ne) break;
      } else {
        const std::uint64_t d = step_rows(fm, std::uint8_t(b), s0, e0, o0, f.smaller, ns, ne, os, oe);
        f.smaller += d;
        if (d == 0) break;
        if (next_column(q, read, f, g, b) > q.upper[last_step]) break;
      }
      g.rows = p.side == 0 ? bi_rows{ns, ne, os, oe} : bi_rows{os, oe, ns, ne};
      g.phase = f.phase;
      g.taken = f.taken + 1;
      g.next = -1;
      g.back = f.next < 256 ? std::int32_t(depth) : f.back;
      g.smaller = p.side == 0 ? end_row_in(index.forward, g.rows.fs, g.rows.fe)
                              : end_row_in(index.reverse, g.rows.rs, g.rows.re);
      ++depth;
      return true;
    } while (false);
    if (f.next >= 256) depth = f.back;
    return depth >= 0;
  }
};

}  // namespace strix::approximate::detail
