// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definition of the inverse BWT on any execution space (see strix/bwt/bwt.hpp), included by
// libstrix's instantiation files only; STRIX_INVERSE_BWT_INSTANTIATE(SPACE) instantiates it.
//
// psi, the inverse of LF, steps from the row of suffix i to the row of suffix i + 1, so a walk
// along psi spells the text forwards: the symbol of suffix SA[v] is F[v], the first symbol of
// row v, which is L[psi(v)], the BWT's symbol of the row the walk steps to. psi(i) for i >= 1 is
// the row that a stable sort of the rows by their BWT symbol puts at position i - 1 (one radix
// pass of 8 bits), and F[i] is that row's key there; psi(0), the "$" row's, is the primary row
// (suffix 0). Each row's step is kept as one 8-byte word, psi(i) with F[i] in its top byte, so
// that a step of a walk is one random load (psi and L[psi] apart were two: a DRAM sector each);
// then one gather over those words makes each row's two steps, psi(psi(i)) with F[i] and
// F[psi(i)], so that the walks, bound by the latency of their dependent loads, take half as
// many (the gather's loads are independent: the GPU keeps many in flight at once).
//
// One walk would wait on memory at each of its n steps, so the cycle is cut at start rows:
// every multiple of a power of two s and the primary row. A piece is a start row and the rows
// psi reaches from it before the next start row (row 0 ends the text). The pieces are walked
// twice, all at once: first for their lengths and the start row each runs into; then, once
// list ranking over those links (pointer jumping, log2 of the pieces' count rounds) has given
// each piece its offset in the text, to write their symbols. Every piece ends (its own cycle
// holds its start row); a BWT inconsistent with its primary index (psi of more than one cycle)
// shows as pieces the chain from the primary row does not reach, or as a chain shorter than n.
// Memory besides the BWT and the text: 16 bytes a row during the sort (its keys and rows, each
// twice; 24 from 2^32 rows), then 8 bytes a row for the steps (written where the sort's other
// pair of arrays was) and 8 for the two-step words (where the sorted pair was), and 32 bytes a
// piece.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>

#include <strix/bwt/bwt.hpp>
#include <strix/core/device_view.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/workspace.hpp>

namespace strix::detail {

namespace inverse_bwt_steps {

constexpr std::uint64_t no_piece = std::numeric_limits<std::uint64_t>::max();

// Where the walks start and end: the multiples of `spacing` (a power of two) and the primary
// row. Piece p >= 1 starts at row p * spacing; piece 0 at the primary row, unless the primary
// row is a multiple of `spacing` (then piece 0 is unused).
struct piece_layout {
  std::uint64_t rows = 0, primary = 0, mask = 0;
  int shift = 0;
  std::uint64_t pieces = 0;

  KOKKOS_INLINE_FUNCTION bool ends_walk(std::uint64_t row) const { return (row & mask) == 0 || row == primary; }
  // The piece that starts at `row` (a row where walks end), or no_piece for row 0.
  KOKKOS_INLINE_FUNCTION std::uint64_t piece_at(std::uint64_t row) const {
    if (row == 0) return no_piece;
    return (row & mask) == 0 ? row >> shift : 0;
  }
  // The start row of piece p, or 0 where p is unused.
  KOKKOS_INLINE_FUNCTION std::uint64_t start_of(std::uint64_t p) const {
    if (p == 0) return (primary & mask) ? primary : 0;
    const std::uint64_t row = p << shift;
    return row < rows ? row : 0;
  }
};

// Four little-endian words at p (32-byte aligned): word stores on the device; memcpy on the
// host, which keeps type-based aliasing out of a byte array.
KOKKOS_FORCEINLINE_FUNCTION void store_block(std::uint8_t* p, std::uint64_t w0, std::uint64_t w1, std::uint64_t w2,
                                             std::uint64_t w3) {
#if defined(__CUDA_ARCH__)
  auto* block = reinterpret_cast<std::uint64_t*>(p);
  block[0] = w0;
  block[1] = w1;
  block[2] = w2;
  block[3] = w3;
#else
  const std::uint64_t words[4] = {w0, w1, w2, w3};
  std::memcpy(p, words, sizeof words);
#endif
}

// A piece's symbols, stored from text position `at` on. They are contiguous in the text, so they
// are gathered into 32-byte blocks (four little-endian words in registers, stored back to back)
// wherever the text's address is 32-aligned, so that L2 sees whole sectors; bytes before the
// first such block and after the last go one by one. (Byte stores into sectors that leave L2
// half-written cost a read of DRAM each.)
struct block_writer {
  std::uint8_t* out;
  std::uint64_t at;
  std::uint64_t w0 = 0, w1 = 0, w2 = 0, word = 0;
  int fill = 0;  // symbols gathered for the block that starts at out + at - fill

