// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Construction of a Huffman-shaped wavelet tree of bytes (huffman_wavelet.hpp) and the
// checks of one read from a file; included by libstrix's instantiation files only.
//
// Level l's bits are the l-th code bits of the level's sequence, 64 symbols per word; the
// next level's sequence is the stable partition of each node's symbols into its inner
// children (symbols reaching a leaf drop out). A symbol's destination is its child's start
// plus the ones (or zeros) before it in its node, from a scan of the level's word
// popcounts: a few passes per level and no sort, as for the other wavelet shapes.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/memory.hpp>
#include <strix/error.hpp>
#include <strix/succinct/detail/bit_vector_def.hpp>
#include <strix/succinct/detail/level_prefix_def.hpp>
#include <strix/succinct/detail/word_ops.hpp>
#include <strix/succinct/huffman_shape.hpp>
#include <strix/succinct/huffman_wavelet.hpp>

namespace strix::detail {

// Where each level starts in the one bit vector: levels on whole 512-bit blocks.
struct huffman_levels {
  std::uint64_t offset[huffman_shape::max_depth + 1] = {};
};

inline huffman_levels huffman_level_offsets(const huffman_shape& s) {
  huffman_levels out;
  for (int l = 0; l < s.levels; ++l) out.offset[l + 1] = out.offset[l] + (s.level_size[l] + 511) / 512 * 512;
  for (int l = s.levels + 1; l <= huffman_shape::max_depth; ++l) out.offset[l] = out.offset[s.levels];
  return out;
}

// The shape's tables onto the device (codes, lengths, children, node bases); d.code_length,
// d.n and d.sigma set. Returns the level offsets.
template <class ExecSpace>
huffman_levels install_huffman_shape(const ExecSpace& space, const huffman_shape& s, std::uint64_t n,
                                     huffman_wavelet_data<ExecSpace>& d, memory_tracker* tracker) {
  const huffman_levels off = huffman_level_offsets(s);
  d.n = n;
  d.sigma = s.sigma;
  d.only_symbol = s.only_symbol;
  for (int c = 0; c < 256; ++c) d.code_length[c] = s.length[c];
  std::vector<std::uint64_t> base(s.nodes.size());
  std::vector<std::uint16_t> child(2 * s.nodes.size());
  for (std::size_t v = 0; v < s.nodes.size(); ++v) {
    base[v] = off.offset[s.nodes[v].depth] + s.nodes[v].start;
    child[2 * v] = s.nodes[v].child[0];
    child[2 * v + 1] = s.nodes[v].child[1];
  }
  d.code = to_device(space, s.code, 256, "strix::huffman_wavelet::code");
  d.length = to_device(space, s.length, 256, "strix::huffman_wavelet::length");
  d.node_base = to_device(space, base.data(), base.size(), "strix::huffman_wavelet::node_base");
  d.child = to_device(space, child.data(), child.size(), "strix::huffman_wavelet::child");
  if (tracker) tracker->acquire(d.code.span() * 4 + d.length.span() + d.node_base.span() * 8 + d.child.span() * 2);
  space.fence();
  return off;
}

// The directory of d.bits and each node's ones before it; then every node's ones are checked
// against the symbols its right subtree holds (a loaded file: so that no rank leaves its node),
// else invalid_input.
template <class ExecSpace>
void finish_huffman_levels(const ExecSpace& space, const huffman_shape& s, const std::uint64_t* counts,
                           huffman_wavelet_data<ExecSpace>& d, memory_tracker* tracker) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using P = std::uint64_t;
  build_rank_select<ExecSpace, P>(space, d.bits, bit_vector_options{});
  if (tracker) tracker->acquire(d.bits.directory_bytes());
  const std::size_t nodes = s.nodes.size();
  // Each node's size and its right child's: the ones it must hold.
  std::vector<P> sizes(2 * nodes);
  for (std::size_t v = 0; v < nodes; ++v) {
    const std::uint16_t right = s.nodes[v].child[1];
    sizes[2 * v] = s.nodes[v].size;
    sizes[2 * v + 1] = (right & huffman_shape::leaf) ? counts[right & 0xFF] : s.nodes[right].size;
  }
  auto expected = allocate<P, memory_space>("strix::huffman_wavelet::node_sizes", 2 * nodes, tracker);
  strix::copy(space, expected, Kokkos::View<const P*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(sizes.data(), sizes.size()));
  d.node_ones = allocate<P, memory_space>("strix::huffman_wavelet::node_ones", nodes, tracker);
  const auto bits = d.bits.ref();
  auto base = d.node_base;
  auto ones = d.node_ones;
  P bad = 0;
  Kokkos::parallel_reduce(
      "strix::huffman_wavelet_node_ones", range(space, 0, std::int64_t(nodes)),
      KOKKOS_LAMBDA(const std::int64_t v, P& errors) {
        const P b = base(v), before = bits.rank1(b);
        ones(v) = before;
        if (b + expected(2 * v) > bits.n || bits.rank1(b + expected(2 * v)) - before != expected(2 * v + 1)) ++errors;
      },
      bad);
  release(expected, tracker);
  STRIX_USER_REQUIRE(bad == 0, "Huffman wavelet tree is inconsistent: its level bits disagree with its symbol counts");
}

