// SPDX-License-Identifier: BSD-3-Clause
// The Huffman-shaped wavelet tree's shape (huffman_shape.hpp) on the host: optimal code
// lengths against the textbook cost, the depth cap on Fibonacci counts, prefix-free complete
// codes, and node tables whose sizes and starts account for every symbol of every level.
// Its bits and queries are tested through the FM-index (tests/fm_index).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <random>
#include <vector>

#include <strix/succinct/huffman_shape.hpp>

namespace {

// Sum of count * length of an optimal prefix code (the sum of the merged weights).
std::uint64_t optimal_cost(const std::uint64_t* counts) {
  std::priority_queue<std::uint64_t, std::vector<std::uint64_t>, std::greater<>> heap;
  for (int c = 0; c < 256; ++c)
    if (counts[c]) heap.push(counts[c]);
  std::uint64_t cost = 0;
  while (heap.size() > 1) {
    const auto a = heap.top();
    heap.pop();
    const auto b = heap.top();
    heap.pop();
    cost += a + b;
    heap.push(a + b);
  }
  return cost;
}

// The shape's invariants: codes prefix-free and as long as their lengths say, every symbol's
// path through the nodes ending at its own leaf, node sizes the symbols below them, levels
// the nodes of their depth side by side.
void check_shape(const std::uint64_t* counts, const strix::huffman_shape& s) {
  std::uint64_t level_total[strix::huffman_shape::max_depth] = {};
  for (int c = 0; c < 256; ++c) {
    if (counts[c] == 0 || s.sigma < 2) continue;
    unsigned v = 0;
    for (int l = 0; l < s.length[c]; ++l) {
      REQUIRE(v < s.nodes.size());
      REQUIRE(s.nodes[v].depth == l);
      level_total[l] += counts[c];
      const std::uint16_t next = s.nodes[v].child[(s.code[c] >> l) & 1];
      if (l + 1 == s.length[c]) REQUIRE(next == (strix::huffman_shape::leaf | c));
      else REQUIRE((next & strix::huffman_shape::leaf) == 0);
      v = next;
    }
  }
  for (int l = 0; l < s.levels; ++l) CHECK(s.level_size[l] == level_total[l]);
  for (std::size_t v = 0; v < s.nodes.size(); ++v) {
    const auto& node = s.nodes[v];
    std::uint64_t below = 0;
    for (int b : {0, 1}) {
      const auto u = node.child[b];
      below += (u & strix::huffman_shape::leaf) ? counts[u & 0xFF] : s.nodes[u].size;
    }
    CHECK(below == node.size);
    CHECK(node.start + node.size <= s.level_size[node.depth]);
    if (v > 0 && s.nodes[v - 1].depth == node.depth) CHECK(node.start == s.nodes[v - 1].start + s.nodes[v - 1].size);
    if (v == 0 || s.nodes[v - 1].depth != node.depth) CHECK(node.start == 0);
  }
}

strix::huffman_shape shape_of(const std::uint64_t* counts) {
  std::uint8_t length[256];
  strix::detail::huffman_lengths(counts, length);
  strix::huffman_shape s;
  REQUIRE(strix::make_huffman_shape(counts, length, s).empty());
  return s;
}

}  // namespace

TEST_SUITE_BEGIN("succinct");

TEST_CASE("Huffman shapes: optimal lengths, complete codes, consistent nodes") {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    CAPTURE(trial);
    std::uint64_t counts[256] = {};
    const int sigma = 1 + int(rng() % 256);
    for (int k = 0; k < sigma; ++k) counts[rng() % 256] += 1 + (trial % 3 == 0 ? rng() % 1000000 : rng() % 10);
    const auto s = shape_of(counts);
    std::uint64_t cost = 0;
    for (int c = 0; c < 256; ++c) cost += counts[c] * s.length[c];
    CHECK(cost == optimal_cost(counts));
    check_shape(counts, s);
  }
}

TEST_CASE("Huffman shapes: one symbol, two symbols, and the depth cap") {
  std::uint64_t counts[256] = {};
  counts['x'] = 10;
  auto s = shape_of(counts);
  CHECK(s.sigma == 1);
  CHECK(s.levels == 0);
  CHECK(s.only_symbol == 'x');
  CHECK(s.nodes.empty());
  counts['y'] = 1;
  s = shape_of(counts);
  CHECK(s.levels == 1);
  CHECK(s.length['x'] == 1);
  CHECK(s.length['y'] == 1);
  check_shape(counts, s);
  // Fibonacci counts: the optimal code is 45 deep; capped at 32, and still complete.
  std::fill(counts, counts + 256, 0);
  std::uint64_t a = 1, b = 1;
  for (int c = 0; c < 46; ++c) {
    counts[c] = a;
    const auto t = a + b;
    a = b;
    b = t;
  }
  s = shape_of(counts);
  CHECK(s.levels <= strix::huffman_shape::max_depth);
  CHECK(s.levels >= 20);
  check_shape(counts, s);
  // Lengths a file could hold: wrong ones are named.
  std::uint8_t lengths[256] = {};
  std::fill(counts, counts + 256, 0);
  counts[1] = counts[2] = counts[3] = 5;
  lengths[1] = 1, lengths[2] = 2, lengths[3] = 2;
  CHECK(strix::make_huffman_shape(counts, lengths, s).empty());
  lengths[3] = 3;
  CHECK(strix::make_huffman_shape(counts, lengths, s) == "the code lengths are not a complete prefix code");
  lengths[3] = 0;
  CHECK(strix::make_huffman_shape(counts, lengths, s) == "the code lengths do not match the symbol counts");
  lengths[3] = 40;
  CHECK_FALSE(strix::make_huffman_shape(counts, lengths, s).empty());
  counts[2] = counts[3] = 0;
  lengths[1] = 1, lengths[2] = lengths[3] = 0;
  CHECK(strix::make_huffman_shape(counts, lengths, s) == "a one-symbol text has no codes");
}

TEST_SUITE_END();
