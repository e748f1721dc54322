// SPDX-License-Identifier: BSD-3-Clause
// Search schemes: well formed and lossless by enumeration, and the checks catch schemes that
// are not.
#include <doctest/doctest.h>

#include <strix/approximate/bidirectional_ref.hpp>
#include <strix/approximate/search_scheme.hpp>

using namespace strix::approximate;

// (ctest runs the suite "approximate": a case outside every suite ran only on the device.)
TEST_SUITE_BEGIN("approximate");

TEST_CASE("search schemes: every scheme strix ships is well formed and lossless") {
  std::vector<search_scheme> schemes = {kucherov_scheme(1), kucherov_scheme(2)};
  for (int k = 1; k <= 4; ++k) schemes.push_back(kianfar_scheme(k));
  for (int k = 0; k <= 6; ++k) {
    schemes.push_back(pigeonhole_scheme(k));
    schemes.push_back(zero_one_zero_scheme(k));
  }
  for (int k = 0; k <= 4; ++k) schemes.push_back(default_scheme(k));
  for (const auto& s : schemes) {
    CAPTURE(s.name);
    CAPTURE(s.max_errors);
    CHECK(check_well_formed(s).empty());
    CHECK_FALSE(uncovered(s).has_value());
  }
  CHECK(pigeonhole_scheme(3).searches.size() == 4);
  CHECK(zero_one_zero_scheme(2).searches.size() == 6);  // pairs of 4 pieces
  CHECK(kucherov_scheme(2).searches.size() == 3);
  CHECK(kianfar_scheme(4).searches.size() == 3);
  CHECK(kianfar_scheme(4).pieces == 5);
  CHECK(scheme_named("kianfar", 3).name == "kianfar-3");
  CHECK(scheme_named("01*0", 5).pieces == 7);
  CHECK_THROWS_WITH_AS(scheme_named("kianfar", 5), doctest::Contains("k = 1 to 4"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(scheme_named("optimal", 2), doctest::Contains("no search scheme named 'optimal'"),
                       std::invalid_argument);
}

TEST_CASE("search schemes: a search missing, or bounds too tight, leaves a spread uncovered") {
  auto s = kucherov_scheme(2);
  s.searches.pop_back();  // the one for errors in the first and last piece
  const auto missed = uncovered(s);
  REQUIRE(missed.has_value());
  int sum = 0;
  for (int e : *missed) sum += e;
  CHECK(sum <= 2);
  for (const auto& x : s.searches) CHECK_FALSE(covers(x, *missed));

  auto tight = pigeonhole_scheme(2);
  tight.searches[1].upper.back() = 1;  // at most one error when the second piece is exact
  REQUIRE(uncovered(tight).has_value());
  // Only the second search allows errors in both outer pieces: one each is now missed.
  CHECK(*uncovered(tight) == std::vector<int>{1, 0, 1});
}

TEST_CASE("search schemes: malformed orders and bounds are named") {
  auto s = pigeonhole_scheme(2);
  s.searches[0].order = {0, 2, 1};  // piece 2 is not next to piece 0
  CHECK(check_well_formed(s).find("not next to") != std::string::npos);
  s = pigeonhole_scheme(2);
  s.searches[0].order = {0, 1, 1};
  CHECK(check_well_formed(s).find("permutation") != std::string::npos);
  s = pigeonhole_scheme(2);
  s.searches[0].lower = {0, 1, 0};
  CHECK(check_well_formed(s).find("decrease") != std::string::npos);
  s = pigeonhole_scheme(2);
  s.searches[0].upper = {0, 3, 3};
  CHECK(check_well_formed(s).find("out of order") != std::string::npos);
  s = pigeonhole_scheme(1);
  s.searches[0].upper.pop_back();
  CHECK(check_well_formed(s).find("one entry a piece") != std::string::npos);
}

TEST_CASE("search schemes: pieces cut a read as evenly as its length allows") {
  CHECK(piece_start(10, 3, 0) == 0);
  CHECK(piece_start(10, 3, 1) == 4);
  CHECK(piece_start(10, 3, 2) == 7);
  CHECK(piece_start(10, 3, 3) == 10);
  CHECK(piece_start(2, 4, 1) == 1);
  CHECK(piece_start(2, 4, 2) == 2);
  CHECK(piece_start(2, 4, 4) == 2);  // a read shorter than the pieces: empty pieces at the end
}

TEST_SUITE_END();
