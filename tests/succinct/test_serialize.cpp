// SPDX-License-Identifier: BSD-3-Clause
// Saved wavelet trees and matrices: a round trip answers like the original on every
// backend and width; truncated, corrupt and foreign files are invalid_input errors; a text
// streamed through the device in chunks gives the very same file.
#include <doctest/doctest.h>

#include <random>
#include <string>

#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet_matrix.hpp>
#include <strix/succinct/wavelet_tree.hpp>

#include "fixtures.hpp"
#include "test_support.hpp"
#include "wavelet_oracle.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("succinct");

namespace {

using file = std::vector<unsigned char>;

template <class W>
file save(const W& w) {
  file f;
  strix::save_wavelet(w, [&](const void* p, std::size_t n) {
    f.insert(f.end(), static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + n);
  });
  return f;
}

template <class W>
W load(const file& f) {
  std::size_t at = 0;
  strix::byte_reader read = [&](void* p, std::size_t n) {
    const std::size_t k = std::min(n, f.size() - at);
    if (k) std::memcpy(p, f.data() + at, k);  // an empty file has no data pointer
    at += k;
    return k;
  };
  const auto info = strix::read_wavelet_info(read);
  return strix::load_wavelet<W>(typename W::execution_space(), info, read);
}

template <class W>
void expect_invalid(const file& f, const std::string& what) {
  INFO(what);
  try {
    load<W>(f);
    FAIL("loaded a bad file");
  } catch (const strix::error& e) {
    CHECK(e.code() == strix::error_code::invalid_input);
  }
}

template <class W, class S>
void round_trip(const std::vector<S>& t) {
  using I = typename W::index_type;
  using M = typename W::memory_space;
  W w(typename W::execution_space(), to_view<M>(t));
  const file f = save(w);
  const W back = load<W>(f);
  CHECK(back.size() == w.size());
  CHECK(back.alphabet_size() == w.alphabet_size());
  const auto q = naive_wavelet_queries<S, I>(t, 5);
  std::vector<S> found(q.access_i.size());
  back.access(q.access_i.data(), found.size(), found.data());
  CHECK(found == q.access_want);
  std::vector<I> out(q.rank_i.size());
  back.rank(q.rank_c.data(), q.rank_i.data(), out.size(), out.data());
  CHECK(out == q.rank_want);
  std::vector<I> sel(q.select_k.size());
  back.select(q.select_c.data(), q.select_k.data(), sel.size(), sel.data());
  CHECK(sel == q.select_want);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("serialize: round trips answer like the original", C, ser_round) {
  using I = typename C::index;
  using sp = typename C::space;
  std::mt19937_64 rng(4);
  for (std::uint64_t sigma : {1, 2, 5, 26, 256}) {
    std::vector<std::uint8_t> t(3000);
    for (auto& c : t) c = static_cast<std::uint8_t>(rng() % sigma);
    round_trip<strix::wavelet_tree<sp, std::uint8_t, I>>(t);
    round_trip<strix::wavelet_matrix<sp, std::uint8_t, I>>(t);
  }
  std::vector<std::uint16_t> t16(2000);
  for (auto& c : t16) c = static_cast<std::uint16_t>(rng() % 3000);
  round_trip<strix::wavelet_tree<sp, std::uint16_t, I>>(t16);
  std::vector<std::uint32_t> t32(2000);
  for (auto& c : t32) c = static_cast<std::uint32_t>(rng());
  round_trip<strix::wavelet_matrix<sp, std::uint32_t, I>>(t32);
  round_trip<strix::wavelet_tree<sp, std::uint8_t, I>>(std::vector<std::uint8_t>());
}
TEST_CASE_TEMPLATE_APPLY(ser_round, all_configs);

TEST_CASE("serialize: truncated, corrupt and foreign files are errors") {
  using sp = first_space;
  using WT = strix::wavelet_tree<sp, std::uint8_t, std::uint32_t>;
  using WM = strix::wavelet_matrix<sp, std::uint8_t, std::uint32_t>;
  std::vector<std::uint8_t> t(5000);
  std::mt19937_64 rng(8);
  for (auto& c : t) c = static_cast<std::uint8_t>(rng() % 7);
  const file f = save(WT(sp(), to_view<first_memory>(t)));
  for (std::size_t cut : {std::size_t(0), std::size_t(5), std::size_t(63), std::size_t(64), std::size_t(100), f.size() - 1})
    expect_invalid<WT>(file(f.begin(), f.begin() + cut), "truncated at " + std::to_string(cut));
  file longer = f;
  longer.push_back(0);
  expect_invalid<WT>(longer, "a byte too many");
  for (std::size_t at : {std::size_t(3), std::size_t(9), std::size_t(17), std::size_t(30), std::size_t(70), f.size() / 2, f.size() - 3}) {
    file bad = f;
    bad[at] ^= 0x10;
    expect_invalid<WT>(bad, "bit flipped at " + std::to_string(at));
  }
  expect_invalid<WT>(file(1000, 'x'), "foreign file");
  expect_invalid<WM>(f, "a tree read as a matrix");
  expect_invalid<strix::wavelet_tree<sp, std::uint16_t, std::uint32_t>>(f, "8-bit symbols read as 16-bit");
}


// Files of the format-1 layout (STRIXWV), written by strix before the index container, still
// load: tests/succinct/data/v1_*.wt are the tree and the matrix of v1_text.txt.
TEST_CASE_TEMPLATE_DEFINE("serialize: format-1 wavelet files still load", C, ser_v1) {
  using I = typename C::index;
  using sp = typename C::space;
  const file text = strix_test::read_fixture("succinct/data/v1_text.txt");
  REQUIRE(text.size() == 62);
  auto check = [&](auto w) {
    std::vector<I> pos(text.size());
    for (std::size_t i = 0; i < pos.size(); ++i) pos[i] = I(i);
    std::vector<std::uint8_t> got(text.size());
    w.access(pos.data(), pos.size(), got.data());
    CHECK(file(got.begin(), got.end()) == text);
  };
  const file tree = strix_test::read_fixture("succinct/data/v1_tree.wt");
  const file matrix = strix_test::read_fixture("succinct/data/v1_matrix.wt");
  REQUIRE(std::string(tree.begin(), tree.begin() + 7) == "STRIXWV");
  check(load<strix::wavelet_tree<sp, std::uint8_t, I>>(tree));
  check(load<strix::wavelet_matrix<sp, std::uint8_t, I>>(matrix));
  // A saved file is a container now.
  const auto again = save(load<strix::wavelet_tree<sp, std::uint8_t, I>>(tree));
  CHECK(std::string(again.begin(), again.begin() + 8) == "STRIXIDX");
}
TEST_CASE_TEMPLATE_APPLY(ser_v1, all_configs);

namespace {

template <class W, class S>
void streamed_equals_whole(const std::vector<S>& t, std::uint64_t chunk) {
  INFO("n=" << t.size() << " chunk=" << chunk);
  const auto whole = W::from_host(typename W::execution_space(), t.data(), t.size());
  strix::wavelet_options o;
  o.build_chunk = chunk;
  const auto streamed = W::from_host(typename W::execution_space(), t.data(), t.size(), o);
  CHECK(save(streamed) == save(whole));
  // And it answers (its tables rebuilt from the same bits).
  using I = typename W::index_type;
  const auto q = naive_wavelet_queries<S, I>(t, 3);
  std::vector<I> sel(q.select_k.size());
  streamed.select(q.select_c.data(), q.select_k.data(), sel.size(), sel.data());
  CHECK(sel == q.select_want);
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("wavelet: a text streamed in chunks builds the same structure", C, streamed) {
  using I = typename C::index;
  using sp = typename C::space;
  std::mt19937_64 rng(12);
  for (std::uint64_t sigma : {2, 3, 6, 26, 256}) {
    std::vector<std::uint8_t> t(5000);
    for (auto& c : t) c = static_cast<std::uint8_t>(rng() % sigma);
    for (std::uint64_t chunk : {1000, 4999}) {
      streamed_equals_whole<strix::wavelet_tree<sp, std::uint8_t, I>>(t, chunk);
      streamed_equals_whole<strix::wavelet_matrix<sp, std::uint8_t, I>>(t, chunk);
    }
    const std::vector<std::uint8_t> head(t.begin(), t.begin() + 300);  // many tiny chunks
    streamed_equals_whole<strix::wavelet_tree<sp, std::uint8_t, I>>(head, 7);
    streamed_equals_whole<strix::wavelet_matrix<sp, std::uint8_t, I>>(head, 1);
  }
  std::vector<std::uint16_t> t16(3000);
  for (auto& c : t16) c = static_cast<std::uint16_t>(rng() % 700 * 31);
  streamed_equals_whole<strix::wavelet_tree<sp, std::uint16_t, I>>(t16, 512);
  streamed_equals_whole<strix::wavelet_matrix<sp, std::uint16_t, I>>(t16, 512);
  std::vector<std::uint32_t> t32(3000);
  for (auto& c : t32) c = static_cast<std::uint32_t>(rng() % 900) * 4000037u;
  streamed_equals_whole<strix::wavelet_tree<sp, std::uint32_t, I>>(t32, 333);
  streamed_equals_whole<strix::wavelet_matrix<sp, std::uint32_t, I>>(t32, 333);
}
TEST_CASE_TEMPLATE_APPLY(streamed, all_configs);

TEST_SUITE_END();
