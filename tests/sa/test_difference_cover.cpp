// SPDX-License-Identifier: BSD-3-Clause
// The difference-cover constructions (skew, hybrid, dcX): the covers, skew's recursion,
// lengths around multiples of the period, and the merge primitive they use.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <utility>
#include <vector>

#include <strix/primitives/merge.hpp>
#include <strix/sa/detail/difference_cover/cover.hpp>
#include <strix/sa/detail/difference_cover/piece_order.hpp>
#include <strix/sa/detail/memory_rule.hpp>
#include <strix/strix.hpp>

#include "sa_algorithms.hpp"
#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("sa");

namespace {

const unsigned periods[] = {3, 7, 13, 21};

// Orders by all bits but the lowest (a CUDA lambda may not use a function-local type).
struct high_less {
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint64_t x, std::uint64_t y) const { return (x >> 1) < (y >> 1); }
};

// merge_in_tiles' source: (key, origin) pairs in two views, the origin a's or b's index (b's
// with bit 31 set); only the key's high bits compare.
struct keyed_pair {
  std::uint64_t key;
  std::uint32_t origin;
};
template <class Space>
struct tiled_source {
  using value_type = keyed_pair;
  Kokkos::View<const std::uint64_t*, typename Space::memory_space> a_key, b_key;
  Kokkos::View<std::uint64_t*, typename Space::memory_space> out_key;
  Kokkos::View<std::uint32_t*, typename Space::memory_space> out_origin;
  KOKKOS_INLINE_FUNCTION value_type a(std::uint64_t i) const { return {a_key(i), std::uint32_t(i)}; }
  KOKKOS_INLINE_FUNCTION value_type b(std::uint64_t j) const { return {b_key(j), std::uint32_t(j) | (1u << 31)}; }
  KOKKOS_INLINE_FUNCTION bool b_before_a(const value_type& y, const value_type& x) const { return (y.key >> 1) < (x.key >> 1); }
  KOKKOS_INLINE_FUNCTION void store(std::uint64_t k, const value_type& v) const {
    out_key(k) = v.key;
    out_origin(k) = v.origin;
  }
};

// Sample positions of the period's cover take 'a'/'c', the others 'x'/'y' (random): the suffixes
// outside the cover sort after every sample suffix, in one stretch of the order that splitters
// drawn from the sample alone would leave in one bin (a review found this).
bytes classes_apart(std::size_t n, unsigned period) {
  const auto cover = strix::detail::make_difference_cover(period);
  std::mt19937_64 rng(period);
  bytes t(n);
  for (std::size_t i = 0; i < n; ++i) t[i] = cover.contains(i % period) ? "ac"[rng() % 2] : "xy"[rng() % 2];
  return t;
}

template <class C>
std::vector<typename C::index> dc_sa(const bytes& text, const strix::sa_options& options, strix::run_stats* stats) {
  using I = typename C::index;
  auto text_d = to_view<typename C::memory_space>(text);
  Kokkos::View<I*, typename C::memory_space> sa("sa", text.size());
  strix::fill(sa, I(777));
  strix::suffix_array(typename C::space(), text_d, sa, options, stats);
  return to_vector(sa);
}

std::vector<strix::sa_options> dc_algorithms() {
  using strix::sa_algorithm;
  std::vector<strix::sa_options> v{sa_with(sa_algorithm::skew), sa_with(sa_algorithm::hybrid)};
  for (unsigned x : periods) v.push_back(sa_with(sa_algorithm::dcx, x));
  return v;
}

}  // namespace

