// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Construction of wavelet trees and matrices (see wavelet.hpp), included by libstrix's
// instantiation files only.
//
// The text is mapped to the minimal alphabet (tree: to its left-aligned codes). Level l
// takes bit (levels - 1 - l) of every symbol of the level's sequence, 64 symbols per word;
// the next level's sequence is a stable partition of this one: inside each node for the
// tree, over the whole level for the matrix. A symbol's destination is its node's child
// start plus the ones (or zeros) before it in the node, read from a scan of the level's
// word popcounts, so a level costs a few passes over the sequence and no sort.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/core/phase_timer.hpp>
#include <strix/primitives/histogram.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/succinct/detail/bit_vector_def.hpp>
#include <strix/succinct/detail/level_prefix_def.hpp>
#include <strix/succinct/detail/wavelet_finish_def.hpp>
#include <strix/succinct/wavelet.hpp>

namespace strix::detail {

struct level_sizes {
  std::uint64_t v[wavelet_max_levels + 1];
};

// Adds the occurrences of every value of `text` to `hist` (2^(8 sizeof(Symbol)) entries).
template <class ExecSpace, class Symbol>
void add_dense_histogram(const ExecSpace& space, const device_view<const Symbol, ExecSpace>& text,
                         const Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>& hist) {
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  if (sizeof(Symbol) == 1) {
    // Through the byte histogram primitive (CUB on CUDA), into a scratch copy, then added.
    auto part = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::wavelet::histogram_part", 256);
    primitives::workspace<ExecSpace> ws;
    primitives::byte_histogram(space, ws,
                               device_view<const std::uint8_t, ExecSpace>(
                                   reinterpret_cast<const std::uint8_t*>(text.data()), text.extent(0)),
                               device_view<std::uint64_t, ExecSpace>(part.data(), 256));
    Kokkos::parallel_for("strix::wavelet_histogram_add", range(space, 0, 256),
                         KOKKOS_LAMBDA(const std::int64_t c) { hist(c) += part(c); });
    space.fence();
  } else {
    Kokkos::parallel_for(
        "strix::wavelet_histogram", range(space, 0, text.extent(0)),
        KOKKOS_LAMBDA(const std::int64_t i) { Kokkos::atomic_add(&hist(text(i)), std::uint64_t(1)); });
  }
}

// Alphabet, dense map and counts of 8- and 16-bit symbols from their full histogram.
template <class ExecSpace, class Symbol>
void alphabet_from_histogram(const ExecSpace& space, const Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space>& hist,
                             wavelet_data<ExecSpace, Symbol>& d) {
  constexpr std::size_t values = std::size_t(1) << (8 * sizeof(Symbol));
  auto h = strix::to_host(space, hist);
  std::vector<Symbol> alphabet;
  std::vector<std::uint64_t> counts(1, 0);
  for (std::size_t c = 0; c < values; ++c)
    if (h(c)) {
      alphabet.push_back(static_cast<Symbol>(c));
      counts.push_back(counts.back() + h(c));
    }
  upload_alphabet(space, alphabet, counts, d);
}

// Alphabet, dense map and counts of 8- and 16-bit symbols from a full histogram.
template <class ExecSpace, class Symbol>
void dense_alphabet(const ExecSpace& space, const device_view<const Symbol, ExecSpace>& text,
                    wavelet_data<ExecSpace, Symbol>& d) {
  constexpr std::size_t values = std::size_t(1) << (8 * sizeof(Symbol));
  auto hist = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::wavelet::histogram", values);
  strix::fill(space, hist, std::uint64_t(0));
  add_dense_histogram(space, text, hist);
  alphabet_from_histogram(space, hist, d);
}

template <class View>
struct run_start {
  View s;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t i) const { return i == 0 || s(i) != s(i - 1); }
};

