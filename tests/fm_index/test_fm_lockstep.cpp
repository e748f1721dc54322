// SPDX-License-Identifier: BSD-3-Clause
// The host backends' lockstep searches and LF walks (fm_index/detail/fm_lockstep_def.hpp)
// against the one-at-a-time steps every backend has (fm_index_ref::search and ::position) and
// against the text (extract): the same answers for any number of lanes. The batch tests of
// test_fm_index.cpp reach the lockstep code through fm_index on host backends; this checks
// it beside the steps the GPU runs, on the same index.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <strix/fm_index/detail/fm_lockstep_def.hpp>
#include <strix/index/text_index.hpp>

#include "fm_test_inputs.hpp"
#include "test_support.hpp"

using namespace strix_test;

namespace {

// Counts and intervals of patterns [first, last) by lockstep with `lanes` lanes, against
// fm.search; positions of every row (or every `stride`th) against fm.position.
template <int lanes, class I>
void check_lockstep(const strix::fm_index_ref<I>& fm, const batch& b, std::int64_t first, std::int64_t last) {
  CAPTURE(lanes);
  const std::int64_t m = std::int64_t(b.offsets.size()) - 1;
  std::vector<I> counts(m, I(~I(0)));
  std::vector<std::uint64_t> ranges(2 * m, ~std::uint64_t(0));
  strix::detail::fm_count_lockstep<lanes>(fm, b.all.data(), b.offsets.data(), first, last, counts.data(), ranges.data());
  for (std::int64_t q = 0; q < m; ++q) {
    CAPTURE(q);
    if (q < first || q >= last) {
      REQUIRE(counts[q] == I(~I(0)));  // outside the range: untouched
      continue;
    }
    std::uint64_t sp = 0, ep = 0;
    fm.search(b.all.data() + b.offsets[q], b.offsets[q + 1] - b.offsets[q], sp, ep);
    REQUIRE(ranges[2 * q] == sp);
    REQUIRE(ranges[2 * q + 1] == ep);
    REQUIRE(counts[q] == I(ep - sp));
  }
  // Counts alone (no ranges) agree too.
  std::vector<I> only(m, 0);
  strix::detail::fm_count_lockstep<lanes>(fm, b.all.data(), b.offsets.data(), first, last, only.data(), nullptr);
  for (std::int64_t q = first; q < last; ++q) REQUIRE(only[q] == counts[q]);

  const std::uint64_t rows = fm.rows(), stride = rows > 1000 ? 5 : 1;
  std::vector<I> which;
  for (std::uint64_t r = 0; r < rows; r += stride) which.push_back(static_cast<I>(r));
  std::vector<I> positions(which.size(), I(~I(0)));
  const auto damaged = strix::detail::fm_positions_lockstep<lanes>(fm, which.data(), 0, std::int64_t(which.size()),
                                                                   positions.data());
  CHECK(damaged == 0);
  for (std::size_t t = 0; t < which.size(); ++t) {
    CAPTURE(which[t]);
    REQUIRE(positions[t] == I(fm.position(which[t])));
  }
}

// Ranges of the text (whole, empty, at and around sample boundaries, random) extracted by
// lockstep with `lanes` lanes, against the text.
template <int lanes, class I>
void check_extract_lockstep(const strix::fm_index_ref<I>& fm, const bytes& text, std::uint64_t seed) {
  CAPTURE(lanes);
  const std::uint64_t n = text.size(), rate = fm.sample_rate;
  std::vector<std::uint64_t> starts{0, 0, n}, lengths{n, 0, 0};
  for (std::uint64_t at : {rate - 1, rate, rate + 1, 2 * rate, n / 2, n - 1})
    for (std::uint64_t len : {std::uint64_t(1), rate - 1, rate, rate + 1, 3 * rate + 2})
      if (at < n) {
        starts.push_back(at);
        lengths.push_back(std::min(len, n - at));
      }
  std::mt19937_64 rng(seed);
  for (int k = 0; k < 40 && n > 0; ++k) {
    starts.push_back(rng() % n);
    lengths.push_back(rng() % (std::min<std::uint64_t>(n - starts.back(), 3000) + 1));
  }
  std::vector<std::uint64_t> at{0};
  for (auto len : lengths) at.push_back(at.back() + len);
  std::vector<std::uint8_t> out(at.back() + 1, 0xA5);  // one byte past the end: untouched
  strix::detail::fm_extract_lockstep<lanes>(fm, starts.data(), lengths.data(), at.data(), out.data(), 0,
                                            std::int64_t(starts.size()));
  for (std::size_t q = 0; q < starts.size(); ++q) {
    CAPTURE(starts[q]);
    CAPTURE(lengths[q]);
    REQUIRE(bytes(out.begin() + at[q], out.begin() + at[q + 1]) ==
            bytes(text.begin() + starts[q], text.begin() + starts[q] + lengths[q]));
  }
  CHECK(out.back() == 0xA5);
}

}  // namespace

