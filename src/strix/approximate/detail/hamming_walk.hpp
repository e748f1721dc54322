// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Approximate search's Hamming walk (device code, included by approximate_def.hpp): one read
// through one search of a scheme, depth first over the read's positions in the search's order,
// one stack frame a read position (in scratch memory the caller sizes: m frames a walk), a
// step at a time (the caller's lane interleaves steps with taking its next walk).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/approximate/bidirectional_ref.hpp>

namespace strix::approximate::detail {

// A read position of the walk: the match's rows before it, and how far its symbols are tried.
struct walk_frame {
  bi_rows rows;
  std::uint64_t smaller = 0;  // rows of the symbols tried so far (and the $ row), this side
  std::uint64_t pos = 0;      // the read position this frame extends the match with
  std::uint64_t left = 0;     // positions after it in its piece
  std::int32_t next = 0;      // the next symbol to try; 256: none left
  std::int32_t errors = 0;    // errors before this position
  std::int32_t step = 0;      // the piece's place in the search's order (its bounds)
  std::int32_t side = 0;      // 0: prepend (forward index), 1: append (reverse index)
  std::int32_t piece_end = 0;
  std::int32_t back = -1;     // where the walk resumes when this frame is done: the deepest
                              // frame below it with symbols left (-1: none, the walk ends)
};

// Starts read [read, read + m)'s walk through search s (bounds in scheme[s * 3 pieces, ...)):
// the plan and the first frame in frames[base, base + m); returns its depth (-1: the walk has
// no steps). step_search then walks it. When the first piece admits no error and is longer
// than the k-mer tables' k, its last k symbols are looked up in them: the walk starts at
// depth k, its first k steps (the widest intervals, two lines read a step) saved.
template <class I, class Scheme, class Frames>
KOKKOS_INLINE_FUNCTION std::int64_t start_search(const bidirectional_ref<I>& index, const std::uint8_t* read,
                                                 std::uint64_t m, const Scheme& scheme, int s, int pieces,
                                                 const Frames& frames, std::uint64_t base) {
  const int* order = &scheme(std::size_t(s) * 3 * pieces);
  const int* upper = order + 2 * pieces;
  // The plan: each piece in the search's order, prepended right to left when it lies left of
  // the pieces visited (and the first piece), appended left to right when it lies right.
  std::uint64_t t = 0;
  int high = order[0];
  for (int i = 0; i < pieces; ++i) {
    const int piece = order[i];
    int side = 0;
    if (i > 0 && piece > high) side = 1;
    if (piece > high) high = piece;
    const std::uint64_t a = piece_start(m, pieces, piece), b = piece_start(m, pieces, piece + 1);
    for (std::uint64_t j = 0; j < b - a; ++j, ++t) {
      walk_frame& f = frames(base + t);
      f.pos = side == 0 ? b - 1 - j : a + j;
      f.side = side;
      f.step = i;
      f.piece_end = j + 1 == b - a;
      f.left = b - a - 1 - j;
    }
  }
  std::uint64_t depth = 0;
  bi_rows rows = index.all_rows();
  const std::uint64_t k = std::uint64_t(index.kmer_length());
  const std::uint64_t b = piece_start(m, pieces, order[0] + 1);
  if (k > 0 && upper[0] == 0 && b - piece_start(m, pieces, order[0]) > k && index.kmer_rows(read + (b - k), rows)) {
    if (rows.fs >= rows.fe) return -1;
    depth = k;
  }
  walk_frame& f = frames(base + depth);
  f.rows = rows;
  f.errors = 0;
  f.back = -1;
  f.next = index.next_symbol(0);
  f.smaller = f.side == 0 ? end_row_in(index.forward, f.rows.fs, f.rows.fe) : end_row_in(index.reverse, f.rows.rs, f.rows.re);
  return std::int64_t(depth);
}

// The rest of a walk whose match occurs once, in registers: the match grows by the text's own
// symbols (LF on the row of the side it grows on; the other side's row stays, as text_step
// says), each compared with the read's, from frame f's read position to the plan's end. No
// frame is written or read again: a unique match has one way on, so the stack has nothing to
// keep (and on a GPU, lanes whose matches are unique run this loop together).
template <class I, class Sink>
KOKKOS_INLINE_FUNCTION void finish_unique(const bidirectional_ref<I>& index, const std::uint8_t* read, std::uint64_t m,
                                          const int* order, const int* lower, const int* upper, int pieces,
                                          const walk_frame& f, const Sink& sink) {
  const int sep = index.separator();
  std::uint64_t forward_row = f.rows.fs, reverse_row = f.rows.rs;
  int errors = f.errors;
  int high = order[0];
  for (int i = 1; i <= f.step; ++i) high = order[i] > high ? order[i] : high;
  for (int i = f.step; i < pieces; ++i) {
    const int piece = order[i];
    int side = f.side;
    if (i > f.step) {
      side = piece > high ? 1 : 0;
      high = piece > high ? piece : high;
    }
    const std::uint64_t a = piece_start(m, pieces, piece), b = piece_start(m, pieces, piece + 1);
    std::uint64_t pos = i > f.step ? (side == 0 ? b - 1 : a) : f.pos;
    const std::uint64_t count = side == 0 ? pos - a + 1 : b - pos;
    for (std::uint64_t j = 0; j < count; ++j, pos = side == 0 ? pos - 1 : pos + 1) {
      std::uint8_t c = 0;
      if (side == 0) {
        if (!text_step(index.forward, forward_row, c, forward_row)) return;
      } else if (!text_step(index.reverse, reverse_row, c, reverse_row)) {
        return;
      }
      if (int(c) == sep) return;
      errors += int(c) != int(read[pos]) ? 1 : 0;
      if (errors > upper[i]) return;
    }
    if (errors < lower[i]) return;
  }
  sink(forward_row, forward_row + 1, errors);
}

// One step of the walk at `depth` (-1: ended): tries the top frame's next symbol, pushing a
// frame when it keeps the match within bounds; a frame with no symbol left is left at once for
// the deepest one below it that has some (`back`), so that a chain of frames that each had one
// symbol to try (a match that occurs once grows by the text's symbol) costs no step to unwind.
// Calls sink(first forward row, end forward row, distance) for each match found.
template <class I, class Scheme, class Frames, class Sink, class Defer>
KOKKOS_INLINE_FUNCTION void step_search(const bidirectional_ref<I>& index, const std::uint8_t* read, std::uint64_t m,
                                        const Scheme& scheme, int s, int pieces, const Frames& frames,
                                        std::uint64_t base, std::int64_t& depth, const Sink& sink, const Defer& defer) {
  const int* lower = &scheme(std::size_t(s) * 3 * pieces) + pieces;
  const int* upper = lower + pieces;
  const int sep = index.separator(), first = index.next_symbol(0);
  walk_frame& f = frames(base + std::uint64_t(depth));
  do {  // one try: each `break` leaves it without a new frame
    if (f.next >= 256) break;
    const auto& fm = f.side == 0 ? index.forward : index.reverse;
    const std::uint64_t s0 = f.side == 0 ? f.rows.fs : f.rows.rs, e0 = f.side == 0 ? f.rows.fe : f.rows.re;
    const std::uint64_t o0 = f.side == 0 ? f.rows.rs : f.rows.fs;
    const int want = read[f.pos];
    int b = f.next;
    std::uint64_t ns, ne, os, oe;
    if (e0 - s0 == 1 && b == first) {
      // One occurrence: the rest of the walk without frames, later by a lane of a kernel of such
      // chains alone when the caller takes it (defer), else here.
      f.next = 256;
      if (!defer(f, s)) finish_unique(index, read, m, &scheme(std::size_t(s) * 3 * pieces), lower, upper, pieces, f, sink);
      break;
    } else {
      if (f.errors == upper[f.step]) {
        // No error left at this step: the read's symbol only, after summing those before it.
        if (b > want || !fm.occurs(std::uint8_t(want))) {
          f.next = 256;
          break;
        }
        for (; b < want; b = index.next_symbol(b + 1))
          f.smaller += fm.rank(std::uint8_t(b), e0) - fm.rank(std::uint8_t(b), s0);
        f.next = 256;
      } else {
        f.next = index.next_symbol(b + 1);
      }
      const std::uint64_t d = step_rows(fm, std::uint8_t(b), s0, e0, o0, f.smaller, ns, ne, os, oe);
      f.smaller += d;
      if (d == 0 || b == sep) break;
    }
    const int errors = f.errors + (b != want ? 1 : 0);
    if (errors > upper[f.step]) break;
    if (errors + (f.piece_end ? 0 : std::int64_t(f.left)) < lower[f.step]) break;
    bi_rows next_rows = f.side == 0 ? bi_rows{ns, ne, os, oe} : bi_rows{os, oe, ns, ne};
    if (std::uint64_t(depth) + 1 == m) {
      if (errors >= lower[pieces - 1]) sink(next_rows.fs, next_rows.fe, errors);
      break;
    }
    walk_frame& g = frames(base + std::uint64_t(depth) + 1);
    g.rows = next_rows;
    g.errors = errors;
    g.next = first;
    g.back = f.next < 256 ? std::int32_t(depth) : f.back;
    g.smaller = g.side == 0 ? end_row_in(index.forward, g.rows.fs, g.rows.fe) : end_row_in(index.reverse, g.rows.rs, g.rows.re);
    ++depth;
    return;
  } while (false);
  if (f.next >= 256) depth = f.back;
}

}  // namespace strix::approximate::detail