// Alphabet and counts of 32-bit symbols: sort a copy, keep the first of each run.
template <class ExecSpace>
void sorted_alphabet(const ExecSpace& space, const device_view<const std::uint32_t, ExecSpace>& text,
                     wavelet_data<ExecSpace, std::uint32_t>& d) {
  using memory_space = typename ExecSpace::memory_space;
  const std::uint64_t n = text.extent(0);
  auto keys = allocate<std::uint32_t, memory_space>("strix::wavelet::sort_keys", n);
  auto keys_alt = allocate<std::uint32_t, memory_space>("strix::wavelet::sort_keys_alt", n);
  auto vals = allocate<std::uint32_t, memory_space>("strix::wavelet::sort_vals", n);
  auto vals_alt = allocate<std::uint32_t, memory_space>("strix::wavelet::sort_vals_alt", n);
  strix::copy(space, keys, Kokkos::View<const std::uint32_t*, memory_space, Kokkos::MemoryUnmanaged>(text.data(), n));
  primitives::workspace<ExecSpace> ws;
  ws.reserve(primitives::radix_sort_pairs_scratch_bytes<std::uint32_t, std::uint32_t>(space, n));
  const bool alt = primitives::radix_sort_pairs(
      space, ws, device_view<std::uint32_t, ExecSpace>(keys.data(), n), device_view<std::uint32_t, ExecSpace>(keys_alt.data(), n),
      device_view<std::uint32_t, ExecSpace>(vals.data(), n), device_view<std::uint32_t, ExecSpace>(vals_alt.data(), n), 0, 32);
  const device_view<const std::uint32_t, ExecSpace> sorted(alt ? keys_alt.data() : keys.data(), n);
  release(vals);
  release(vals_alt);
  auto starts = allocate<std::uint64_t, memory_space>("strix::wavelet::run_starts", n);
  const std::uint64_t sigma = primitives::select_indices(
      space, ws, std::int64_t(n), run_start<device_view<const std::uint32_t, ExecSpace>>{sorted},
      device_view<std::uint64_t, ExecSpace>(starts.data(), n));
  d.sigma = sigma;
  d.alphabet = allocate<std::uint32_t, memory_space>("strix::wavelet::alphabet", sigma);
  d.counts = allocate<std::uint64_t, memory_space>("strix::wavelet::counts", sigma + 1);
  auto alphabet = d.alphabet;
  auto counts = d.counts;
  Kokkos::parallel_for(
      "strix::wavelet_alphabet", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, sigma + 1),
      KOKKOS_LAMBDA(const std::int64_t j) {
        if (std::uint64_t(j) == sigma) { counts(j) = n; return; }
        alphabet(j) = sorted(starts(j));
        counts(j) = starts(j);
      });
  space.fence();
}

template <class ExecSpace, class Symbol>
void find_alphabet(const ExecSpace& space, const device_view<const Symbol, ExecSpace>& text,
                   wavelet_data<ExecSpace, Symbol>& d) {
  if constexpr (sizeof(Symbol) == 4) sorted_alphabet(space, text, d);
  else dense_alphabet(space, text, d);
}

// Each minimal symbol's code and its length: tree, its path left-aligned to L bits (a symbol
// takes part in level l while its code is longer than l); matrix, itself in L bits.
template <class ExecSpace, class Symbol>
struct symbol_code_table {
  Kokkos::View<Symbol*, typename ExecSpace::memory_space> code;
  Kokkos::View<std::uint8_t*, typename ExecSpace::memory_space> length;
};

template <class ExecSpace, class Symbol>
symbol_code_table<ExecSpace, Symbol> symbol_codes(const ExecSpace& space, std::uint64_t sigma, int L,
                                                  wavelet_shape shape) {
  using P = std::uint64_t;
  const bool tree = shape == wavelet_shape::tree;
  symbol_code_table<ExecSpace, Symbol> t;
  t.code = allocate<Symbol, typename ExecSpace::memory_space>("strix::wavelet::codes", sigma);
  t.length = allocate<std::uint8_t, typename ExecSpace::memory_space>("strix::wavelet::code_lengths", sigma);
  auto code = t.code;
  auto length = t.length;
  Kokkos::parallel_for(
      "strix::wavelet_codes", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, sigma),
      KOKKOS_LAMBDA(const std::int64_t m) {
        if (!tree) {
          code(m) = static_cast<Symbol>(m);
          length(m) = static_cast<std::uint8_t>(L);
          return;
        }
        P path = 0;
        const int len = tree_path(P(m), sigma, path);
        code(m) = static_cast<Symbol>(path << (L - len));
        length(m) = static_cast<std::uint8_t>(len);
      });
  return t;
}