TEST_SUITE_BEGIN("fm_index");

TEST_CASE_TEMPLATE_DEFINE("fm_index host lockstep: the same intervals, positions and text as one query at a time", C,
                          fm_lockstep) {
  using I = typename C::index;
  if constexpr (strix::is_host_space_v<typename C::space>) {
    auto inputs = hard_inputs();
    for (unsigned sigma : {1u, 2u, 4u, 26u, 256u}) inputs.push_back({"random sigma " + std::to_string(sigma), random_text(3000, sigma, 40 + sigma)});
    inputs.push_back({"dna with N", dna_with_n(20000, 5)});
    inputs.push_back({"dna, rare symbols spread", dna_with_n(6000, 6, 30)});
    bytes deep;  // Huffman codes 1 to 13 bits deep
    for (int c = 0; c < 14; ++c) deep.insert(deep.end(), std::size_t(1) << c, std::uint8_t('a' + c));
    std::shuffle(deep.begin(), deep.end(), std::mt19937_64(13));
    inputs.push_back({"deep codes", deep});
    std::uint64_t seed = 100;
    for (const auto& input : inputs) {
      // (Not a structured binding: CAPTURE's lambda may capture one only from C++20.)
      const std::string& name = input.first;
      const bytes& text = input.second;
      CAPTURE(name);
      ++seed;
      strix::text_index<typename C::space, I> index(typename C::space(), text.data(), text.size());
      index.bwt();
      for (auto layout : {strix::fm_rank_layout::occurrence_table, strix::fm_rank_layout::huffman_tree}) {
        CAPTURE(int(layout));
        strix::fm_options options;
        options.layout = layout;
        options.sample_rate = seed % 3 == 0 ? 1 : seed % 3 == 1 ? 5 : 32;
        options.kmer_length = int(seed % 4);  // the table's k-mer starts, or none
        index.release(strix::index_part::fm_index);
        const auto& fm = index.fm_index(options);
        const auto ref = fm.ref();
        // The lockstep answers every table, and every tree of two symbols or more.
        std::uint64_t distinct = 0;
        for (int c = 0; c < 256; ++c) distinct += ref.occurs(std::uint8_t(c));
        REQUIRE(strix::detail::fm_lockstep_applies(ref) ==
                (layout == strix::fm_rank_layout::occurrence_table || distinct > 1));
        if (!strix::detail::fm_lockstep_applies(ref)) continue;
        auto ps = patterns_for(text, seed);
        std::mt19937_64 rng(seed);
        for (int k = 0; k < 60 && !text.empty(); ++k) {  // long ones too: many steps a lane
          const std::size_t len = 1 + rng() % std::min<std::size_t>(text.size(), 2000);
          const std::size_t at = rng() % (text.size() - len + 1);
          ps.push_back(bytes(text.begin() + at, text.begin() + at + len));
        }
        const batch b(ps);
        const std::int64_t m = std::int64_t(ps.size());
        check_lockstep<1>(fm.ref(), b, 0, m);
        check_lockstep<3>(fm.ref(), b, 1, m - 2);
        check_lockstep<strix::detail::fm_lockstep_lanes>(fm.ref(), b, 0, m);
        check_extract_lockstep<1>(fm.ref(), text, seed);
        check_extract_lockstep<strix::detail::fm_lockstep_lanes>(fm.ref(), text, seed);
      }
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(fm_lockstep, all_configs);

TEST_SUITE_END();
