// SPDX-License-Identifier: BSD-3-Clause
// The primitives on every backend, through the dispatch (vendor overloads where enabled)
// and through the portable defaults, against std::stable_sort, std::sort, std::partial_sum.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

#include <strix/primitives/histogram.hpp>
#include <strix/primitives/radix_sort.hpp>
#include <strix/primitives/scan.hpp>
#include <strix/primitives/segmented_sort.hpp>

#include "test_support.hpp"

using namespace strix_test;

TEST_SUITE_BEGIN("primitives");

namespace {

// Runs f(std::false_type) through the dispatch and f(std::true_type) through the portable
// default. Where CUB serves a space, its portable defaults are not run (they are on every
// space of a STRIX_VENDOR_PRIMITIVES=OFF build).
template <class S, class F>
void for_each_path(F&& f) {
  f(std::false_type{});
  if constexpr (!strix::primitives::vendor_available_v<strix::primitives::primitive::scan, S>) f(std::true_type{});
}

template <class T>
std::vector<T> random_words(std::size_t n, std::uint64_t seed, std::uint64_t modulo = 0) {
  std::mt19937_64 rng(seed);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(modulo ? rng() % modulo : rng());
  return v;
}

template <class T, class S>
strix::device_view<T, S> unmanaged(const Kokkos::View<T*, typename S::memory_space>& v) {
  return strix::device_view<T, S>(v.data(), v.extent(0));
}

// Sorts with the dispatched (vendor) or the portable radix sort; returns (keys, values).
template <class C, bool Portable, class K, class V>
std::pair<std::vector<K>, std::vector<V>> device_radix_sort(const std::vector<K>& keys,
                                                             const std::vector<V>& vals,
                                                             int begin_bit, int end_bit) {
  using S = typename C::space;
  using mem = typename C::memory_space;
  S space;
  strix::primitives::workspace<S> ws;
  auto k = to_view<mem>(keys);
  auto v = to_view<mem>(vals);
  Kokkos::View<K*, mem> ka("ka", keys.size());
  Kokkos::View<V*, mem> va("va", vals.size());
  bool swapped;
  if constexpr (Portable)
    swapped = strix::primitives::portable::radix_sort_pairs(space, ws, unmanaged<K, S>(k), unmanaged<K, S>(ka),
                                                            unmanaged<V, S>(v), unmanaged<V, S>(va), begin_bit, end_bit);
  else
    swapped = strix::primitives::radix_sort_pairs(space, ws, unmanaged<K, S>(k), unmanaged<K, S>(ka),
                                                  unmanaged<V, S>(v), unmanaged<V, S>(va), begin_bit, end_bit);
  return swapped ? std::make_pair(to_vector(ka), to_vector(va)) : std::make_pair(to_vector(k), to_vector(v));
}

template <class K, class V>
std::pair<std::vector<K>, std::vector<V>> reference_radix_sort(const std::vector<K>& keys,
                                                                const std::vector<V>& vals,
                                                                int begin_bit, int end_bit) {
  const int width = end_bit - begin_bit;
  const K mask = width >= int(8 * sizeof(K)) ? ~K(0) : static_cast<K>((K(1) << width) - 1);
  std::vector<std::size_t> order(keys.size());
  std::iota(order.begin(), order.end(), std::size_t(0));
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return ((keys[a] >> begin_bit) & mask) < ((keys[b] >> begin_bit) & mask);
  });
  std::pair<std::vector<K>, std::vector<V>> out;
  for (auto i : order) {
    out.first.push_back(keys[i]);
    out.second.push_back(vals[i]);
  }
  return out;
}

template <class C, class K, bool Portable>
void check_radix_sort() {
  using V = typename C::index;
  struct shape {
    std::size_t n;
    int begin_bit, end_bit;
    std::uint64_t modulo;  // 0: the full key range
  };
  const int bits = int(8 * sizeof(K));
  const std::vector<shape> shapes = {
      {0, 0, bits, 0},         {1, 0, bits, 0},           {2, 0, bits, 0},
      {1000, 0, bits, 0},      {1023, 0, bits, 1},        {1024, 0, bits, 3},
      {1025, 0, bits, 0},      {16383, 0, bits, 256},     {16385, 8, bits - 8, 0},
      {70000, 0, bits, 0},     {70000, 3, 17, 0},         {200000, 0, 20, 1 << 20},
  };
  std::uint64_t seed = 1;
  for (const auto& s : shapes) {
    CAPTURE(s.n);
    CAPTURE(s.begin_bit);
    CAPTURE(s.end_bit);
    CAPTURE(s.modulo);
    const auto keys = random_words<K>(s.n, seed++, s.modulo);
    auto vals = random_words<V>(s.n, seed++);
    std::iota(vals.begin(), vals.end(), V(0));  // distinct values show stability
    const auto got = device_radix_sort<C, Portable>(keys, vals, s.begin_bit, s.end_bit);
    const auto want = reference_radix_sort(keys, vals, s.begin_bit, s.end_bit);
    CHECK(got.first == want.first);
    CHECK(got.second == want.second);
  }
}