TEST_CASE("difference covers: every difference is covered, and only valid periods are made") {
  for (unsigned x : periods) {
    CAPTURE(x);
    const auto c = strix::detail::make_difference_cover(x);
    CHECK(c.valid());
    // Independently of valid(): every pair of residues meets the sample within X steps.
    for (unsigned a = 0; a < x; ++a)
      for (unsigned b = 0; b < x; ++b) {
        const unsigned l = c.common_offset(a, b);
        REQUIRE(l < x);
        CHECK(c.contains((a + l) % x));
        CHECK(c.contains((b + l) % x));
      }
    // Units and positions are inverse and order-preserving.
    std::uint64_t unit = 0;
    for (std::uint64_t p = 0; p < 5 * x; ++p) {
      if (!c.contains(p % x)) continue;
      CHECK(c.unit_of(p) == unit);
      CHECK(c.position_of(unit) == p);
      ++unit;
      CHECK(c.sample_below(p + 1) == unit);
    }
  }
  strix::detail::difference_cover broken = strix::detail::make_difference_cover(7);
  broken.mask &= ~(1u << 4);
  broken.size = 2;
  CHECK(!broken.valid());
  for (unsigned bad : {0u, 1u, 2u, 4u, 5u, 57u})
    CHECK_THROWS_AS(strix::detail::make_difference_cover(bad), strix::error);
  try {
    strix::sa_options o = sa_with(strix::sa_algorithm::dcx, 5);
    Kokkos::View<std::uint8_t*, first_memory> t("t", 4);
    Kokkos::View<std::uint32_t*, first_memory> sa("sa", 4);
    strix::suffix_array(first_space(), t, sa, o);
    FAIL("dc5 was accepted");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
    CHECK(std::string(e.what()).find("dc13") != std::string::npos);
  }
}

TEST_CASE("difference covers in pieces: the classes outside the cover in the fewest groups that share an offset") {
  // (X = 21: four groups of four classes, so the merge starts from 5 runs, not 17.)
  const std::pair<unsigned, unsigned> fewest[] = {{3, 1}, {7, 2}, {13, 3}, {21, 4}};
  for (const auto& [x, groups] : fewest) {
    CAPTURE(x);
    const auto c = strix::detail::make_difference_cover(x);
    const strix::detail::cover_runs runs(c);
    CHECK(runs.count == groups + 1);
    CHECK(runs.sample == groups);
    std::vector<unsigned> sizes(runs.count, 0);
    for (unsigned r = 0; r < x; ++r) {
      CAPTURE(r);
      REQUIRE(runs.of[r] < runs.count);
      ++sizes[runs.of[r]];
      if (c.contains(r)) {
        CHECK(runs.of[r] == runs.sample);
        continue;
      }
      // The group's offset takes every class in it into the cover.
      const unsigned l = runs.offset_of[runs.of[r]];
      CHECK(l >= 1);
      CHECK(l < x);
      CHECK(c.contains((r + l) % x));
    }
    CHECK(sizes[runs.sample] == c.size);
    // As even as the fewest groups allow.
    const unsigned outside = x - c.size;
    for (unsigned g = 0; g < groups; ++g) CHECK(sizes[g] == (outside + groups - 1) / groups);
  }
}

TEST_CASE("merge primitive: matches std::merge, stable on ties") {
  using space = Kokkos::DefaultExecutionSpace;
  std::mt19937_64 rng(5);
  for (std::size_t na : {0, 1, 7, 100, 5000, 20000})
    for (std::size_t nb : {0, 1, 9, 3000, 20011}) {
      // Values carry their origin in the low bit; the comparator sees only the high bits,
      // so ties must put a's elements first.
      std::vector<std::uint64_t> a(na), b(nb);
      for (auto& v : a) v = (rng() % 50) << 1;
      for (auto& v : b) v = ((rng() % 50) << 1) | 1;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::vector<std::uint64_t> expected(na + nb);
      auto less = [](std::uint64_t x, std::uint64_t y) { return (x >> 1) < (y >> 1); };
      std::merge(a.begin(), a.end(), b.begin(), b.end(), expected.begin(), less);
      auto ad = to_view<space::memory_space>(a);
      auto bd = to_view<space::memory_space>(b);
      Kokkos::View<std::uint64_t*, space::memory_space> out("out", na + nb);
      strix::primitives::merge(space(), strix::device_view<const std::uint64_t, space>(ad.data(), na),
                               strix::device_view<const std::uint64_t, space>(bd.data(), nb),
                               strix::device_view<std::uint64_t, space>(out.data(), na + nb), high_less{});
      CAPTURE(na);
      CAPTURE(nb);
      CHECK(to_vector(out) == expected);
    }
}

