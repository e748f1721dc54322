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
// the plan and the first frame in frames[base, base + m). step_search then walks it.
template <class I, class Scheme, class Frames>
KOKKOS_INLINE_FUNCTION void start_search(const bidirectional_ref<I>& index, std::uint64_t m, const Scheme& scheme,
                                         int s, int pieces, const Frames& frames, std::uint64_t base) {
  const int* order = &scheme(std::size_t(s) * 3 * pieces);
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
  {
    walk_frame& f = frames(base);
    f.rows = index.all_rows();
    f.errors = 0;
    f.back = -1;
    f.next = index.next_symbol(0);
    f.smaller = f.side == 0 ? end_row_in(index.forward, f.rows.fs, f.rows.fe) : end_row_in(index.reverse, f.rows.rs, f.rows.re);
  }
}

// One step of the walk at `depth` (-1: ended): tries the top frame's next symbol, pushing a
// frame when it keeps the match within bounds; a frame with no symbol left is left at once for
// the deepest one below it that has some (`back`), so that a chain of frames that each had one
// symbol to try (a match that occurs once grows by the text's symbol) costs no step to unwind.
// Calls sink(first forward row, end forward row, distance) for each match found.
template <class I, class Scheme, class Frames, class Sink>
KOKKOS_INLINE_FUNCTION void step_search(const bidirectional_ref<I>& index, const std::uint8_t* read, std::uint64_t m,
                                        const Scheme& scheme, int s, int pieces, const Frames& frames,
                                        std::uint64_t base, std::int64_t& depth, const Sink& sink) {
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
      // One occurrence: the text's next symbol, no branch.
      f.next = 256;
      std::uint8_t c = 0;
      if (!text_step(fm, s0, c, ns) || int(c) == sep) break;
      b = c;
      ne = ns + 1;
      os = o0;
      oe = o0 + 1;
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
  KOKKOS_INLINE_FUNCTION bool start(state& w, std::uint64_t m, int s, const Frames& frames, std::uint64_t base) const {
    start_search(index, m, scheme, s, pieces, frames, base);
    w.s = s;
    w.depth = 0;
    return true;
  }

  // One step; whether the walk goes on.
  template <class Frames, class Sink>
  KOKKOS_INLINE_FUNCTION bool step(state& w, const std::uint8_t* read, std::uint64_t m, const Frames& frames,
                                   std::uint64_t base, const Sink& sink) const {
    step_search(index, read, m, scheme, w.s, pieces, frames, base, w.depth, sink);
    return w.depth >= 0;
  }
};

}  // namespace strix::approximate::detail
