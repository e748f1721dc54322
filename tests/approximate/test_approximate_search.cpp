// SPDX-License-Identifier: BSD-3-Clause
// Approximate search (Hamming and edit distance) on every backend against brute-force matchers:
// every start position within k errors, each once with its smallest distance, ascending.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <string>

#include <unistd.h>

#include <cstdio>

#include <strix/approximate/approximate_search.hpp>
#include <strix/fm_index/fm_index_file.hpp>
#include <strix/index/text_index.hpp>

#include "../fm_index/fm_test_inputs.hpp"
#include "test_support.hpp"

using namespace strix_test;

// (ctest runs the suite "approximate": a case outside every suite ran only on the device.)
TEST_SUITE_BEGIN("approximate");

namespace {

struct hit {
  std::uint64_t position;
  int distance;
  bool operator==(const hit& o) const { return position == o.position && distance == o.distance; }
};

// "position:distance ..." (a failed check prints both lists).
std::string show(const std::vector<hit>& hits) {
  std::string out;
  for (const auto& h : hits) out += std::to_string(h.position) + ':' + std::to_string(h.distance) + ' ';
  return out;
}

// Every p with text[p, p + m) free of the separator and at most k places from the read.
std::vector<hit> brute_force_hamming(const bytes& t, const bytes& read, int k, int separator) {
  std::vector<hit> hits;
  if (read.empty()) {
    for (std::uint64_t p = 0; p <= t.size(); ++p) hits.push_back({p, 0});
    return hits;
  }
  for (std::size_t p = 0; p + read.size() <= t.size(); ++p) {
    int d = 0;
    bool crosses = false;
    for (std::size_t j = 0; j < read.size() && d <= k && !crosses; ++j) {
      crosses = int(t[p + j]) == separator;
      d += t[p + j] != read[j];
    }
    if (!crosses && d <= k) hits.push_back({p, d});
  }
  return hits;
}

// Every p (0..n) where some text[p, e) free of the separator is within edit distance k of the
// read, at the smallest such distance: a global alignment of the read against each prefix of
// text[p, ...).
std::vector<hit> brute_force_edit(const bytes& t, const bytes& read, int k, int separator) {
  std::vector<hit> hits;
  const int m = int(read.size());
  std::vector<int> column(m + 1), next(m + 1);
  for (std::size_t p = 0; p <= t.size(); ++p) {
    for (int j = 0; j <= m; ++j) column[j] = j;
    int best = column[m];
    for (std::size_t e = p; e < t.size() && int(t[e]) != separator; ++e) {
      next[0] = column[0] + 1;
      int least = next[0];
      for (int j = 1; j <= m; ++j) {
        next[j] = std::min({column[j - 1] + (t[e] != read[j - 1]), column[j] + 1, next[j - 1] + 1});
        least = std::min(least, next[j]);
      }
      column.swap(next);
      best = std::min(best, column[m]);
      if (least > k) break;
    }
    if (best <= k) hits.push_back({p, best});
  }
  return hits;
}

// Reads for t: substrings with 0 to k + 1 substitutions, random ones, the edge lengths.
std::vector<bytes> reads_for(const bytes& t, int k, std::uint64_t seed, bool edits = false) {
  std::mt19937_64 rng(seed);
  std::vector<bytes> reads = {{}, {t.empty() ? std::uint8_t('A') : t[0]}, {0x00, 0xFF}};
  if (!t.empty()) {
    reads.push_back(t);
    bytes longer = t;
    longer.push_back(t.back());
    reads.push_back(longer);
  }
  for (int r = 0; r < 30 && !t.empty(); ++r) {
    const std::size_t len = 1 + rng() % std::min<std::size_t>(t.size(), r < 20 ? 14 : 40);
    const std::size_t at = rng() % (t.size() - len + 1);
    bytes read(t.begin() + at, t.begin() + at + len);
    const int changes = int(rng() % (k + 2));
    for (int c = 0; c < changes; ++c) {
      const std::size_t at = rng() % read.size();
      const int kind = edits ? int(rng() % 3) : 0;  // substitution, insertion, deletion
      if (kind == 0) read[at] = t[rng() % t.size()];  // a symbol of the text
      if (kind == 1) read.insert(read.begin() + at, t[rng() % t.size()]);
      if (kind == 2 && read.size() > 1) read.erase(read.begin() + at);
    }
    if (r % 7 == 6) read[rng() % read.size()] = 0xFE;                                     // one it lacks
    reads.push_back(read);
  }
  return reads;
}

template <class C>
void check_search(const std::string& name, const bytes& text, int separator, int max_k, std::uint64_t seed,
                  strix::approximate::metric metric = strix::approximate::metric::hamming, int kmer_length = -1) {
  const bool edit = metric == strix::approximate::metric::edit;
  using space = typename C::space;
  using I = typename C::index;
  CAPTURE(name);
  CAPTURE(kmer_length);
  strix::fm_options options;
  options.separator = separator;
  options.kmer_length = kmer_length;
  // A k-mer table needs the occurrence table (texts beyond four symbols would take the tree).
  if (kmer_length > 0) options.layout = strix::fm_rank_layout::occurrence_table;
  options.sample_rate = 4;
  bytes reversed(text.rbegin(), text.rend());
  strix::text_index<space, I> forward_text(space(), text.data(), text.size());
  strix::text_index<space, I> reverse_text(space(), reversed.data(), reversed.size());
  const auto& forward = forward_text.fm_index(options);
  const auto& reverse = reverse_text.fm_index(options);
  if (kmer_length > 0) {
    REQUIRE(forward.kmer_length() == kmer_length);
    REQUIRE(reverse.kmer_length() == kmer_length);
  }
  std::size_t inexact = 0;  // hits at distance 1 or more: the test exercises the errors
  for (int k = 0; k <= max_k; ++k) {
    CAPTURE(k);
    const auto reads = reads_for(text, k, seed + k, edit);
    const batch b(reads);
    const auto got = strix::search_approximate(forward, reverse, b.all.data(), b.offsets.data(), reads.size(), k, metric);
    REQUIRE(got.starts.size() == reads.size() + 1);
    for (std::size_t q = 0; q < reads.size(); ++q) {
      CAPTURE(q);
      CAPTURE(std::string(reads[q].begin(), reads[q].end()));
      std::vector<hit> hits;
      for (auto t = got.starts[q]; t < got.starts[q + 1]; ++t) hits.push_back({got.positions[t], got.distances[t]});
      REQUIRE(show(hits) == show(edit ? brute_force_edit(text, reads[q], k, separator)
                                      : brute_force_hamming(text, reads[q], k, separator)));
      for (const auto& h : hits) inexact += h.distance > 0;
    }
    if (k != max_k) continue;
    // In batches of a few reads each: the same answers.
    const auto split = strix::search_approximate(forward, reverse, b.all.data(), b.offsets.data(), reads.size(),
                                                 strix::approximate::default_scheme(k), metric, 40);
    CHECK(split.starts == got.starts);
    CHECK(split.positions == got.positions);
    CHECK(split.distances == got.distances);
  }
  if (text.size() >= 30) CHECK(inexact > 0);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("approximate search finds every match within k substitutions, once, at its distance", C,
                          approximate_hamming) {
  check_search<C>("random sigma 2", random_text(600, 2, 1, 'a'), strix::fm_no_separator, 3, 10);
  check_search<C>("random sigma 4", random_text(2000, 4, 2, 'A'), strix::fm_no_separator, 4, 20);
  check_search<C>("random sigma 26", random_text(1500, 26, 3, 'a'), strix::fm_no_separator, 3, 30);
  check_search<C>("dna with N", dna_with_n(2500, 4), strix::fm_no_separator, 3, 40);
  bytes periodic;
  for (int i = 0; i < 300; ++i) periodic.push_back("ACGTTGCA"[i % 8]);
  check_search<C>("periodic", periodic, strix::fm_no_separator, 3, 50);
  check_search<C>("all equal", bytes(200, 'A'), strix::fm_no_separator, 3, 60);
  check_search<C>("one byte", bytes{'G'}, strix::fm_no_separator, 2, 70);
  check_search<C>("empty", bytes{}, strix::fm_no_separator, 1, 80);
  const std::string joined = "ACGTACGTTA\nACG\n\nTTACGTAAC\nA\nGGGGACGTT";
  check_search<C>("reference", bytes(joined.begin(), joined.end()), '\n', 3, 90);
  // The walks that start from the k-mer tables (a first piece longer than k, without errors):
  // texts of four symbols (and of the four plus others), k from 1 to 5.
  constexpr auto hamming = strix::approximate::metric::hamming;
  check_search<C>("random sigma 4, 3-mers", random_text(2000, 4, 2, 'A'), strix::fm_no_separator, 3, 25, hamming, 3);
  check_search<C>("dna with N, 2-mers", dna_with_n(2500, 4), strix::fm_no_separator, 2, 45, hamming, 2);
  check_search<C>("periodic, 5-mers", periodic, strix::fm_no_separator, 2, 55, hamming, 5);
  check_search<C>("all equal, 4-mers", bytes(200, 'A'), strix::fm_no_separator, 2, 65, hamming, 4);
  check_search<C>("reference, 1-mers", bytes(joined.begin(), joined.end()), '\n', 2, 95, hamming, 1);
}
TEST_CASE_TEMPLATE_APPLY(approximate_hamming, all_configs);

TEST_CASE_TEMPLATE_DEFINE("approximate search finds every start within edit distance k, once, at its distance", C,
                          approximate_edit) {
  constexpr auto edit = strix::approximate::metric::edit;
  check_search<C>("random sigma 2", random_text(250, 2, 1, 'a'), strix::fm_no_separator, 3, 110, edit);
  check_search<C>("random sigma 4", random_text(800, 4, 2, 'A'), strix::fm_no_separator, 4, 120, edit);
  check_search<C>("random sigma 26", random_text(600, 26, 3, 'a'), strix::fm_no_separator, 3, 130, edit);
  check_search<C>("dna with N", dna_with_n(1200, 4), strix::fm_no_separator, 3, 140, edit);
  bytes periodic;
  for (int i = 0; i < 160; ++i) periodic.push_back("ACGTTGCA"[i % 8]);
  check_search<C>("periodic", periodic, strix::fm_no_separator, 3, 150, edit);
  check_search<C>("all equal", bytes(120, 'A'), strix::fm_no_separator, 3, 160, edit);
  check_search<C>("one byte", bytes{'G'}, strix::fm_no_separator, 2, 170, edit);
  check_search<C>("empty", bytes{}, strix::fm_no_separator, 1, 180, edit);
  const std::string joined = "ACGTACGTTA\nACG\n\nTTACGTAAC\nA\nGGGGACGTT";
  check_search<C>("reference", bytes(joined.begin(), joined.end()), '\n', 3, 190, edit);
  // From the k-mer tables (a first piece longer than k + K, without errors).
  check_search<C>("random sigma 4, 3-mers", random_text(800, 4, 2, 'A'), strix::fm_no_separator, 3, 125, edit, 3);
  check_search<C>("dna with N, 2-mers", dna_with_n(1200, 4), strix::fm_no_separator, 2, 145, edit, 2);
  check_search<C>("periodic, 4-mers", periodic, strix::fm_no_separator, 2, 155, edit, 4);
  check_search<C>("reference, 1-mers", bytes(joined.begin(), joined.end()), '\n', 2, 195, edit, 1);
}
TEST_CASE_TEMPLATE_APPLY(approximate_edit, all_configs);

TEST_CASE_TEMPLATE_DEFINE("approximate search of no reads, and of empty reads only", C, approximate_no_walks) {
  using space = typename C::space;
  using I = typename C::index;
  const bytes text = random_text(200, 4, 9, 'A');
  bytes reversed(text.rbegin(), text.rend());
  strix::text_index<space, I> forward(space(), text.data(), text.size()), reverse(space(), reversed.data(), reversed.size());
  const std::uint8_t none = 0;
  const std::uint64_t no_reads[] = {0}, two_empty[] = {0, 0, 0};
  for (const auto metric : {strix::approximate::metric::hamming, strix::approximate::metric::edit}) {
    CAPTURE(int(metric));
    const auto nothing =
        strix::search_approximate(forward.fm_index(), reverse.fm_index(), &none, no_reads, 0, 1, metric);
    CHECK(nothing.starts == std::vector<std::uint64_t>{0});
    CHECK(nothing.positions.empty());
    // The empty read matches at every position 0..n, at distance 0.
    const auto empty =
        strix::search_approximate(forward.fm_index(), reverse.fm_index(), &none, two_empty, 2, 1, metric);
    REQUIRE(empty.starts == std::vector<std::uint64_t>{0, text.size() + 1, 2 * (text.size() + 1)});
    for (std::size_t t = 0; t < empty.positions.size(); ++t) {
      CHECK(std::uint64_t(empty.positions[t]) == t % (text.size() + 1));
      CHECK(empty.distances[t] == 0);
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(approximate_no_walks, all_configs);

TEST_CASE_TEMPLATE_DEFINE("approximate search refuses an index pair of different texts, and k out of range", C,
                          approximate_refusals) {
  using space = typename C::space;
  using I = typename C::index;
  const bytes a = random_text(300, 4, 5, 'A'), b = random_text(300, 4, 6, 'A');
  strix::text_index<space, I> ta(space(), a.data(), a.size()), tb(space(), b.data(), b.size());
  const bytes read = {'A', 'C'};
  const std::uint64_t offsets[] = {0, 2};
  CHECK_THROWS_WITH_AS(strix::search_hamming(ta.fm_index(), tb.fm_index(), read.data(), offsets, 1, 1),
                       doctest::Contains("not of the same text reversed"), strix::error);
  const bytes shorter(a.begin(), a.begin() + 200);
  strix::text_index<space, I> ts(space(), shorter.data(), shorter.size());
  CHECK_THROWS_WITH_AS(strix::search_hamming(ta.fm_index(), ts.fm_index(), read.data(), offsets, 1, 1),
                       doctest::Contains("not of the same text reversed"), strix::error);
  CHECK_THROWS_WITH_AS(strix::search_hamming(ta.fm_index(), ta.fm_index(), read.data(), offsets, 1, 7),
                       doctest::Contains("at most 6 errors"), strix::error);
  // More searches than a deferred chain can name (each a copy of a lossless scheme's first).
  auto many = strix::approximate::default_scheme(1);
  while (many.searches.size() < 128) many.searches.push_back(many.searches[0]);
  CHECK_THROWS_WITH_AS(strix::search_approximate(ta.fm_index(), ta.fm_index(), read.data(), offsets, 1, many,
                                                 strix::approximate::metric::hamming),
                       doctest::Contains("at most 127 searches"), strix::error);
}
TEST_CASE_TEMPLATE_APPLY(approximate_refusals, all_configs);

TEST_CASE_TEMPLATE_DEFINE("approximate search from a saved pair: the reverse part round-trips, its absence is named", C,
                          approximate_saved) {
  using space = typename C::space;
  using I = typename C::index;
  const bytes text = dna_with_n(3000, 11);
  const bytes reversed(text.rbegin(), text.rend());
  strix::text_index<space, I> tf(space(), text.data(), text.size()), tr(space(), reversed.data(), reversed.size());
  const auto& forward = tf.fm_index();
  const auto& reverse = tr.fm_index();
  const std::string both = "/tmp/strix_test_approx_" + std::to_string(::getpid()) + "_both.idx";
  const std::string one = "/tmp/strix_test_approx_" + std::to_string(::getpid()) + "_one.idx";
  strix::io::write_file(both, [&](const strix::io::container_writer::sink& out) {
    strix::save_fm_index(forward, nullptr, out, 0, &reverse);
  });
  strix::save_fm_index(forward, nullptr, one);
  const auto reads = reads_for(text, 2, 5);
  const batch b(reads);
  const auto want = strix::search_hamming(forward, reverse, b.all.data(), b.offsets.data(), reads.size(), 2);
  {
    strix::io::container_reader file(both, strix::fm_index_file_kind, strix::fm_index_file_version);
    CHECK(strix::fm_index_file_has_reverse(file));
    const auto f = strix::load_fm_index<space, I>(space(), file);
    const auto r = strix::load_fm_index_reverse<space, I>(space(), file);
    const auto got = strix::search_hamming(f, r, b.all.data(), b.offsets.data(), reads.size(), 2);
    CHECK(got.starts == want.starts);
    CHECK(got.positions == want.positions);
    CHECK(got.distances == want.distances);
    CHECK(f.count("ACGT") == forward.count("ACGT"));
  }
  {
    strix::io::container_reader file(one, strix::fm_index_file_kind, strix::fm_index_file_version);
    CHECK_FALSE(strix::fm_index_file_has_reverse(file));
    const auto load_reverse = [&] { return strix::load_fm_index_reverse<space, I>(space(), file); };
    CHECK_THROWS_WITH_AS(load_reverse(), doctest::Contains("no reverse part"),
                         strix::error);
  }
  std::remove(both.c_str());
  std::remove(one.c_str());
}
TEST_CASE_TEMPLATE_APPLY(approximate_saved, all_configs);

TEST_SUITE_END();
