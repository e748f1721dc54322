// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The shape of a Huffman-shaped wavelet tree over bytes, on the host and without Kokkos:
// code lengths from the 256 symbol counts, canonical codes from the lengths, and the tree's
// internal nodes with their places in the levels (huffman_wavelet.hpp builds the bits).
//
// A byte's code has bit l (counted from bit 0) for its branch at depth l, 1 to the right.
// Level l holds, node by node, the symbols whose codes are longer than l, in text order
// within a node; the internal nodes of a depth sit side by side from the leftmost, each
// starting on a fresh bit after the ones before it. A text with one distinct byte has no
// level. The lengths alone (with the counts) determine everything: files keep those.
#include <algorithm>
#include <cstdint>
#include <queue>
#include <string>
#include <utility>
#include <vector>

namespace strix {

struct huffman_shape {
  static constexpr int max_depth = 32;         // code lengths are capped at this
  static constexpr std::uint16_t leaf = 0x8000;  // child entry: leaf | symbol
  struct node {
    std::uint16_t child[2] = {0, 0};  // internal node id, or leaf | symbol
    int depth = 0;
    std::uint64_t size = 0;   // symbols of the text below it: its bits in its level
    std::uint64_t start = 0;  // where its bits start in its level
  };
  std::uint8_t length[256] = {};   // 0: absent (and the only byte of a one-symbol text)
  std::uint32_t code[256] = {};
  int sigma = 0, levels = 0, only_symbol = 0;
  std::vector<node> nodes;  // internal nodes, breadth first, left to right: node 0 the root
  std::uint64_t level_size[max_depth] = {};
};

namespace detail {

// Huffman code lengths for the symbols with counts (at most huffman_shape::max_depth: where
// the optimal code is deeper, the counts are flattened, halved with one added, until it is
// not). One symbol gets length 0.
inline void huffman_lengths(const std::uint64_t* counts, std::uint8_t* length) {
  std::vector<std::uint64_t> weight(counts, counts + 256);
  for (;;) {
    std::fill(length, length + 256, std::uint8_t(0));
    // Leaves 0..255, inner nodes from 256; ties broken by the smaller id, so the lengths are
    // the same on every machine.
    using item = std::pair<std::uint64_t, int>;
    std::priority_queue<item, std::vector<item>, std::greater<item>> heap;
    for (int c = 0; c < 256; ++c)
      if (counts[c] > 0) heap.push({weight[c], c});
    if (heap.size() <= 1) return;
    std::vector<int> parent(512, -1);
    int next = 256;
    while (heap.size() > 1) {
      const item a = heap.top();
      heap.pop();
      const item b = heap.top();
      heap.pop();
      parent[a.second] = parent[b.second] = next;
      heap.push({a.first + b.first, next++});
    }
    int deepest = 0;
    for (int c = 0; c < 256; ++c) {
      if (counts[c] == 0) continue;
      int d = 0;
      for (int v = c; parent[v] >= 0; v = parent[v]) ++d;
      length[c] = static_cast<std::uint8_t>(d);
      deepest = std::max(deepest, d);
    }
    if (deepest <= huffman_shape::max_depth) return;
    for (auto& w : weight) w = w / 2 + 1;
  }
}

}  // namespace detail

// The shape for these counts and code lengths (length[c] > 0 exactly where counts[c] > 0,
// unless one symbol occurs: then all lengths are 0). Returns an empty string, or what is wrong
// with the lengths (a file's: not a complete prefix code, too deep, or not matching the
// counts).
inline std::string make_huffman_shape(const std::uint64_t* counts, const std::uint8_t* length, huffman_shape& s) {
  s = huffman_shape();
  int present = 0;
  for (int c = 0; c < 256; ++c) present += counts[c] > 0;
  s.sigma = present;
  if (present <= 1) {
    for (int c = 0; c < 256; ++c) {
      if (length[c] != 0) return "a one-symbol text has no codes";
      if (counts[c] > 0) s.only_symbol = c;
    }
    return {};
  }
  // Kraft's sum must be exactly 1 (a complete code: every inner node has two children).
  std::uint64_t kraft = 0;
  for (int c = 0; c < 256; ++c) {
    if ((counts[c] > 0) != (length[c] > 0)) return "the code lengths do not match the symbol counts";
    if (length[c] > huffman_shape::max_depth) return "a code is longer than " + std::to_string(huffman_shape::max_depth);
    if (length[c] > 0) kraft += std::uint64_t(1) << (huffman_shape::max_depth - length[c]);
  }
  if (kraft != std::uint64_t(1) << huffman_shape::max_depth) return "the code lengths are not a complete prefix code";
  // Canonical codes: by length, then by symbol, counting up (value read from the first bit).
  std::vector<int> order;
  for (int c = 0; c < 256; ++c)
    if (length[c] > 0) order.push_back(c);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return length[a] < length[b]; });
  std::uint64_t value = 0;
  int previous = length[order[0]];
  for (int c : order) {
    value <<= length[c] - previous;
    previous = length[c];
    std::uint32_t reversed = 0;  // bit l: the l-th bit from the top of value
    for (int l = 0; l < length[c]; ++l) reversed |= std::uint32_t((value >> (length[c] - 1 - l)) & 1) << l;
    s.code[c] = reversed;
    s.length[c] = length[c];
    s.levels = std::max<int>(s.levels, length[c]);
    ++value;
  }
  // The trie of the codes, its inner nodes numbered breadth first, left to right.
  struct trie_node {
    int child[2] = {-1, -1};
    int symbol = -1;
  };
  std::vector<trie_node> trie(1);
  for (int c : order) {
    int v = 0;
    for (int l = 0; l < s.length[c]; ++l) {
      const int b = (s.code[c] >> l) & 1;
      if (trie[v].child[b] < 0) {
        trie[v].child[b] = static_cast<int>(trie.size());
        trie.emplace_back();
      }
      v = trie[v].child[b];
    }
    trie[v].symbol = c;
  }
  std::vector<int> id(trie.size(), -1), queue{0};
  std::vector<std::uint64_t> size(trie.size(), 0);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int v = queue[q];
    id[v] = static_cast<int>(q);
    for (int b : {0, 1})
      if (trie[v].child[b] >= 0 && trie[trie[v].child[b]].symbol < 0) queue.push_back(trie[v].child[b]);
  }
  // Sizes bottom up (children come after their parent in `queue`).
  for (std::size_t q = queue.size(); q-- > 0;) {
    const int v = queue[q];
    for (int b : {0, 1}) {
      const int u = trie[v].child[b];
      size[v] += trie[u].symbol >= 0 ? counts[trie[u].symbol] : size[u];
    }
  }
  s.nodes.resize(queue.size());
  std::vector<int> depth(trie.size(), 0);
  for (std::size_t q = 0; q < queue.size(); ++q) {
    const int v = queue[q];
    auto& out = s.nodes[q];
    out.depth = depth[v];
    out.size = size[v];
    out.start = s.level_size[out.depth];
    s.level_size[out.depth] += size[v];
    for (int b : {0, 1}) {
      const int u = trie[v].child[b];
      if (trie[u].symbol >= 0) {
        out.child[b] = static_cast<std::uint16_t>(huffman_shape::leaf | trie[u].symbol);
      } else {
        out.child[b] = static_cast<std::uint16_t>(id[u]);
        depth[u] = depth[v] + 1;
      }
    }
  }
  return {};
}

}  // namespace strix