// The opening both builders share, once the alphabet is known: the levels' layout, and their
// bits allocated and cleared.
template <class ExecSpace, class Symbol>
level_sizes begin_levels(const ExecSpace& space, wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape) {
  auto counts_h = strix::to_host(space, d.counts);
  level_sizes size{};
  d.bits.n = wavelet_layout(shape, counts_h.data(), d.sigma, size.v, d.offset, d.levels);
  d.bits.words = allocate<std::uint64_t, typename ExecSpace::memory_space>("strix::wavelet::bits", padded_words(d.bits.n));
  strix::fill(space, d.bits.words, std::uint64_t(0));
  return size;
}

// The closing both builders share: the rank/select directory and the query tables, and the
// counters. The phases of either builder are "alphabet", "levels" and "rank_select".
template <class ExecSpace, class Symbol>
void end_build(const ExecSpace& space, wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape,
               const wavelet_options& options, phase_timer<ExecSpace>& timer, run_stats* stats) {
  timer.begin("rank_select");
  finish_wavelet<ExecSpace, Symbol>(space, d, shape, options, false);
  timer.end();
  if (stats) {
    stats->set_counter("alphabet_size", d.sigma);
    stats->set_counter("levels", std::uint64_t(d.levels));
    stats->set_counter("bytes", d.bytes());
  }
}

// Bit `shift` of symbols [lo, min(lo + 64, nl)) of seq as one word (symbol lo + j in bit j).
// 8-bit symbols: eight 8-byte loads, each byte's bit gathered by one multiplication (bit 8j
// of x lands in bit 56 + j of x * 0x0102040810204080, with no carries into the top byte).
template <class Symbol>
KOKKOS_INLINE_FUNCTION std::uint64_t level_word(const Symbol* seq, std::uint64_t lo, std::uint64_t nl, int shift) {
  std::uint64_t word = 0;
  if constexpr (sizeof(Symbol) == 1) {
    if (lo + 64 <= nl) {  // lo is a multiple of 64 and seq is aligned: whole 8-byte loads
      for (int j = 0; j < 8; ++j) {
        const std::uint64_t x = (load_u64(seq + lo + 8 * j) >> shift) & 0x0101010101010101ull;
        word |= ((x * 0x0102040810204080ull) >> 56) << (8 * j);
      }
      return word;
    }
  }
  const std::uint64_t hi = lo + 64 < nl ? lo + 64 : nl;
  for (std::uint64_t i = lo; i < hi; ++i) word |= std::uint64_t((seq[i] >> shift) & 1u) << (i - lo);
  return word;
}

// Symbols [i0, i0 + 8) of seq (those before nl; i0 a multiple of 8) into c.
template <class Symbol>
KOKKOS_INLINE_FUNCTION void load8(const Symbol* seq, std::uint64_t i0, std::uint64_t nl, Symbol* c) {
  if constexpr (sizeof(Symbol) == 1) {
    if (i0 + 8 <= nl) {
      const std::uint64_t x = load_u64(seq + i0);
      for (int k = 0; k < 8; ++k) c[k] = static_cast<Symbol>(x >> (8 * k));
      return;
    }
  }
  for (int k = 0; k < 8; ++k) c[k] = i0 + k < nl ? seq[i0 + k] : Symbol(0);
}