namespace strix::approximate::detail {

// A read's walks through the scheme's searches, Hamming distance: m frames a walk.
template <class I, class Scheme>
struct hamming_walker {
  using frame = walk_frame;
  using launch_bounds = Kokkos::LaunchBounds<>;  // capped at 80 registers it spills more than it gains (§43)
  bidirectional_ref<I> index;
  Scheme scheme;
  int searches = 0, pieces = 1;

  // Frames a read needs beyond one per symbol.
  KOKKOS_INLINE_FUNCTION std::uint64_t extra_frames() const { return 0; }

  // A walk in progress: its search and the depth of its top frame (-1: ended).
  struct state {
    std::int64_t depth = -1;
    int s = 0;
  };

  // Starts search s of a read of m symbols in frames[base, base + m): whether it has steps.
  template <class Frames>
  KOKKOS_INLINE_FUNCTION bool start(state& w, const std::uint8_t* read, std::uint64_t m, int s, const Frames& frames,
                                    std::uint64_t base) const {
    w.s = s;
    w.depth = start_search(index, read, m, scheme, s, pieces, frames, base);
    return w.depth >= 0;
  }

  // One step; whether the walk goes on. defer(frame, search): whether the caller takes a
  // unique match's chain (then finish() runs it later).
  template <class Frames, class Sink, class Defer>
  KOKKOS_INLINE_FUNCTION bool step(state& w, const std::uint8_t* read, std::uint64_t m, const Frames& frames,
                                   std::uint64_t base, const Sink& sink, const Defer& defer) const {
    step_search(index, read, m, scheme, w.s, pieces, frames, base, w.depth, sink, defer);
    return w.depth >= 0;
  }

  // A deferred chain: what finish_unique needs of its frame, and the read and search.
  struct chain {
    std::uint64_t forward_row = 0, reverse_row = 0, read = 0;
    std::uint32_t pos = 0;
    std::int8_t errors = 0, step = 0, side = 0, search = 0;
  };
  KOKKOS_INLINE_FUNCTION static chain chain_of(const walk_frame& f, std::uint64_t q, int s) {
    return {f.rows.fs, f.rows.rs, q, std::uint32_t(f.pos), std::int8_t(f.errors), std::int8_t(f.step),
            std::int8_t(f.side), std::int8_t(s)};
  }
  template <class Sink>
  KOKKOS_INLINE_FUNCTION void finish(const chain& c, const std::uint8_t* read, std::uint64_t m, const Sink& sink) const {
    walk_frame f;
    f.rows.fs = c.forward_row;
    f.rows.rs = c.reverse_row;
    f.pos = c.pos;
    f.errors = c.errors;
    f.step = c.step;
    f.side = c.side;
    const int* order = &scheme(std::size_t(c.search) * 3 * pieces);
    finish_unique(index, read, m, order, order + pieces, order + 2 * pieces, pieces, f, sink);
  }
};

}  // namespace strix::approximate::detail
