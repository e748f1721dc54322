// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Approximate search's edit-distance walk (device code, included by approximate_def.hpp).
//
// A search extends the match one text symbol at a time, piece by piece in the search's order,
// and aligns each piece with the text it has taken so far: a banded dynamic-programming column
// a stack frame (rows i of text, columns j of the piece in the direction of extension,
// D[i][j] = the errors before the piece + the edit distance of its first j symbols and those i
// text symbols). A piece is complete where its last column's value meets the step's bounds;
// the next piece starts there with that value. Every alignment of a read splits at its pieces'
// borders into alignments of each piece, so a lossless scheme finds it (search_scheme.hpp).
// Text inserted between two pieces may count for either (the scheme covers one of the two
// spreads of errors, but not always the same one a search's order would prefer).
// A frame's band holds D[i][j] for j = i - K .. i + K (K the scheme's most errors): farther
// cells exceed K. Frames a read: its length + K + pieces + 1 (text taken is at most m + K).
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
  std::uint8_t band[edit_band] = {};  // D[i][i - K + t]
  std::int32_t next = -1;             // -1: completing the piece not tried yet; 256: nothing left
  std::int32_t step = 0;              // the piece's place in the search's order
  std::int32_t taken = 0;             // i: text symbols taken in this piece
};

// A piece's read symbols [a, b) and the side it grows on (0: prepend, right to left).
struct edit_piece {
  std::uint32_t a = 0, b = 0;
  int side = 0;
};

KOKKOS_INLINE_FUNCTION std::uint8_t edit_add(std::uint8_t v, int d) {
  const int w = int(v) + d;
  return std::uint8_t(w < int(edit_far) ? w : int(edit_far));
}

template <class I, class Scheme>
struct edit_walker {
  using frame = edit_frame;
  bidirectional_ref<I> index;
  Scheme scheme;
  int searches = 0, pieces = 1, max_errors = 0;

  KOKKOS_INLINE_FUNCTION std::uint64_t extra_frames() const { return std::uint64_t(max_errors + pieces + 1); }

  template <class Frames, class Sink>
  KOKKOS_INLINE_FUNCTION void operator()(const std::uint8_t* read, std::uint64_t m, const Frames& frames,
                                         std::uint64_t base, const Sink& sink) const {
    for (int s = 0; s < searches; ++s) walk(read, m, s, frames, base, sink);
  }

  // The symbol at column j (1-based) of piece p in its direction of extension.
  KOKKOS_INLINE_FUNCTION static int symbol(const std::uint8_t* read, const edit_piece& p, int j) {
    return p.side == 0 ? read[p.b - j] : read[p.a + j - 1];
  }

  // A piece's first frame: D[0][j] = errors + j (the piece's first j symbols left out).
  KOKKOS_INLINE_FUNCTION void start_piece(edit_frame& f, const bi_rows& rows, int step, const edit_piece& p,
                                          int errors) const {
    const int K = max_errors, L = int(p.b - p.a);
    f.rows = rows;
    f.step = step;
    f.taken = 0;
    f.next = -1;
    for (int t = 0; t <= 2 * K; ++t) {
      const int j = t - K;
      f.band[t] = j < 0 || j > L ? edit_far : edit_add(std::uint8_t(errors), j);
    }
    f.smaller = p.side == 0 ? end_row_in(index.forward, rows.fs, rows.fe) : end_row_in(index.reverse, rows.rs, rows.re);
  }

  template <class Frames, class Sink>
  KOKKOS_INLINE_FUNCTION void walk(const std::uint8_t* read, std::uint64_t m, int s, const Frames& frames,
                                   std::uint64_t base, const Sink& sink) const {
    const int* order = &scheme(std::size_t(s) * 3 * pieces);
    const int* lower = order + pieces;
    const int* upper = lower + pieces;
    const int K = max_errors;
    // The plan: the first piece and those left of the ones visited grow leftwards (prepend),
    // those right of them rightwards (append).
    edit_piece plan[edit_max_pieces];
    int high = order[0];
    for (int i = 0; i < pieces; ++i) {
      const int piece = order[i];
      plan[i].a = std::uint32_t(piece_start(m, pieces, piece));
      plan[i].b = std::uint32_t(piece_start(m, pieces, piece + 1));
      plan[i].side = i > 0 && piece > high ? 1 : 0;
      if (piece > high) high = piece;
    }
    const int sep = index.separator();
    start_piece(frames(base), index.all_rows(), 0, plan[0], 0);
    std::int64_t depth = 0;
    while (depth >= 0) {
      edit_frame& f = frames(base + std::uint64_t(depth));
      if (f.next >= 256) {
        --depth;
        continue;
      }
      const edit_piece& p = plan[f.step];
      const int L = int(p.b - p.a), i = f.taken, U = upper[f.step];
      if (f.next < 0) {
        // Complete the piece here when its last column is within the band and the bounds.
        f.next = index.next_symbol(0);
        const int t = L - i + K;
        if (t < 0 || t > 2 * K) continue;
        const int v = f.band[t];
        if (v > U || v < lower[f.step]) continue;
        if (f.step + 1 == pieces) {
          sink(f.rows.fs, f.rows.fe, v);
          continue;
        }
        start_piece(frames(base + std::uint64_t(depth) + 1), f.rows, f.step + 1, plan[f.step + 1], v);
        ++depth;
        continue;
      }
      const int b = f.next;
      f.next = index.next_symbol(b + 1);
      const auto& fm = p.side == 0 ? index.forward : index.reverse;
      const std::uint64_t s0 = p.side == 0 ? f.rows.fs : f.rows.rs, e0 = p.side == 0 ? f.rows.fe : f.rows.re;
      const std::uint64_t o0 = p.side == 0 ? f.rows.rs : f.rows.fs;
      std::uint64_t ns, ne, os, oe;
      const std::uint64_t d = step_rows(fm, std::uint8_t(b), s0, e0, o0, f.smaller, ns, ne, os, oe);
      f.smaller += d;
      if (d == 0 || b == sep) continue;
      // The next column: D[i+1][j] from D[i][j-1] (b against the piece's j-th symbol),
      // D[i][j] + 1 (b inserted) and D[i+1][j-1] + 1 (the j-th symbol left out).
      edit_frame& g = frames(base + std::uint64_t(depth) + 1);
      int best = edit_far;
      for (int t = 0; t <= 2 * K; ++t) {
        const int j = i + 1 - K + t;
        std::uint8_t v = edit_far;
        if (j == 0) {
          if (t + 1 <= 2 * K) v = edit_add(f.band[t + 1], 1);  // text before the piece's first symbol
        } else if (j > 0 && j <= L) {
          v = edit_add(f.band[t], symbol(read, p, j) == b ? 0 : 1);
          if (t + 1 <= 2 * K) {
            const std::uint8_t w = edit_add(f.band[t + 1], 1);
            v = w < v ? w : v;
          }
          if (t > 0) {
            const std::uint8_t w = edit_add(g.band[t - 1], 1);
            v = w < v ? w : v;
          }
        }
        g.band[t] = v;
        best = v < best ? v : best;
      }
      if (best > U) continue;
      g.rows = p.side == 0 ? bi_rows{ns, ne, os, oe} : bi_rows{os, oe, ns, ne};
      g.step = f.step;
      g.taken = i + 1;
      g.next = -1;
      g.smaller = p.side == 0 ? end_row_in(index.forward, g.rows.fs, g.rows.fe)
                              : end_row_in(index.reverse, g.rows.rs, g.rows.re);
      ++depth;
    }
  }
};

}  // namespace strix::approximate::detail