  KOKKOS_FORCEINLINE_FUNCTION void put(std::uint64_t symbol) {
    if (fill == 0 && (reinterpret_cast<std::uintptr_t>(out + at) & 31) != 0) {
      out[at] = static_cast<std::uint8_t>(symbol);
    } else {
      word |= symbol << (8 * (fill & 7));
      if ((++fill & 7) == 0) {
        if (fill == 8) w0 = word;
        else if (fill == 16) w1 = word;
        else if (fill == 24) w2 = word;
        else {
          store_block(out + at - 31, w0, w1, w2, word);
          fill = 0;
        }
        word = 0;
      }
    }
    ++at;
  }
  // The last block's gathered symbols.
  KOKKOS_FORCEINLINE_FUNCTION void finish() {
    const std::uint64_t start = at - std::uint64_t(fill);
    for (int b = 0; b < fill; ++b) {
      const std::uint64_t w = b < (fill & ~7) ? (b < 8 ? w0 : b < 16 ? w1 : w2) : word;
      out[start + b] = static_cast<std::uint8_t>(w >> (8 * (b & 7)));
    }
  }
};

// The arrays of one inverse, in this order in a workspace (each from a 256-byte boundary).
// (A pair's key and row arrays lie together, so that the step words can take the pair the sort
// leaves free and the two-step words the sorted pair; steps_slot and two_steps_slot are used only
// where there is no workspace.)
enum array_slot {
  keys_slot, rows_slot, keys_alt_slot, rows_alt_slot, rest_slot, rest_next_slot, link_slot, link_next_slot, steps_slot,
  two_steps_slot, slots
};

// A step word: psi(i) in the low bits, F[i] in the top byte.
constexpr int symbol_shift = 56;
constexpr std::uint64_t row_mask = (std::uint64_t(1) << symbol_shift) - 1;

// A two-step word of row i: F[i] in the top byte, F[psi(i)] in the next, and psi(psi(i)) in the
// low bits — or, where psi(i) ends a walk, the flag one_step and psi(i) (a walk takes one symbol
// there and stops where the other walk starts).
constexpr int second_symbol_shift = 48;
constexpr std::uint64_t one_step = std::uint64_t(1) << 47;
constexpr std::uint64_t two_step_row_mask = one_step - 1;

// Where each array starts in a workspace, for n bytes of BWT, rows of index_bytes and k pieces.
struct array_plan {
  std::uint64_t offset[slots + 1] = {};
  array_plan(std::uint64_t n, std::uint64_t index_bytes, std::uint64_t k) {
    const std::uint64_t bytes[slots] = {4 * n, index_bytes * n, 4 * n, index_bytes * n, 8 * k, 8 * k, 8 * k, 8 * k, 0, 0};
    std::uint64_t at = 0;
    for (int s = 0; s < slots; ++s) {
      offset[s] = at;
      at += (bytes[s] + 255) / 256 * 256;
    }
    offset[slots] = at;
  }
  std::uint64_t total() const { return offset[slots]; }
};

// The pieces aimed at on `space`: about 4 a thread on a GPU (the longest walks end the pass),
// 64 on the host (they are taken dynamically).
template <class ExecSpace>
std::uint64_t pieces_target(const ExecSpace& space) {
  return std::uint64_t(space.concurrency()) * (is_host_space_v<ExecSpace> ? 64 : 4);
}

// The pieces of `rows` rows on `space`: about pieces_target of them, at least 64 rows each.
template <class ExecSpace>
piece_layout pieces_for(const ExecSpace& space, std::uint64_t rows, std::uint64_t primary) {
  const std::uint64_t target = pieces_target(space);
  piece_layout layout;
  layout.rows = rows;
  layout.primary = primary;
  layout.shift = 6;
  while ((rows >> layout.shift) > target) ++layout.shift;
  layout.mask = (std::uint64_t(1) << layout.shift) - 1;
  layout.pieces = ((rows - 1) >> layout.shift) + 1;
  return layout;
}

// The most pieces any BWT of up to rows - 1 bytes takes on `space` (pieces_for's count is not
// monotonic: just below a step of its shift it is twice what it is just after).
template <class ExecSpace>
std::uint64_t max_pieces_for(const ExecSpace& space, std::uint64_t rows) {
  const std::uint64_t target = pieces_target(space);
  const std::uint64_t at_64 = ((rows - 1) >> 6) + 1;  // every piece of 64 rows
  return at_64 < target + 1 ? at_64 : target + 1;
}

// Whether the rows are 8-byte entries: from 2^32 - 1 bytes of BWT, or when a test asks.
inline bool wide_rows_for(std::uint64_t n, bool wide_rows) {
  return wide_rows || n >= std::uint64_t(std::numeric_limits<std::uint32_t>::max());
}

}  // namespace inverse_bwt_steps

struct inverse_bwt_workspace_access {
  template <class ExecSpace>
  static Kokkos::View<unsigned char*, typename ExecSpace::memory_space>& arrays(inverse_bwt_workspace<ExecSpace>& ws) {
    return ws.arrays_;
  }
  template <class ExecSpace>
  static primitives::workspace<ExecSpace>& scratch(inverse_bwt_workspace<ExecSpace>& ws) {
    return ws.scratch_;
  }
  // Grows ws to what an inverse of n bytes takes on `space`.
  template <class ExecSpace>
  static void reserve(inverse_bwt_workspace<ExecSpace>& ws, const ExecSpace& space, std::uint64_t n, bool wide_rows) {
    using namespace inverse_bwt_steps;
    if (n == 0) return;
    const bool wide = wide_rows_for(n, wide_rows);
    const array_plan plan(n, wide ? 8 : 4, max_pieces_for(space, n + 1));
    if (ws.arrays_.extent(0) < plan.total()) {
      ws.arrays_ = {};
      ws.arrays_ = allocate<unsigned char, typename ExecSpace::memory_space>("strix::unbwt_workspace", plan.total());
    }
    ws.scratch_.reserve(wide ? primitives::radix_sort_pairs_scratch_bytes<std::uint32_t, std::uint64_t>(space, n)
                             : primitives::radix_sort_pairs_scratch_bytes<std::uint32_t, std::uint32_t>(space, n));
  }
};

namespace inverse_bwt_steps {

// An inverse's arrays: in the caller's workspace, or each allocated (and freed as soon as it is
// done with, for the peak) where there is none.
template <class ExecSpace>
class inverse_arrays {
 public:
  using mem = typename ExecSpace::memory_space;
  inverse_arrays(inverse_bwt_workspace<ExecSpace>* ws, memory_tracker* tracker, const array_plan& plan)
      : ws_(ws), tracker_(tracker), plan_(plan), own_scratch_(tracker) {}
  template <class T>
  device_view<T, ExecSpace> take(array_slot slot, const char* label, std::uint64_t count) {
    unsigned char* at = nullptr;
    if (ws_) {
      at = inverse_bwt_workspace_access::arrays(*ws_).data() + plan_.offset[slot];
    } else {
      owned_[slot] = allocate<unsigned char, mem>(label, count * sizeof(T), tracker_);
      at = owned_[slot].data();
    }
    return device_view<T, ExecSpace>(reinterpret_cast<T*>(at), count);
  }
  // Words of a row each, over the pair of arrays that starts at `first` (keys_slot or
  // keys_alt_slot, a pair the sort has done with: 4 + 4 or more bytes a row), or allocated in
  // `own` where there is no workspace.
  device_view<std::uint64_t, ExecSpace> take_words(array_slot first, array_slot own, const char* label,
                                                   std::uint64_t count) {
    if (!ws_) return take<std::uint64_t>(own, label, count);
    STRIX_REQUIRE(plan_.offset[first + 2] - plan_.offset[first] >= count * sizeof(std::uint64_t));
    unsigned char* at = inverse_bwt_workspace_access::arrays(*ws_).data() + plan_.offset[first];
    return device_view<std::uint64_t, ExecSpace>(reinterpret_cast<std::uint64_t*>(at), count);
  }
  void drop(array_slot slot) { release(owned_[slot], tracker_); }
  primitives::workspace<ExecSpace>& scratch() { return ws_ ? inverse_bwt_workspace_access::scratch(*ws_) : own_scratch_; }
  void drop_scratch() { own_scratch_.release(); }

