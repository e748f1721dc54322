// SPDX-License-Identifier: BSD-3-Clause
// strix::approximate::edit_alignments on every execution space: each alignment replayed on its
// read and text (its edits its distance, the whole read used), its distance the least over the
// text's ends by a full DP, k + 1 exactly where none is within k.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include <strix/approximate/edit_alignment.hpp>

#include "test_support.hpp"

using namespace strix_test;

namespace {

// The least edits of the whole read against text[0, e) over every e (no band).
int least_edits(const bytes& read, const bytes& text) {
  std::vector<int> col(read.size() + 1);
  for (std::size_t i = 0; i <= read.size(); ++i) col[i] = int(i);
  int best = col[read.size()];
  for (std::size_t e = 0; e < text.size(); ++e) {
    std::vector<int> next(read.size() + 1);
    next[0] = col[0] + 1;
    for (std::size_t i = 1; i <= read.size(); ++i)
      next[i] = std::min({col[i - 1] + (read[i - 1] != text[e]), col[i] + 1, next[i - 1] + 1});
    col = next;
    best = std::min(best, col[read.size()]);
  }
  return best;
}

}  // namespace

TEST_SUITE_BEGIN("approximate");

TEST_CASE_TEMPLATE_DEFINE("edit alignments against a full DP", C, edit_alignments_case) {
  if (sizeof(typename C::index) == 8) return;  // one run a space: the alignments take no index type
  using mem = typename C::memory_space;
  std::mt19937 rng(17);
  for (int k = 0; k <= strix::approximate::max_alignment_errors; ++k) {
    CAPTURE(k);
    std::vector<bytes> reads, texts;
    for (int a = 0; a < 300; ++a) {
      const std::size_t m = rng() % 40;  // empty reads too
      bytes text(m + k + rng() % 3), read;
      for (auto& c : text) c = "ACGT"[rng() % (a % 5 == 0 ? 2 : 4)];
      if (a % 7 == 3) text.resize(text.size() / 2);  // a window clipped at its sequence's end
      read.assign(text.begin(), text.begin() + std::min(m, text.size()));
      while (read.size() < m) read.push_back('A');
      for (int e = int(rng() % (k + 3)); e > 0 && !read.empty(); --e) {  // up to k + 2 edits
        const std::size_t at = rng() % read.size();
        switch (rng() % 3) {
          case 0: read[at] = "ACGT"[rng() % 4]; break;
          case 1: read.insert(read.begin() + at, "ACGT"[rng() % 4]); break;
          default: read.erase(read.begin() + at);
        }
      }
      reads.push_back(read);
      texts.push_back(text);
    }
    bytes all_reads, all_texts;
    std::vector<std::uint64_t> read_offsets{0}, text_offsets{0};
    for (std::size_t a = 0; a < reads.size(); ++a) {
      all_reads.insert(all_reads.end(), reads[a].begin(), reads[a].end());
      all_texts.insert(all_texts.end(), texts[a].begin(), texts[a].end());
      read_offsets.push_back(all_reads.size());
      text_offsets.push_back(all_texts.size());
    }
    const std::size_t count = reads.size();
    Kokkos::View<std::uint8_t*, mem> ops("ops", all_reads.size() + count * k), distances("distances", count);
    Kokkos::View<std::uint32_t*, mem> op_counts("op_counts", count);
    strix::approximate::edit_alignments(typename C::space(), to_view<mem>(all_reads), to_view<mem>(read_offsets),
                                        to_view<mem>(all_texts), to_view<mem>(text_offsets), k, ops, op_counts, distances);
    const auto h_ops = to_vector(ops);
    const auto h_counts = to_vector(op_counts);
    const auto h_distances = to_vector(distances);
    int aligned = 0;
    for (std::size_t a = 0; a < count; ++a) {
      CAPTURE(a);
      const int want = least_edits(reads[a], texts[a]);
      if (want > k) {
        CHECK(int(h_distances[a]) == k + 1);
        CHECK(h_counts[a] == 0);
        continue;
      }
      ++aligned;
      CHECK(int(h_distances[a]) == want);
      // Replayed: the edits of the operations, the read used whole, the text within the window.
      std::size_t i = 0, j = 0;
      int edits = 0;
      bool fits = true;
      for (std::uint32_t o = 0; o < h_counts[a]; ++o) {
        const std::uint8_t op = h_ops[read_offsets[a] + a * k + o];
        if (op == 'M') {
          fits = fits && i < reads[a].size() && j < texts[a].size();
          if (fits) edits += reads[a][i] != texts[a][j];
          ++i;
          ++j;
        } else if (op == 'I') {
          ++edits;
          ++i;
        } else {
          CHECK(op == 'D');
          ++edits;
          ++j;
        }
      }
      CHECK(fits);
      CHECK(i == reads[a].size());
      CHECK(j <= texts[a].size());
      CHECK(edits == want);
    }
    CHECK(aligned > 60);  // (95 of 300 at k = 0, most beyond): the test replays real ones
  }
}
TEST_CASE_TEMPLATE_APPLY(edit_alignments_case, all_configs);

TEST_SUITE_END();