// Segments as offsets over n = offsets.back() elements.
template <class C, bool Portable>
void check_segmented_sort() {
  using I = typename C::index;
  using S = typename C::space;
  using mem = typename C::memory_space;
  const std::vector<std::vector<std::size_t>> lengths = {
      {},
      {0},
      {1},
      {0, 0, 5, 0},
      {2, 3, 1, 1, 17, 64, 100, 255, 256, 257},
      {5000, 3, 4096, 4097, 1, 20000},
  };
  std::uint64_t seed = 11;
  for (const auto& segs : lengths) {
    std::vector<I> offsets{0};
    for (auto l : segs) offsets.push_back(static_cast<I>(offsets.back() + l));
    const std::size_t n = offsets.back();
    CAPTURE(n);
    CAPTURE(segs.size());
    auto keys = random_words<I>(n, seed++, seed % 2 ? 50 : 0);  // many equal keys, or none
    std::vector<I> vals(n);
    std::iota(vals.begin(), vals.end(), I(0));
    S space;
    strix::primitives::workspace<S> ws;
    auto k = to_view<mem>(keys);
    auto v = to_view<mem>(vals);
    auto o = to_view<mem>(offsets);
    Kokkos::View<I*, mem> ka("ka", n), va("va", n);
    const strix::device_view<const I, S> off(o.data(), o.extent(0));
    const int key_bits = int(8 * sizeof(I));
    bool swapped;
    if constexpr (Portable)
      swapped = strix::primitives::portable::segmented_sort_pairs(space, ws, unmanaged<I, S>(k), unmanaged<I, S>(ka),
                                                                  unmanaged<I, S>(v), unmanaged<I, S>(va), off,
                                                                  segs.size(), key_bits);
    else
      swapped = strix::primitives::segmented_sort_pairs(space, ws, unmanaged<I, S>(k), unmanaged<I, S>(ka),
                                                        unmanaged<I, S>(v), unmanaged<I, S>(va), off, segs.size(),
                                                        key_bits);
    auto got_k = swapped ? to_vector(ka) : to_vector(k);
    auto got_v = swapped ? to_vector(va) : to_vector(v);
    // Keys sorted inside each segment; the pairs of a segment the same (ties in any order).
    for (std::size_t s = 0; s < segs.size(); ++s) {
      const std::size_t lo = offsets[s], hi = offsets[s + 1];
      std::vector<std::pair<I, I>> got, want;
      for (std::size_t i = lo; i < hi; ++i) {
        got.push_back({got_k[i], got_v[i]});
        want.push_back({keys[i], vals[i]});
      }
      CHECK(std::is_sorted(got.begin(), got.end(),
                           [](const auto& a, const auto& b) { return a.first < b.first; }));
      std::sort(got.begin(), got.end());
      std::sort(want.begin(), want.end());
      CHECK(got == want);
    }
  }
}

// Exclusive prefix sums written by a scan functor, and their total.
template <class View>
struct prefix_sum {
  using value_type = std::uint64_t;
  View in, out;
  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t i, value_type& upd, const bool final) const {
    if (final) out(i) = upd;
    upd += in(i);
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION void join(value_type& a, const value_type& b) const { a += b; }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& a, const volatile value_type& b) const { a = a + b; }  // (not +=: C++20 deprecates it on volatile)
};

template <class View>
struct is_multiple_of_three {
  View in;
  KOKKOS_INLINE_FUNCTION bool operator()(const std::int64_t i) const { return in(i) % 3 == 0; }
};

}  // namespace

TEST_CASE_TEMPLATE_DEFINE("radix sort of pairs matches std::stable_sort", C, radix_sort) {
  for_each_path<typename C::space>([](auto portable) {
    CAPTURE(portable.value);
    check_radix_sort<C, std::uint32_t, portable.value>();
    check_radix_sort<C, std::uint64_t, portable.value>();
  });
}
TEST_CASE_TEMPLATE_APPLY(radix_sort, all_configs);

TEST_CASE_TEMPLATE_DEFINE("segmented sort sorts every segment", C, segmented_sort) {
  for_each_path<typename C::space>([](auto portable) {
    CAPTURE(portable.value);
    check_segmented_sort<C, portable.value>();
  });
}
TEST_CASE_TEMPLATE_APPLY(segmented_sort, all_configs);