// Builds d from n bytes whose 256 counts are `counts` (host).
template <class ExecSpace>
void build_huffman_wavelet(const ExecSpace& space, const device_view<const std::uint8_t, ExecSpace>& text,
                           const std::uint64_t* counts, huffman_wavelet_data<ExecSpace>& d, memory_tracker* tracker) {
  using memory_space = typename ExecSpace::memory_space;
  using range = Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>;
  using P = std::uint64_t;
  const P n = text.extent(0);
  std::uint8_t lengths[256];
  huffman_lengths(counts, lengths);
  huffman_shape s;
  const std::string problem = make_huffman_shape(counts, lengths, s);
  STRIX_REQUIRE(problem.empty());
  d = huffman_wavelet_data<ExecSpace>();
  const huffman_levels off = install_huffman_shape(space, s, n, d, tracker);
  d.bits.n = off.offset[s.levels];
  d.bits.words = allocate<std::uint64_t, memory_space>("strix::huffman_wavelet::bits", padded_words(d.bits.n), tracker);
  strix::fill(space, d.bits.words, std::uint64_t(0));
  if (s.levels > 0) {
    // The node of each byte at each depth (row l of `node_of`), and each node's start in its
    // level.
    std::vector<std::uint16_t> node_of(std::size_t(s.levels) * 256, 0);
    for (int c = 0; c < 256; ++c) {
      unsigned v = 0;
      for (int l = 0; l < s.length[c]; ++l) {
        node_of[std::size_t(l) * 256 + c] = static_cast<std::uint16_t>(v);
        v = s.nodes[v].child[(s.code[c] >> l) & 1];
      }
    }
    std::vector<P> starts(s.nodes.size());
    for (std::size_t v = 0; v < s.nodes.size(); ++v) starts[v] = s.nodes[v].start;
    auto d_node_of = to_device(space, node_of.data(), node_of.size(), "strix::huffman_wavelet::node_of");
    auto d_start = to_device(space, starts.data(), starts.size(), "strix::huffman_wavelet::node_start");
    auto dest_base = allocate<P, memory_space>("strix::huffman_wavelet::dest_base", 256, tracker);
    auto seq = allocate<std::uint8_t, memory_space>("strix::huffman_wavelet::sequence", n, tracker);
    auto next = allocate<std::uint8_t, memory_space>("strix::huffman_wavelet::sequence_next", s.levels > 1 ? n : 0,
                                                     tracker);
    strix::copy(space, seq, Kokkos::View<const std::uint8_t*, memory_space, Kokkos::MemoryUnmanaged>(text.data(), n));
    auto prefix = allocate<P, memory_space>("strix::huffman_wavelet::word_prefix", (n + 63) / 64 + 1, tracker);
    auto words = d.bits.words;
    auto code = d.code;
    auto length = d.length;
    auto child = d.child;
    for (int l = 0; l < s.levels; ++l) {
      const P nl = s.level_size[l], base = off.offset[l] / 64, nwords = (nl + 63) / 64;
      const std::uint8_t* seq_p = seq.data();
      Kokkos::parallel_for("strix::huffman_wavelet_fill_level", range(space, 0, nwords),
                           KOKKOS_LAMBDA(const std::int64_t wi) {
                             const P lo = P(wi) * 64, hi = lo + 64 < nl ? lo + 64 : nl;
                             std::uint64_t word = 0;
                             for (P i = lo; i < hi; ++i) word |= std::uint64_t((code(seq_p[i]) >> l) & 1u) << (i - lo);
                             words(base + wi) = word;
                           });
      if (l + 1 == s.levels) break;
      level_word_prefix(space, words, base, nwords, prefix);
      // Per byte that goes on to the next level, where its run in its child starts, as a base
      // to add the ones (bit 1) or the zeros (bit 0) before it in the level: its child's start
      // less the ones before its node (bit 1), or its child's start less its node's start plus
      // those ones (bit 0); modulo 2^64, so that the sums come out right.
      const std::uint16_t* node_row = d_node_of.data() + std::size_t(l) * 256;
      Kokkos::parallel_for("strix::huffman_wavelet_dest_base", range(space, 0, 256),
                           KOKKOS_LAMBDA(const std::int64_t c) {
                             if (length(c) <= l + 1) return;
                             const unsigned v = node_row[c], b = (code(c) >> l) & 1u;
                             const P st = d_start(v), node_ones = level_ones_before(prefix, words(base + (st >> 6)), st);
                             const P child_start = d_start(child(2 * v + b));
                             dest_base(c) = b ? child_start - node_ones : child_start - st + node_ones;
                           });
      Kokkos::parallel_for("strix::huffman_wavelet_partition", range(space, 0, (nl + 7) / 8),
                           KOKKOS_LAMBDA(const std::int64_t t) {
                             const P i0 = P(t) * 8, wi = i0 >> 6;
                             const std::uint64_t word = words(base + wi);
                             P ones = level_ones_before(prefix, word, i0);
                             for (int k = 0; k < 8; ++k) {
                               const P i = i0 + k;
                               if (i >= nl) break;
                               const std::uint8_t c = seq_p[i];
                               const bool bit = (word >> (i & 63)) & 1u;
                               if (length(c) > l + 1) next(dest_base(c) + (bit ? ones : i - ones)) = c;
                               ones += bit ? 1 : 0;
                             }
                           });
      std::swap(seq, next);
    }
    space.fence();
    release(seq, tracker);
    release(next, tracker);
    release(prefix, tracker);
    release(dest_base, tracker);
  }
  finish_huffman_levels(space, s, counts, d, tracker);
}

// Completes d read from a file (d.code_length, d.n, d.bits.words and d.bits.n set) for a text
// with these 256 counts: the shape from the lengths, the tables and the directory, checked;
// a damaged file is invalid_input.
template <class ExecSpace>
void finish_huffman_wavelet(const ExecSpace& space, const std::uint64_t* counts, huffman_wavelet_data<ExecSpace>& d) {
  huffman_shape s;
  const std::string problem = make_huffman_shape(counts, d.code_length, s);
  STRIX_USER_REQUIRE(problem.empty(), "Huffman wavelet tree: " + problem);
  const huffman_levels off = install_huffman_shape(space, s, d.n, d, nullptr);
  STRIX_USER_REQUIRE(d.bits.n == off.offset[s.levels] && d.bits.words.extent(0) == padded_words(d.bits.n),
                     "Huffman wavelet tree: its level bits have the wrong size");
  finish_huffman_levels(space, s, counts, d, nullptr);
}

}  // namespace strix::detail