 private:
  inverse_bwt_workspace<ExecSpace>* ws_;
  memory_tracker* tracker_;
  array_plan plan_;
  Kokkos::View<unsigned char*, mem> owned_[slots];
  primitives::workspace<ExecSpace> own_scratch_;
};

// The step words of every row but "$" (row i's at i - 1: psi(i) | F[i] << symbol_shift), by a
// stable sort of the rows by their symbol; `left_free` is set to the pair of arrays they do not take.
template <class ExecSpace, class I>
device_view<std::uint64_t, ExecSpace> steps_of(const ExecSpace& space, inverse_arrays<ExecSpace>& arrays,
                                                const text_view<ExecSpace>& bwt, std::uint64_t primary,
                                                array_slot& left_free) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = bwt.extent(0);
  auto keys = arrays.template take<std::uint32_t>(keys_slot, "strix::unbwt_keys", n);
  auto keys_alt = arrays.template take<std::uint32_t>(keys_alt_slot, "strix::unbwt_keys_alt", n);
  auto rows = arrays.template take<I>(rows_slot, "strix::unbwt_psi", n);
  auto rows_alt = arrays.template take<I>(rows_alt_slot, "strix::unbwt_psi_alt", n);
  Kokkos::parallel_for(
      "strix::unbwt_rows", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t e) {
        keys(e) = bwt(e);
        rows(e) = static_cast<I>(std::uint64_t(e) < primary ? e : e + 1);  // the primary row holds "$"
      });
  const bool in_alt =
      primitives::radix_sort_pairs<std::uint32_t, I>(space, arrays.scratch(), keys, keys_alt, rows, rows_alt, 0, 8);
  arrays.drop_scratch();
  const auto symbol = in_alt ? keys_alt : keys;
  const auto psi = in_alt ? rows_alt : rows;
  const array_slot free_pair = in_alt ? keys_slot : keys_alt_slot;
  arrays.drop(free_pair);
  arrays.drop(array_slot(free_pair + 1));
  auto steps = arrays.take_words(free_pair, steps_slot, "strix::unbwt_steps", n);
  Kokkos::parallel_for(
      "strix::unbwt_steps", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        steps(i) = (std::uint64_t(symbol(i)) << symbol_shift) | std::uint64_t(psi(i));
      });
  const array_slot sorted_pair = in_alt ? keys_alt_slot : keys_slot;
  arrays.drop(sorted_pair);
  arrays.drop(array_slot(sorted_pair + 1));
  left_free = sorted_pair;
  return steps;
}