TEST_CASE("tiled merge primitive: matches std::merge, stable on ties, at every tile shape") {
  using space = Kokkos::DefaultExecutionSpace;
  using memory = space::memory_space;
  std::mt19937_64 rng(11);
  // Team sizes the space runs (host teams of one thread and of up to 4; GPU teams as the
  // library's and narrower), outputs a thread from 1 to the most, out-of-range counts taking the
  // most; run lengths around the tiles' edges and across many.
  std::vector<int> teams{128, 32};
  if (strix::is_host_space_v<space>) {
    teams = {1};
    if (space().concurrency() > 1) teams.push_back(std::min(4, space().concurrency()));
  }
  for (const int threads : teams)
    for (const int per_thread : {1, 3, 8, 0})
      for (std::size_t na : {0, 1, 127, 1024, 5000})
        for (std::size_t nb : {0, 2, 1023, 1025, 9001}) {
          std::vector<std::uint64_t> a(na), b(nb);
          // Few distinct keys (long ties across tiles) for half the shapes, many for the rest.
          const std::uint64_t spread = (na + nb) % 2 ? 7 : 100000;
          for (auto& v : a) v = (rng() % spread) << 1;
          for (auto& v : b) v = ((rng() % spread) << 1) | 1;
          std::sort(a.begin(), a.end());
          std::sort(b.begin(), b.end());
          // The expected merge of (key, origin) pairs: stable, a's first on equal keys.
          std::vector<std::pair<std::uint64_t, std::uint32_t>> ta(na), tb(nb), merged(na + nb);
          for (std::size_t i = 0; i < na; ++i) ta[i] = {a[i], std::uint32_t(i)};
          for (std::size_t j = 0; j < nb; ++j) tb[j] = {b[j], std::uint32_t(j) | (1u << 31)};
          std::merge(ta.begin(), ta.end(), tb.begin(), tb.end(), merged.begin(),
                     [](const auto& x, const auto& y) { return (x.first >> 1) < (y.first >> 1); });
          std::vector<std::uint64_t> expected(na + nb);
          std::vector<std::uint32_t> expected_origin(na + nb);
          for (std::size_t k = 0; k < merged.size(); ++k) std::tie(expected[k], expected_origin[k]) = merged[k];
          auto ad = to_view<memory>(a);
          auto bd = to_view<memory>(b);
          Kokkos::View<std::uint64_t*, memory> key("key", na + nb);
          Kokkos::View<std::uint32_t*, memory> origin("origin", na + nb);
          const tiled_source<space> src{ad, bd, key, origin};
          strix::primitives::merge_in_tiles(space(), na, nb, src, threads, per_thread);
          CAPTURE(threads);
          CAPTURE(per_thread);
          CAPTURE(na);
          CAPTURE(nb);
          CHECK(to_vector(key) == expected);
          CHECK(to_vector(origin) == expected_origin);  // every element once, in its stable place
          if (threads == teams.front() && per_thread == 8) {  // the dispatching entry point too
            Kokkos::deep_copy(key, 0);
            Kokkos::deep_copy(origin, 0);
            strix::primitives::merge_tiled(space(), na, nb, src);
            CHECK(to_vector(key) == expected);
            CHECK(to_vector(origin) == expected_origin);
          }
        }
}

