// SPDX-License-Identifier: BSD-3-Clause
// BWT against libdivsufsort's divbwt, its inverse, and the suffix-array checker.
#include <doctest/doctest.h>

#include <strix/strix.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("bwt");

namespace {

template <class C>
std::pair<bytes, std::uint64_t> strix_bwt(const bytes& text) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  auto text_d = to_view<mem>(text);
  Kokkos::View<I*, mem> sa("sa", text.size());
  Kokkos::View<std::uint8_t*, mem> out("bwt", text.size());
  strix::suffix_array(typename C::space(), text_d, sa);
  const std::uint64_t primary = strix::bwt(typename C::space(), text_d, sa, out);
  return {to_vector(out), primary};
}

template <class C>
strix::sa_check_result check(const bytes& text, const std::vector<typename C::index>& sa) {
  using mem = typename C::memory_space;
  return strix::check_suffix_array(typename C::space(), to_view<mem>(text), to_view<mem>(sa));
}

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("bwt matches divbwt and inverts", C, bwt_divbwt) {
  auto inputs = hard_inputs();
  inputs.push_back({"random 1 MB", random_text(1 << 20, 5, 3)});
  for (const auto& input : inputs) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto [out, primary] = strix_bwt<C>(text);
    const auto [ref, ref_primary] = divbwt_of(text);
    CHECK(out == ref);
    CHECK(primary == ref_primary);
    CHECK(strix::inverse_bwt(out.data(), out.size(), primary) == text);
  }
}
TEST_CASE_TEMPLATE_APPLY(bwt_divbwt, all_configs);

TEST_CASE_TEMPLATE_DEFINE("checker accepts correct and rejects planted errors", C, checker) {
  using I = typename C::index;
  for (const auto& input : hard_inputs()) {
    const auto& name = input.first;
    const auto& text = input.second;
    CAPTURE(name);
    const auto sa = naive_suffix_array<I>(text);
    CHECK(check<C>(text, sa).ok);
    if (text.size() < 2) continue;
    // Swap of two neighbours, and of two far-apart entries.
    auto swapped = sa;
    std::swap(swapped[text.size() / 2 - 1], swapped[text.size() / 2]);
    CHECK_FALSE(check<C>(text, swapped).ok);
    auto far = sa;
    std::swap(far.front(), far.back());
    CHECK_FALSE(check<C>(text, far).ok);
    // A duplicate (one suffix missing) and an out-of-range value.
    auto dup = sa;
    dup[text.size() - 1] = dup[0];
    const auto r = check<C>(text, dup);
    CHECK_FALSE(r.ok);
    CHECK(r.message.find("duplicate") != std::string::npos);
    auto out_of_range = sa;
    out_of_range[1] = static_cast<I>(text.size());
    CHECK(check<C>(text, out_of_range).message.find("out-of-range") != std::string::npos);
  }
  // Wrong length.
  const auto text = from_string("abracadabra");
  auto sa = naive_suffix_array<I>(text);
  sa.pop_back();
  CHECK_FALSE(check<C>(text, sa).ok);
}
TEST_CASE_TEMPLATE_APPLY(checker, all_configs);

TEST_CASE_TEMPLATE_DEFINE("checker on a large text", C, checker_large) {
  using I = typename C::index;
  const auto text = random_text(3'000'000, 4, 21);
  auto sa = divsufsort_suffix_array<I>(text);
  CHECK(check<C>(text, sa).ok);
  std::swap(sa[1'000'000], sa[2'000'000]);
  CHECK_FALSE(check<C>(text, sa).ok);
}
TEST_CASE_TEMPLATE_APPLY(checker_large, all_configs);

TEST_SUITE_END();
