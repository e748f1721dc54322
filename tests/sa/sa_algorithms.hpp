// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The suffix-array algorithms every construction test runs, on every backend.
// STRIX_TEST_SA_ALGORITHMS="auto,skew,dc7" (the tool's names) narrows them, e.g. for the
// sanitizer build in CI, which runs several times slower.
#include <strix/strix.hpp>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace strix_test {

inline strix::sa_options sa_with(strix::sa_algorithm a, unsigned period = 7) {
  strix::sa_options o;
  o.algorithm = a;
  o.dcx_period = period;
  return o;
}

template <class Space>
std::vector<strix::sa_options> sa_algorithms_under_test() {
  using strix::sa_algorithm;
  std::vector<strix::sa_options> v{sa_with(sa_algorithm::automatic), sa_with(sa_algorithm::prefix_doubling),
                                   sa_with(sa_algorithm::larsson_sadakane),
                                   sa_with(sa_algorithm::skew),      sa_with(sa_algorithm::hybrid),
                                   sa_with(sa_algorithm::dcx, 7),    sa_with(sa_algorithm::dcx, 13),
                                   sa_with(sa_algorithm::dcx, 21)};
  if (strix::sa_algorithm_available<Space>(sa_algorithm::divsufsort)) v.push_back(sa_with(sa_algorithm::divsufsort));
  if (strix::sa_algorithm_available<Space>(sa_algorithm::sais)) v.push_back(sa_with(sa_algorithm::sais));
  if (const char* only = std::getenv("STRIX_TEST_SA_ALGORITHMS")) {
    std::vector<strix::sa_options> kept;
    std::stringstream names(only);
    for (std::string name; std::getline(names, name, ',');)
      for (const auto& o : v)
        if (strix::algorithm_name(o) == name) kept.push_back(o);
    return kept;
  }
  return v;
}

}  // namespace strix_test