// The two-step words of every row but "$" (row i's at i - 1), from its step word and that of
// the row it steps to, in the pair of arrays `free_pair`; the step words are dropped.
template <class ExecSpace>
device_view<std::uint64_t, ExecSpace> two_steps_of(const ExecSpace& space, inverse_arrays<ExecSpace>& arrays,
                                                    const device_view<std::uint64_t, ExecSpace>& steps,
                                                    const piece_layout& layout, array_slot free_pair) {
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = steps.extent(0);
  auto two_steps = arrays.take_words(free_pair, two_steps_slot, "strix::unbwt_two_steps", n);
  Kokkos::parallel_for(
      "strix::unbwt_two_steps", policy(space, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        const std::uint64_t first = steps(i);
        const std::uint64_t next = first & row_mask;
        const std::uint64_t symbol = first & ~row_mask;
        if (layout.ends_walk(next)) {
          two_steps(i) = symbol | one_step | next;
        } else {
          const std::uint64_t second = steps(next - 1);
          two_steps(i) = symbol | ((second >> symbol_shift) << second_symbol_shift) | (second & row_mask);
        }
      });
  arrays.drop(steps_slot);
  return two_steps;
}

}  // namespace inverse_bwt_steps

template <class ExecSpace, class I>
void inverse_bwt_rows(const ExecSpace& space, const text_view<ExecSpace>& bwt, std::uint64_t primary,
                      const device_view<std::uint8_t, ExecSpace>& text, inverse_bwt_workspace<ExecSpace>* ws,
                      memory_tracker& tracker, phase_timer<ExecSpace>& timer) {
  using namespace inverse_bwt_steps;
  using policy = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using dynamic_policy = Kokkos::RangePolicy<ExecSpace, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<std::int64_t>>;
  const std::uint64_t n = bwt.extent(0), rows = n + 1;
  STRIX_REQUIRE(rows <= two_step_row_mask);  // a two-step word's row (2^47 rows: beyond any memory)
  const piece_layout layout = pieces_for(space, rows, primary);
  const std::uint64_t k = layout.pieces;
  inverse_arrays<ExecSpace> arrays(ws, &tracker, array_plan(n, sizeof(I), k));

  timer.begin("unbwt_psi");
  array_slot free_pair = keys_slot;
  const auto one_steps = steps_of<ExecSpace, I>(space, arrays, bwt, primary, free_pair);
  timer.begin("unbwt_two_steps");
  const auto steps = two_steps_of(space, arrays, one_steps, layout, free_pair);

  // Pass 1: each piece's length and the piece it runs into.
  timer.begin("unbwt_lengths");
  auto rest = arrays.template take<std::uint64_t>(rest_slot, "strix::unbwt_rest", k);
  auto rest_next = arrays.template take<std::uint64_t>(rest_next_slot, "strix::unbwt_rest_next", k);
  auto link = arrays.template take<std::uint64_t>(link_slot, "strix::unbwt_link", k);
  auto link_next = arrays.template take<std::uint64_t>(link_next_slot, "strix::unbwt_link_next", k);
  Kokkos::parallel_for(
      "strix::unbwt_lengths", dynamic_policy(space, 0, k), KOKKOS_LAMBDA(const std::int64_t p) {
        std::uint64_t v = layout.start_of(p), length = 0;
        if (v == 0) {  // unused
          rest(p) = 0;
          link(p) = no_piece;
          return;
        }
        do {  // (a word of one step ends the walk)
          const std::uint64_t step = steps(v - 1);
          length += (step & one_step) ? 1 : 2;
          v = step & two_step_row_mask;
        } while (!layout.ends_walk(v));
        rest(p) = length;
        link(p) = layout.piece_at(v);
      });

  // List ranking: rest(p) becomes the length from piece p to the end of the text.
  timer.begin("unbwt_rank_pieces");
  int rounds = 1;
  while ((std::uint64_t(1) << (rounds - 1)) < k) ++rounds;
  for (int r = 0; r < rounds; ++r) {
    Kokkos::parallel_for(
        "strix::unbwt_jump", policy(space, 0, k), KOKKOS_LAMBDA(const std::int64_t p) {
          const std::uint64_t to = link(p);
          rest_next(p) = to == no_piece ? rest(p) : rest(p) + rest(to);
          link_next(p) = to == no_piece ? no_piece : link(to);
        });
    std::swap(rest, rest_next);
    std::swap(link, link_next);
  }
  // Consistent: every piece's chain reaches the end, and the primary row's spans the text.
  const std::uint64_t head = layout.piece_at(primary);
  std::uint64_t broken = 0;
  Kokkos::parallel_reduce(
      "strix::unbwt_chains", policy(space, 0, k),
      KOKKOS_LAMBDA(const std::int64_t p, std::uint64_t& bad) {
        if (link(p) != no_piece || (std::uint64_t(p) == head && rest(p) != n)) ++bad;
      },
      broken);
  STRIX_USER_REQUIRE(broken == 0, "inverse_bwt: inconsistent BWT and primary index");

  // Pass 2: each piece's symbols at its offset, n - rest(p).
  timer.begin("unbwt_write");
  Kokkos::parallel_for(
      "strix::unbwt_write", dynamic_policy(space, 0, k), KOKKOS_LAMBDA(const std::int64_t p) {
        std::uint64_t v = layout.start_of(p);
        if (v == 0) return;
        block_writer out{text.data(), n - rest(p)};
        std::uint64_t step = steps(v - 1);  // row v's two steps
        for (;;) {
          // (The next word's load goes before the symbols' stores: the compiler must assume that
          // a byte store may alias the steps.)
          v = step & two_step_row_mask;
          const bool last = layout.ends_walk(v);  // (always where the word is of one step)
          const std::uint64_t word = step;
          if (!last) step = steps(v - 1);
          out.put(word >> symbol_shift);
          if (!(word & one_step)) out.put((word >> second_symbol_shift) & 0xFF);
          if (last) break;
        }
        out.finish();
      });
  timer.end();
}