TEST_CASE_TEMPLATE_DEFINE("skew: deep recursion on repetitive texts", C, skew_depth) {
  using I = typename C::index;
  const std::vector<std::pair<std::string, bytes>> inputs{
      {"all equal", bytes(3000, 'a')},
      {"all 0x00", bytes(2000, 0)},
      {"all 0xFF", bytes(2000, 0xFF)},
      {"fibonacci", fibonacci_word(5000)},
      {"period 2", periodic(4000, "ab")},
      {"period 3", periodic(4000, "abc")},
      {"period 7", periodic(4001, "abcabca")},
      {"period 13", periodic(3999, "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d")},
  };
  for (const auto& input : inputs) {
    CAPTURE(input.first);
    strix::run_stats stats;
    CHECK(dc_sa<C>(input.second, sa_with(strix::sa_algorithm::skew), &stats) == naive_suffix_array<I>(input.second));
    CHECK(stats.counter("recursion_depth") > 3);
    CHECK(stats.counter("sample") == strix::detail::make_difference_cover(3).sample_below(input.second.size()));
    // hybrid ranks the same sample by doubling instead: several rounds, no recursion.
    strix::run_stats hybrid_stats;
    CHECK(dc_sa<C>(input.second, sa_with(strix::sa_algorithm::hybrid), &hybrid_stats) == naive_suffix_array<I>(input.second));
    CHECK(hybrid_stats.counter("rounds") > 1);
    CHECK(hybrid_stats.counter("recursion_depth") == 0);
  }
  // A random text's names are unique at once: no recursion.
  strix::run_stats stats;
  const auto text = random_text(1000, 256, 3);
  CHECK(dc_sa<C>(text, sa_with(strix::sa_algorithm::skew), &stats) == naive_suffix_array<I>(text));
  CHECK(stats.counter("recursion_depth") == 0);
}
TEST_CASE_TEMPLATE_APPLY(skew_depth, all_configs);