TEST_CASE_TEMPLATE_DEFINE("scan with a functor matches std::partial_sum", C, functor_scan) {
  using S = typename C::space;
  using mem = typename C::memory_space;
  using view = strix::device_view<std::uint64_t, S>;
  for (std::size_t n : {0, 1, 2, 1000, 1 << 16, 300001}) {
    CAPTURE(n);
    const auto values = random_words<std::uint64_t>(n, n + 5, 1000);
    std::vector<std::uint64_t> want(n);
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < n; ++i) { want[i] = sum; sum += values[i]; }
    for_each_path<S>([&](auto portable) {
      CAPTURE(portable.value);
      S space;
      strix::primitives::workspace<S> ws;
      auto in = to_view<mem>(values);
      Kokkos::View<std::uint64_t*, mem> out("out", n);
      prefix_sum<view> f{view(in.data(), n), view(out.data(), n)};
      std::uint64_t total = 12345;
      if constexpr (portable.value) strix::primitives::portable::scan(space, ws, "test", f, std::int64_t(n), total);
      else strix::primitives::scan(space, ws, "test", f, std::int64_t(n), total);
      CHECK(total == sum);
      CHECK(to_vector(out) == want);
    });
  }
}
TEST_CASE_TEMPLATE_APPLY(functor_scan, all_configs);

TEST_CASE_TEMPLATE_DEFINE("select_indices keeps the chosen indices in order", C, select) {
  using S = typename C::space;
  using I = typename C::index;
  using mem = typename C::memory_space;
  for (std::size_t n : {0, 1, 7, 1 << 15, 200003}) {
    CAPTURE(n);
    const auto values = random_words<std::uint64_t>(n, n + 9);
    std::vector<I> want;
    for (std::size_t i = 0; i < n; ++i)
      if (values[i] % 3 == 0) want.push_back(static_cast<I>(i));
    for_each_path<S>([&](auto portable) {
      CAPTURE(portable.value);
      S space;
      strix::primitives::workspace<S> ws;
      auto in = to_view<mem>(values);
      Kokkos::View<I*, mem> out("out", n);
      is_multiple_of_three<strix::device_view<std::uint64_t, S>> pred{strix::device_view<std::uint64_t, S>(in.data(), n)};
      const strix::device_view<I, S> dst(out.data(), n);
      std::uint64_t count;
      if constexpr (portable.value) count = strix::primitives::portable::select_indices(space, ws, std::int64_t(n), pred, dst);
      else count = strix::primitives::select_indices(space, ws, std::int64_t(n), pred, dst);
      REQUIRE(count == want.size());
      auto got = to_vector(out);
      got.resize(count);
      CHECK(got == want);
    });
  }
}
TEST_CASE_TEMPLATE_APPLY(select, all_configs);

TEST_CASE_TEMPLATE_DEFINE("byte histogram counts every byte value", C, histogram) {
  using S = typename C::space;
  using mem = typename C::memory_space;
  std::vector<bytes> inputs = {{}, {0x00}, {0xFF}, bytes(100000, 'a'), random_text(300000, 256, 3),
                               random_text(5000, 2, 4, 0xFE)};
  // Starts off a 16-byte boundary and lengths around it (the CUDA kernel loads 16 bytes at a
  // time between a head and a tail of single bytes): (input, first, length).
  struct window { bytes source; std::size_t first, length; };
  std::vector<window> cases;
  for (const auto& text : inputs) cases.push_back({text, 0, text.size()});
  const bytes mixed = random_text(70000, 4, 5);
  for (std::size_t first : {1, 7, 15, 16, 17})
    for (std::size_t len : {1, 14, 15, 16, 17, 31, 32, 33, 47, 1000, 65537}) cases.push_back({mixed, first, len});
  // Beyond what one pass of the CUDA kernel's persistent grid covers (so its blocks loop).
  cases.push_back({random_text(9000001, 3, 6), 3, 9000001 - 3});
  for (const auto& w : cases) {
    const std::size_t first = w.first;
    const bytes text(w.source.begin() + first, w.source.begin() + first + w.length);
    CAPTURE(first);
    CAPTURE(text.size());
    std::vector<std::uint64_t> want(256, 0);
    for (auto c : text) ++want[c];
    for_each_path<S>([&](auto portable) {
      CAPTURE(portable.value);
      S space;
      strix::primitives::workspace<S> ws;
      auto t = to_view<mem>(w.source);
      Kokkos::View<std::uint64_t*, mem> counts("counts", 256);
      strix::fill(counts, std::uint64_t(777));  // every bin must be written
      const strix::device_view<const std::uint8_t, S> values(t.data() + first, text.size());
      const strix::device_view<std::uint64_t, S> bins(counts.data(), 256);
      if constexpr (portable.value) strix::primitives::portable::byte_histogram(space, ws, values, bins);
      else strix::primitives::byte_histogram(space, ws, values, bins);
      CHECK(to_vector(counts) == want);
    });
  }
}
TEST_CASE_TEMPLATE_APPLY(histogram, all_configs);

TEST_SUITE_END();