template <class ExecSpace, class Symbol>
void build_wavelet(const ExecSpace& space, const device_view<const Symbol, ExecSpace>& text,
                   wavelet_data<ExecSpace, Symbol>& d, wavelet_shape shape, const wavelet_options& options,
                   run_stats* stats) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using P = std::uint64_t;
  const bool tree = shape == wavelet_shape::tree;
  phase_timer<ExecSpace> timer(space, stats);
  const std::uint64_t n = text.extent(0);
  d = wavelet_data<ExecSpace, Symbol>();
  d.n = n;

  if (stats) space.fence();  // work queued before (e.g. the text's copy) is not ours
  timer.begin("alphabet");
  find_alphabet(space, text, d);
  const std::uint64_t sigma = d.sigma;
  const level_sizes size = begin_levels(space, d, shape);
  const int L = d.levels;

  if (L > 0) {
    // Each level: its bits filled from the sequence, then the sequence partitioned for the
    // next level.
    timer.begin("levels");
    auto code = symbol_codes<ExecSpace, Symbol>(space, sigma, L, shape).code;
    auto seq = allocate<Symbol, memory_space>("strix::wavelet::sequence", n);
    auto next = allocate<Symbol, memory_space>("strix::wavelet::sequence_next", L > 1 ? n : 0);
    // Its alphabet and map only, which the shapes share.
    const auto w = d.template ref<std::uint64_t, wavelet_shape::tree>();
    Kokkos::parallel_for("strix::wavelet_map", range(space, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
      P m = 0;
      w.minimal(text(i), m);
      seq(i) = code(m);
    });
    // Tree: each node's start in its level (heap id (1 << l) | prefix), clamped to the level.
    const std::uint64_t heap = tree ? (std::uint64_t(1) << L) : 0;
    auto node_start = allocate<P, memory_space>("strix::wavelet::node_start", heap);
    auto node_ones = allocate<P, memory_space>("strix::wavelet::node_ones", heap);
    auto counts = d.counts;
    if (tree)
      Kokkos::parallel_for("strix::wavelet_node_starts", range(space, 1, heap), KOKKOS_LAMBDA(const std::int64_t h) {
        int l = 0;
        while ((P(h) >> (l + 1)) != 0) ++l;
        const P prefix = P(h) ^ (P(1) << l);
        P lo = 0, hi = sigma;  // first symbol whose code's top l bits reach `prefix`
        while (lo < hi) {
          const P mid = (lo + hi) / 2;
          if ((P(code(mid)) >> (L - l)) < prefix) lo = mid + 1;
          else hi = mid;
        }
        const P s = counts(lo);
        node_start(h) = s < size.v[l] ? s : size.v[l];
      });
    auto words = d.bits.words;
    auto prefix = allocate<P, memory_space>("strix::wavelet::word_prefix", (n + 63) / 64 + 1);
    for (int l = 0; l < L; ++l) {
      const P nl = size.v[l], base = d.offset[l] / 64, nwords = (nl + 63) / 64;
      const int shift = L - 1 - l;
      const Symbol* seq_p = seq.data();
      Kokkos::parallel_for("strix::wavelet_fill_level", range(space, 0, nwords), KOKKOS_LAMBDA(const std::int64_t wi) {
        words(base + wi) = level_word(seq_p, P(wi) * 64, nl, shift);
      });
      if (l + 1 == L) break;
      const P level_ones = level_word_prefix(space, words, base, nwords, prefix);
      const P zeros = nl - level_ones, next_size = size.v[l + 1];
      if (tree) {
        const P first = P(1) << l;
        Kokkos::parallel_for("strix::wavelet_node_ones", range(space, first, 2 * first), KOKKOS_LAMBDA(const std::int64_t h) {
          const P s = node_start(h);
          node_ones(h) = level_ones_before(prefix, words(base + (s >> 6)), s);
        });
      }
      // Eight consecutive symbols per thread: one load of their bytes (8-bit symbols), the
      // word's popcount prefix once, then a running count of ones.
      Kokkos::parallel_for("strix::wavelet_partition", range(space, 0, (nl + 7) / 8), KOKKOS_LAMBDA(const std::int64_t t) {
        const P i0 = P(t) * 8, wi = i0 >> 6;
        const std::uint64_t word = words(base + wi);
        P ones = level_ones_before(prefix, word, i0);
        Symbol c8[8];
        load8(seq_p, i0, nl, c8);
        for (int k = 0; k < 8; ++k) {
          const P i = i0 + k;
          if (i >= nl) break;
          const Symbol c = c8[k];
          const bool bit = (word >> (i & 63)) & 1u;
          P dest;
          if (tree) {
            const P p = l == 0 ? 0 : (P(c) >> (L - l));
            const P h = (P(1) << l) | p;
            const P child = node_start((P(2) << l) | (2 * p + (bit ? 1 : 0)));
            dest = bit ? child + (ones - node_ones(h)) : child + ((i - ones) - (node_start(h) - node_ones(h)));
          } else {
            dest = bit ? zeros + ones : i - ones;
          }
          if (dest < next_size) next(dest) = c;
          ones += bit ? 1 : 0;
        }
      });
      std::swap(seq, next);
    }
  }
  end_build(space, d, shape, options, timer, stats);
}

}  // namespace strix::detail