template <class ExecSpace>
void inverse_bwt(const ExecSpace& space, const text_view<ExecSpace>& bwt, std::uint64_t primary,
                 const device_view<std::uint8_t, ExecSpace>& text, inverse_bwt_workspace<ExecSpace>* ws,
                 run_stats* stats, bool wide_rows) {
  const std::uint64_t n = bwt.extent(0);
  STRIX_USER_REQUIRE(text.extent(0) == n, "inverse_bwt: the BWT and the output sizes differ");
  memory_tracker tracker;
  tracker.acquire(2 * n);  // the caller's BWT and text
  if (n > 0) {
    STRIX_USER_REQUIRE(primary >= 1 && primary <= n,
                       "inverse_bwt: primary index " + std::to_string(primary) + " is outside 1.." + std::to_string(n));
    if (ws) {  // (grown if it was reserved for less; held whole for the call)
      inverse_bwt_workspace_access::reserve(*ws, space, n, wide_rows);
      tracker.acquire(ws->bytes());
    }
    phase_timer<ExecSpace> timer(space, stats);
    // 32-bit rows while the row numbers (0..n) fit (and the tests do not ask for 64).
    if (!inverse_bwt_steps::wide_rows_for(n, wide_rows))
      inverse_bwt_rows<ExecSpace, std::uint32_t>(space, bwt, primary, text, ws, tracker, timer);
    else
      inverse_bwt_rows<ExecSpace, std::uint64_t>(space, bwt, primary, text, ws, tracker, timer);
  }
  if (stats) stats->peak_bytes = tracker.peak();
}

}  // namespace strix::detail

template <class ExecSpace>
void strix::inverse_bwt_workspace<ExecSpace>::reserve(const ExecSpace& space, std::uint64_t n) {
  detail::inverse_bwt_workspace_access::reserve(*this, space, n, false);
}

#define STRIX_INVERSE_BWT_INSTANTIATE(SPACE)                                                   \
  template void strix::detail::inverse_bwt<SPACE>(const SPACE&, const strix::text_view<SPACE>&, \
                                                  std::uint64_t, const strix::device_view<std::uint8_t, SPACE>&, \
                                                  strix::inverse_bwt_workspace<SPACE>*, strix::run_stats*, bool); \
  template class strix::inverse_bwt_workspace<SPACE>;
