// SPDX-License-Identifier: BSD-3-Clause
#include <strix/approximate/search_scheme.hpp>

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace strix::approximate {

std::string check_well_formed(const search_scheme& scheme) {
  const int p = scheme.pieces;
  if (p < 1) return "a scheme needs at least one piece";
  if (scheme.searches.empty()) return "a scheme needs at least one search";
  for (std::size_t s = 0; s < scheme.searches.size(); ++s) {
    const auto& x = scheme.searches[s];
    const std::string at = "search " + std::to_string(s) + ": ";
    if (int(x.order.size()) != p || int(x.lower.size()) != p || int(x.upper.size()) != p)
      return at + "order and bounds need one entry a piece";
    std::vector<char> seen(p, 0);
    int low = x.order[0], high = x.order[0];
    for (int i = 0; i < p; ++i) {
      const int piece = x.order[i];
      if (piece < 0 || piece >= p || seen[piece]) return at + "the order is not a permutation of the pieces";
      seen[piece] = 1;
      if (i > 0) {
        // A bidirectional search extends its run of pieces by one on the left or the right.
        if (piece == low - 1) low = piece;
        else if (piece == high + 1) high = piece;
        else return at + "piece " + std::to_string(piece) + " is not next to the pieces visited before it";
      }
      if (x.lower[i] > x.upper[i] || x.upper[i] > scheme.max_errors || x.lower[i] < 0)
        return at + "bounds out of order at step " + std::to_string(i);
      if (i > 0 && (x.lower[i] < x.lower[i - 1] || x.upper[i] < x.upper[i - 1]))
        return at + "bounds decrease at step " + std::to_string(i);
    }
  }
  return {};
}

bool covers(const search& s, const std::vector<int>& errors) {
  int sum = 0;
  for (std::size_t i = 0; i < s.order.size(); ++i) {
    sum += errors[s.order[i]];
    if (sum < s.lower[i] || sum > s.upper[i]) return false;
  }
  return true;
}

std::optional<std::vector<int>> uncovered(const search_scheme& scheme) {
  std::vector<int> errors(scheme.pieces, 0);
  std::optional<std::vector<int>> missed;
  // Every spread of at most max_errors errors, piece by piece.
  std::function<void(int, int)> spread = [&](int piece, int left) {
    if (missed) return;
    if (piece == scheme.pieces) {
      if (std::none_of(scheme.searches.begin(), scheme.searches.end(), [&](const search& s) { return covers(s, errors); }))
        missed = errors;
      return;
    }
    for (int e = 0; e <= left; ++e) {
      errors[piece] = e;
      spread(piece + 1, left - e);
    }
    errors[piece] = 0;
  };
  spread(0, scheme.max_errors);
  return missed;
}

namespace {

// The order that visits the pieces from `first` to the last one, then those before `first`
// right to left.
std::vector<int> outward_order(int pieces, int first) {
  std::vector<int> order;
  for (int q = first; q < pieces; ++q) order.push_back(q);
  for (int q = first - 1; q >= 0; --q) order.push_back(q);
  return order;
}

}  // namespace

search_scheme pigeonhole_scheme(int k) {
  if (k < 0) throw std::invalid_argument("pigeonhole_scheme: k < 0");
  search_scheme scheme{"pigeonhole", k, k + 1, {}};
  for (int i = 0; i <= k; ++i) {
    search s{outward_order(k + 1, i), std::vector<int>(k + 1, 0), std::vector<int>(k + 1, k)};
    s.upper[0] = 0;
    scheme.searches.push_back(s);
  }
  return scheme;
}

search_scheme zero_one_zero_scheme(int k) {
  if (k < 0) throw std::invalid_argument("zero_one_zero_scheme: k < 0");
  const int p = k + 2;
  search_scheme scheme{"01*0", k, p, {}};
  for (int i = 0; i < p; ++i)
    for (int j = i + 1; j < p && j - i - 1 <= k; ++j) {
      search s{outward_order(p, i), std::vector<int>(p, 0), std::vector<int>(p, 0)};
      const int between = j - i - 1;
      // Steps 0..j-i visit pieces i..j: t errors after piece i + t, none in piece j.
      for (int t = 0; t < p; ++t) {
        if (t <= j - i) {
          const int e = std::min(t, between);
          s.lower[t] = s.upper[t] = e;
        } else {
          s.lower[t] = between;
          s.upper[t] = k;
        }
      }
      scheme.searches.push_back(s);
    }
  return scheme;
}

search_scheme kucherov_scheme(int k) {
  if (k == 1) return {"kucherov-1", 1, 2, {{{0, 1}, {0, 0}, {0, 1}}, {{1, 0}, {0, 1}, {0, 1}}}};
  if (k == 2)
    return {"kucherov-2", 2, 3,
            {{{0, 1, 2}, {0, 0, 0}, {0, 2, 2}}, {{2, 1, 0}, {0, 0, 0}, {0, 1, 2}}, {{1, 0, 2}, {0, 0, 1}, {0, 1, 2}}}};
  throw std::invalid_argument("kucherov_scheme: published for k = 1 and 2 only");
}

search_scheme kianfar_scheme(int k) {
  // Kianfar, Pockrandt, Torkamandi, Luo and Reinert (2018), Table 1's optimum schemes, with
  // pieces numbered from 0.
  if (k == 1) return {"kianfar-1", 1, 2, {{{0, 1}, {0, 0}, {0, 1}}, {{1, 0}, {0, 1}, {0, 1}}}};
  if (k == 2)
    return {"kianfar-2", 2, 3,
            {{{0, 1, 2}, {0, 0, 2}, {0, 1, 2}}, {{2, 1, 0}, {0, 0, 0}, {0, 2, 2}}, {{1, 2, 0}, {0, 1, 1}, {0, 1, 2}}}};
  if (k == 3)
    return {"kianfar-3",
            3,
            4,
            {{{0, 1, 2, 3}, {0, 0, 0, 3}, {0, 2, 3, 3}},
             {{1, 2, 3, 0}, {0, 0, 0, 0}, {1, 2, 3, 3}},
             {{2, 3, 1, 0}, {0, 0, 2, 2}, {0, 0, 3, 3}}}};
  if (k == 4)
    return {"kianfar-4",
            4,
            5,
            {{{0, 1, 2, 3, 4}, {0, 0, 0, 0, 4}, {0, 3, 3, 4, 4}},
             {{1, 2, 3, 4, 0}, {0, 0, 0, 0, 0}, {2, 2, 3, 3, 4}},
             {{4, 3, 2, 1, 0}, {0, 0, 0, 3, 3}, {0, 0, 4, 4, 4}}}};
  throw std::invalid_argument("kianfar_scheme: published for k = 1 to 4 only");
}

search_scheme scheme_named(const std::string& name, int k) {
  if (name == "default") return default_scheme(k);
  if (name == "kucherov") return kucherov_scheme(k);
  if (name == "kianfar") return kianfar_scheme(k);
  if (name == "01*0") return zero_one_zero_scheme(k);
  if (name == "pigeonhole") return pigeonhole_scheme(k);
  throw std::invalid_argument("no search scheme named '" + name + "' (default, kucherov, kianfar, 01*0, pigeonhole)");
}

search_scheme default_scheme(int k) {
  if (k == 0) return pigeonhole_scheme(0);
  if (k <= 2) return kucherov_scheme(k);
  return zero_one_zero_scheme(k);
}

}  // namespace strix::approximate