TEST_CASE_TEMPLATE_DEFINE("difference covers: lengths around multiples of the period, and tiny texts", C, dc_lengths) {
  using I = typename C::index;
  std::uint64_t seed = 11;
  for (const auto& options : dc_algorithms()) {
    const auto algorithm = strix::algorithm_name(options);
    CAPTURE(algorithm);
    const unsigned x = options.algorithm == strix::sa_algorithm::dcx ? options.dcx_period : 3;
    std::vector<std::size_t> lengths;
    for (std::size_t n = 0; n <= 40; ++n) lengths.push_back(n);
    for (std::size_t k : {5, 17, 64})
      for (std::size_t d : {x * k - 1, x * k, x * k + 1}) lengths.push_back(d);
    for (std::size_t n : lengths) {
      CAPTURE(n);
      for (unsigned sigma : {1u, 2u, 3u, 256u}) {
        CAPTURE(sigma);
        const auto text = random_text(n, sigma, seed++, sigma == 256 ? 0 : 0xFE);
        strix::run_stats stats;
        CHECK(dc_sa<C>(text, options, &stats) == naive_suffix_array<I>(text));
        if (n > 1) CHECK(stats.counter("sample") == strix::detail::make_difference_cover(x).sample_below(n));
      }
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(dc_lengths, all_configs);

TEST_CASE_TEMPLATE_DEFINE("difference covers: wide alphabets need several key words", C, dc_alphabets) {
  using I = typename C::index;
  // 256 symbols take 9 bits: 13 and 21 symbols do not fit one 64-bit key; runs of one
  // symbol with rare breaks make the sample's names repeat and the doubling run long.
  std::mt19937_64 rng(7);
  for (const auto& options : dc_algorithms()) {
    const auto algorithm = strix::algorithm_name(options);
    CAPTURE(algorithm);
    for (std::size_t n : {999u, 4096u, 10007u}) {
      bytes text(n);
      for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<std::uint8_t>(rng() % 97 == 0 ? rng() : (i / 50) % 256);
      CAPTURE(n);
      CHECK(dc_sa<C>(text, options, nullptr) == divsufsort_suffix_array<I>(text));
      const auto blocks = periodic(n, std::string("\x00\xff\x80\x01\x00\xff\x80\x02\x00\xff\x80\x01\x7f", 13));
      CHECK(dc_sa<C>(blocks, options, nullptr) == divsufsort_suffix_array<I>(blocks));
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(dc_alphabets, all_configs);

TEST_CASE_TEMPLATE_DEFINE("difference covers in pieces: every bin plan, hard texts, overflowing bins", C, dc_pieces) {
  using I = typename C::index;
  // About 2 and 9 pieces of hard texts, some longer than the splitters' sample (4096); pieces of
  // one and three rows on short texts, whose bins then hold more than a piece (each such piece
  // takes a buffer of its own).
  const std::vector<std::pair<std::string, bytes>> inputs{
      {"all equal", bytes(5000, 'a')},
      {"all 0x00", bytes(3001, 0)},
      {"all 0xFF", bytes(3001, 0xFF)},
      {"fibonacci", fibonacci_word(7000)},
      {"period 2", periodic(4000, "ab")},
      {"period 7", periodic(4001, "abcabca")},
      {"period 21", periodic(4200, "abcdefghijklmnopqrstu")},
      {"dna", random_text(30011, 4, 5)},
      {"bytes", random_text(12289, 256, 6)},
      {"binary runs", random_text(9000, 2, 7, 0xFE)},
      {"classes apart", classes_apart(21000, 21)},
      {"classes apart 7", classes_apart(7000, 7)},
  };
  const std::vector<std::pair<std::string, bytes>> short_inputs{
      {"all equal", bytes(90, 'a')}, {"period 3", periodic(77, "abc")}, {"random", random_text(120, 3, 8)}};
  for (unsigned x : periods) {
    strix::sa_options o = sa_with(x == 3 ? strix::sa_algorithm::hybrid : strix::sa_algorithm::dcx, x);
    const auto run = [&](const std::pair<std::string, bytes>& input, std::uint64_t rows) {
      CAPTURE(x);
      CAPTURE(rows);
      CAPTURE(input.first);
      o.dc_piece_rows = rows;
      strix::run_stats stats;
      CHECK(dc_sa<C>(input.second, o, &stats) == divsufsort_suffix_array<I>(input.second));
      CHECK(stats.counter("pieces") > 1);
    };
    for (const auto& input : inputs)
      for (std::uint64_t share : {2u, 9u}) run(input, input.second.size() / share + 1);
    for (const auto& input : short_inputs)
      for (std::uint64_t rows : {1u, 3u}) run(input, rows);
  }
}
TEST_CASE_TEMPLATE_APPLY(dc_pieces, all_configs);

TEST_CASE_TEMPLATE_DEFINE("dc21 in pieces: a 32-bit suffix array in at most 16n bytes", C, dc_lean_peak) {
  using I = typename C::index;
  if (sizeof(I) != 4) return;
  const std::size_t n = std::size_t(1) << 21;
  for (const auto& text : {random_text(n, 4, 9), classes_apart(n, 21)}) {
    strix::run_stats stats;
    CHECK(dc_sa<C>(text, sa_with(strix::sa_algorithm::dcx, 21), &stats) == divsufsort_suffix_array<I>(text));
    CHECK(stats.counter("pieces") > 1);
    CAPTURE(stats.peak_bytes);
    CHECK(stats.peak_bytes <= 16 * n);
  }
}
TEST_CASE_TEMPLATE_APPLY(dc_lean_peak, all_configs);

TEST_CASE("auto under a memory bound: the fastest difference cover that fits") {
  using strix::detail::fit_to_memory;
  const std::uint64_t n = std::uint64_t(4) << 30;
  const strix::sa_options pd = sa_with(strix::sa_algorithm::prefix_doubling);
  const auto gb = [](double x) { return std::uint64_t(x * 1e9); };
  // Free memory unknown (host backends) or plenty: the pick stands.
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, 0, true)) == "prefix-doubling");
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(200), true)) == "prefix-doubling");
  // 4.3 GB of text with 32-bit entries on an H200 (~150 GB free): dc7's ~20n fits, 39n does not.
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(150), true)) == "dc7");
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(75), true)) == "dc13");
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(60), true)) == "dc21");
  // Too little for anything: dc21 (which then fails with a typed out-of-memory error).
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(10), true)) == "dc21");
  // 8·10^9 bytes with 64-bit entries on an H200: dc21 only (about 17n).
  CHECK(strix::algorithm_name(fit_to_memory(pd, 8000000000ull, 8, gb(149), true)) == "dc21");
  // 1.2·10^10 bytes, 64-bit, plenty of memory: dc7's sample (5.1·10^9 units) overflows 32-bit
  // entries, dc13's (3.7·10^9) does not.
  CHECK(strix::algorithm_name(fit_to_memory(pd, 12000000000ull, 8, gb(400), true)) == "dc13");
  // A suffix array already allocated (a build) is not counted again.
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(165), false)) == "prefix-doubling");
  CHECK(strix::algorithm_name(fit_to_memory(pd, n, 4, gb(165), true)) == "dc7");
}

TEST_SUITE_END();
