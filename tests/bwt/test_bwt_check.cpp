// SPDX-License-Identifier: BSD-3-Clause
// BWT against libdivsufsort's divbwt, its inverse, and the suffix-array checker.
#include <doctest/doctest.h>

#include <algorithm>

#include <strix/backend/host/bwt_gather.hpp>
#include <strix/backend/host/sa_check.hpp>
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

// An inverse, invert(bwt, primary) -> text, against BWTs inconsistent with their primary index:
// it throws invalid_input (or, where the moved index still leaves one cycle, gives another text).
// "aa" with the sentinel in row 1 (LF is (0 1)(2)), a real BWT with its primary index moved (LF
// splits into cycles), and primary indexes outside 1..n.
template <class Invert>
void check_inconsistent_bwts(const Invert& invert) {
  const auto text = random_text(5000, 4, 3, 'A');
  const auto [bwt, primary] = divbwt_of(text);
  const auto refused = [&](const bytes& in, std::uint64_t p, bool other_text_too) {
    try {
      return invert(in, p) != text && other_text_too;
    } catch (const strix::error& e) {
      return e.code() == strix::error_code::invalid_input;
    }
  };
  CHECK(refused(bytes{'a', 'a'}, 1, false));
  for (std::uint64_t wrong : {std::uint64_t(1), primary == 2500 ? std::uint64_t(2501) : std::uint64_t(2500)})
    if (wrong != primary) CHECK(refused(bwt, wrong, true));
  CHECK(refused(bwt, 0, false));
  CHECK(refused(bwt, bwt.size() + 1, false));
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

// Prefix doubling and Larsson–Sadakane write each row's symbol as its suffix becomes a singleton
// (bwt_from_text without a suffix array): divbwt's answer on the hard inputs, on texts that leave
// suffix 0's row first, last or anywhere, and through one handle reused for a suffix array in
// between (the BWT's state must not leak into it) and for a shorter text after.
TEST_CASE_TEMPLATE_DEFINE("bwt_from_text: the doubling constructions write the BWT as they sort", C, bwt_direct) {
  using I = typename C::index;
  using mem = typename C::memory_space;
  auto inputs = hard_inputs();
  inputs.push_back({"random DNA 100 kB", random_text(100000, 4, 41, 'A')});
  inputs.push_back({"random bytes 300 kB", random_text(300000, 256, 42)});
  inputs.push_back({"fibonacci 200 kB", fibonacci_word(200000)});
  inputs.push_back({"smallest byte first", from_string("\x01zzzyzzzxzz")});
  inputs.push_back({"largest byte first", from_string("zaaabaaacaa")});
  for (auto algorithm : {strix::sa_algorithm::prefix_doubling, strix::sa_algorithm::larsson_sadakane}) {
    CAPTURE(strix::algorithm_name(strix::sa_options{algorithm}));
    strix::sa_options options;
    options.algorithm = algorithm;
    strix::suffix_array_handle<typename C::space, I> handle(typename C::space(), options);
    for (const auto& input : inputs) {
      CAPTURE(input.first);
      const auto& text = input.second;
      const std::uint64_t n = text.size();
      auto text_d = to_view<mem>(text);
      Kokkos::View<I*, mem> work("work", n);
      Kokkos::View<std::uint8_t*, mem> out("bwt", n);
      strix::run_stats stats;
      const std::uint64_t primary = strix::bwt_from_text(typename C::space(), text_d, work, out, handle, &stats);
      const auto [ref, ref_primary] = divbwt_of(text);
      CHECK(to_vector(out) == ref);
      CHECK(primary == ref_primary);
      CHECK(stats.peak_bytes >= 2 * n + n * sizeof(I));
      const auto has_phase = [&](const char* name) {
        return std::any_of(stats.phases.begin(), stats.phases.end(), [&](const auto& p) { return p.first == name; });
      };
      CHECK_FALSE(has_phase("bwt"));  // no pass over a suffix array
      if (n > 1) CHECK(has_phase("write BWT"));
      // The same handle builds a suffix array next.
      strix::suffix_array(typename C::space(), text_d, work, handle);
      CHECK(to_vector(work) == divsufsort_suffix_array<I>(text));
    }
  }
}
TEST_CASE_TEMPLATE_APPLY(bwt_direct, all_configs);

// The host gather behind strix::bwt on host backends, called directly (strix::bwt takes its
// thread count from the execution space): around its 64-entry prefetch distance and 2^16-entry
// parallel cut-off, with suffix 0's row anywhere (texts that start with their smallest or
// largest byte put it first or last), 32- and 64-bit.
TEST_CASE("bwt: the host gather matches divbwt at 1, 2 and 7 threads") {
  auto inputs = hard_inputs();
  for (std::size_t n : {63, 64, 65, 129, 65535, 65536, 65537, 200003}) {
    const std::string size = " " + std::to_string(n);
    inputs.push_back({"random DNA" + size, random_text(n, 4, n, 'A')});
    auto low = random_text(n, 200, n + 1, 10);
    low[0] = 0;  // suffix 0 sorts first
    inputs.push_back({"starts with its smallest byte" + size, low});
    auto high = random_text(n, 200, n + 2, 10);
    high[0] = 0xFF;  // ... last
    inputs.push_back({"starts with its largest byte" + size, high});
    inputs.push_back({"all 0xFF" + size, bytes(n, 0xFF)});
  }
  for (const auto& input : inputs) {
    const auto& text = input.second;
    CAPTURE(input.first);
    if (text.empty()) continue;  // strix::bwt returns before the gather
    const auto [ref, ref_primary] = divbwt_of(text);
    const auto sa = divsufsort_suffix_array<std::uint32_t>(text);
    const auto sa64 = divsufsort_suffix_array<std::uint64_t>(text);
    for (int threads : {1, 2, 7}) {
      CAPTURE(threads);
      bytes out(text.size(), 0x5A);
      const std::uint64_t row = strix::backend::host::row_of_suffix_zero(sa.data(), sa.size(), threads);
      strix::backend::host::bwt_from_suffix_array(text.data(), sa.data(), out.data(), text.size(), row, threads);
      CHECK(row + 1 == ref_primary);
      CHECK(out == ref);
      bytes out64(text.size(), 0x5A);
      CHECK(strix::backend::host::row_of_suffix_zero(sa64.data(), sa64.size(), threads) == row);
      strix::backend::host::bwt_from_suffix_array(text.data(), sa64.data(), out64.data(), text.size(), row, threads);
      CHECK(out64 == ref);
    }
  }
  const std::vector<std::uint32_t> no_zero = {1, 2, 3};
  CHECK(strix::backend::host::row_of_suffix_zero(no_zero.data(), 3, 2) == 3);
}

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

// The host scans behind strix::check_suffix_array on host backends, called directly at 1, 2
// and 7 threads: the same finding at every thread count, around the 32-entry prefetch distance
// and the 2^16-entry parallel cut-off, 32- and 64-bit.
template <class I>
void host_check_cases(const bytes& text) {
  using strix::backend::host::sa_check_problem;
  const std::size_t n = text.size();
  const auto run = [&](const std::vector<I>& sa) {
    std::vector<strix::backend::host::sa_check_finding> found;
    for (int threads : {1, 2, 7}) {
      std::vector<I> isa(n);
      found.push_back(strix::backend::host::check_suffix_array(text.data(), sa.data(), isa.data(), n, threads));
    }
    for (const auto& f : found) CHECK((f.problem == found[0].problem && f.row == found[0].row));
    return found[0];
  };
  const auto sa = divsufsort_suffix_array<I>(text);
  CHECK(run(sa).problem == sa_check_problem::none);
  if (n < 2) return;
  auto swapped = sa;  // rows n/2 - 1 and n/2
  std::swap(swapped[n / 2 - 1], swapped[n / 2]);
  const auto order = run(swapped);
  CHECK(order.problem == sa_check_problem::out_of_order);
  CHECK((order.row >= 1 && order.row <= n / 2));
  auto far = sa;
  std::swap(far.front(), far.back());
  CHECK(run(far).problem == sa_check_problem::out_of_order);
  auto dup = sa;  // the value of row 0 at the last row too: the last row is reported
  dup[n - 1] = dup[0];
  const auto d = run(dup);
  CHECK(d.problem == sa_check_problem::duplicate);
  CHECK(d.row == n - 1);
  auto range = sa;
  range[n - 1] = static_cast<I>(n);
  range[n / 2] = static_cast<I>(n + 5);
  const auto r = run(range);
  CHECK(r.problem == sa_check_problem::out_of_range);
  CHECK(r.row == n / 2);
}

TEST_CASE("checker: the host scans find the same problem at 1, 2 and 7 threads") {
  auto inputs = hard_inputs();
  for (std::size_t n : {31, 32, 33, 65535, 65536, 65537, 200003}) {
    const std::string size = " " + std::to_string(n);
    inputs.push_back({"random DNA" + size, random_text(n, 4, n, 'A')});
    inputs.push_back({"all 0x00" + size, bytes(n, 0x00)});
    inputs.push_back({"fibonacci" + size, fibonacci_word(n)});
  }
  for (const auto& input : inputs) {
    CAPTURE(input.first);
    host_check_cases<std::uint32_t>(input.second);
    if (input.second.size() <= 65537) host_check_cases<std::uint64_t>(input.second);
  }
}

TEST_CASE_TEMPLATE_DEFINE("checker on a large text", C, checker_large) {
  using I = typename C::index;
  const auto text = random_text(3'000'000, 4, 21);
  auto sa = divsufsort_suffix_array<I>(text);
  CHECK(check<C>(text, sa).ok);
  std::swap(sa[1'000'000], sa[2'000'000]);
  CHECK_FALSE(check<C>(text, sa).ok);
}
TEST_CASE_TEMPLATE_APPLY(checker_large, all_configs);

TEST_CASE("inverse bwt: the text back at 1, 2 and 7 threads; inconsistent input is an error") {
  // The walk is cut into 256 pieces a thread: the small inputs have a piece on every row, the
  // large ones long pieces, runs and periods make pieces that end where others start.
  std::vector<std::pair<std::string, bytes>> inputs = hard_inputs();
  for (std::size_t n : {2, 255, 256, 257, 1000, 4097, 70001}) inputs.push_back({"random", random_text(n, n % 3 ? 4 : 256, n)});
  for (auto& large : large_inputs(large_text_bytes(true), true)) inputs.push_back(std::move(large));
  for (const auto& input : inputs) {
    CAPTURE(input.first);
    CAPTURE(input.second.size());
    const auto [bwt, primary] = divbwt_of(input.second);
    for (int threads : {1, 2, 7}) {
      CAPTURE(threads);
      CHECK(strix::inverse_bwt(bwt.data(), bwt.size(), primary, threads) == input.second);
    }
    // The 8-byte entries of BWTs of 2^31 rows and more, on the same inputs.
    CHECK(strix::detail::inverse_bwt_wide(bwt.data(), bwt.size(), primary, 2) == input.second);
  }
  for (int threads : {1, 2})
    check_inconsistent_bwts([&](const bytes& bwt, std::uint64_t primary) {
      return strix::inverse_bwt(bwt.data(), bwt.size(), primary, threads);
    });
}

// The inverse on the execution space: 32-bit rows in the 32-bit configs, the 64-bit rows of
// BWTs past 2^32 rows in the 64-bit ones (same inputs).
TEST_CASE_TEMPLATE_DEFINE("inverse bwt on the execution space", C, space_inverse_bwt) {
  using mem = typename C::memory_space;
  const bool wide = sizeof(typename C::index) == 8;
  // Each inverse twice: allocating its own memory, and in one workspace kept across all the
  // inputs (grown as they come, reused by shorter ones).
  strix::inverse_bwt_workspace<typename C::space> kept;
  const auto invert_with = [&](const bytes& bwt, std::uint64_t primary, strix::inverse_bwt_workspace<typename C::space>* ws) {
    auto bwt_d = to_view<mem>(bwt);
    Kokkos::View<std::uint8_t*, mem> text_d("text", bwt.size());
    strix::run_stats stats;
    strix::detail::inverse_bwt(typename C::space(), strix::device_view<const std::uint8_t, typename C::space>(bwt_d.data(), bwt.size()),
                               primary, strix::device_view<std::uint8_t, typename C::space>(text_d.data(), bwt.size()),
                               ws, &stats, wide);
    if (!bwt.empty()) CHECK(stats.peak_bytes >= 2 * bwt.size());
    // In a workspace the call allocates nothing else: its peak is the two views and the workspace.
    if (!bwt.empty() && ws) CHECK(stats.peak_bytes == 2 * bwt.size() + ws->bytes());
    return to_vector(text_d);
  };
  const auto invert = [&](const bytes& bwt, std::uint64_t primary) {
    const auto own = invert_with(bwt, primary, nullptr);
    CHECK(invert_with(bwt, primary, &kept) == own);
    return own;
  };
  // Pieces are at least 64 rows apart: sizes around 64 and its multiples, one piece or many.
  std::vector<std::pair<std::string, bytes>> inputs = hard_inputs();
  for (std::size_t n : {1, 2, 62, 63, 64, 65, 127, 128, 129, 4095, 4097, 70001})
    inputs.push_back({"random", random_text(n, n % 3 ? 4 : 256, n)});
  for (auto& large : large_inputs(large_text_bytes(true), true)) inputs.push_back(std::move(large));
  for (const auto& input : inputs) {
    CAPTURE(input.first);
    CAPTURE(input.second.size());
    const auto [bwt, primary] = divbwt_of(input.second);
    CHECK(invert(bwt, primary) == input.second);
  }
  // The public call on the caller's views.
  {
    const auto text = random_text(100000, 20, 9);
    const auto [bwt, primary] = divbwt_of(text);
    auto bwt_d = to_view<mem>(bwt);
    Kokkos::View<std::uint8_t*, mem> text_d("text", bwt.size());
    strix::inverse_bwt(typename C::space(), bwt_d, primary, text_d);
    CHECK(to_vector(text_d) == text);
    // Into a view at every offset from a 32-byte boundary (the walks store aligned blocks of
    // 32 bytes where they can), the bytes around it untouched.
    for (std::size_t offset = 0; offset < 32; offset += 3) {
      CAPTURE(offset);
      const std::size_t n = 5000 + offset;
      const bytes part(text.begin(), text.begin() + n);
      const auto [part_bwt, part_primary] = divbwt_of(part);
      auto part_bwt_d = to_view<mem>(part_bwt);
      const bytes guard(n + 64, 0xA5);
      auto room = to_view<mem>(guard);
      strix::inverse_bwt(typename C::space(), part_bwt_d, part_primary,
                         Kokkos::subview(room, std::make_pair(offset, offset + n)));
      const auto back = to_vector(room);
      CHECK(bytes(back.begin() + offset, back.begin() + offset + n) == part);
      CHECK(std::count(back.begin(), back.begin() + offset, 0xA5) == std::ptrdiff_t(offset));
      CHECK(std::count(back.begin() + offset + n, back.end(), 0xA5) == std::ptrdiff_t(64 - offset));
    }
  }
  // A workspace reserved once: calls up to its length allocate nothing; a longer one grows it.
  {
    strix::inverse_bwt_workspace<typename C::space> ws;
    ws.reserve(typename C::space(), 5000);
    const std::size_t reserved = ws.bytes();
    CHECK(reserved >= 16 * 5000);
    for (const std::size_t n : {0, 1, 64, 4999, 5000, 20000}) {
      CAPTURE(n);
      const auto text = random_text(n, 4, n + 3);
      const auto [bwt, primary] = divbwt_of(text);
      auto bwt_d = to_view<mem>(bwt);
      Kokkos::View<std::uint8_t*, mem> text_d("text", n);
      strix::inverse_bwt(typename C::space(), bwt_d, primary, text_d, ws);
      CHECK(to_vector(text_d) == text);
      if (n <= 5000) CHECK(ws.bytes() == reserved);
    }
    CHECK(ws.bytes() > reserved);
    ws.release();
    CHECK(ws.bytes() == 0);
    // Reserved just past a step of the pieces' spacing (rows = (T + 1) · 128, T the pieces
    // aimed at), a BWT one byte shorter has twice the pieces and must still fit.
    const std::uint64_t target = std::uint64_t(typename C::space().concurrency()) * (strix::is_host_space_v<typename C::space> ? 64 : 4);
    const std::uint64_t edge = (target + 1) * 128 - 1;  // bytes: rows = (T + 1) · 128
    if (edge <= 300000) {  // (host spaces; on a GPU the edge lies near 10^8 bytes)
      ws.reserve(typename C::space(), edge);
      const std::size_t at_edge = ws.bytes();
      const auto text = random_text(edge - 1, 4, 11);
      const auto [bwt, primary] = divbwt_of(text);
      auto bwt_d = to_view<mem>(bwt);
      Kokkos::View<std::uint8_t*, mem> text_d("text", bwt.size());
      strix::inverse_bwt(typename C::space(), bwt_d, primary, text_d, ws);
      CHECK(to_vector(text_d) == text);
      CHECK(ws.bytes() == at_edge);
    }
  }
  check_inconsistent_bwts(invert);
  // The host call's answer on every primary index of a small BWT (consistent or not).
  const auto small = random_text(300, 3, 5, 'a');
  const auto [small_bwt, small_primary] = divbwt_of(small);
  for (std::uint64_t p = 1; p <= small_bwt.size(); ++p) {
    CAPTURE(p);
    std::string host, device;
    try {
      const auto t = strix::inverse_bwt(small_bwt.data(), small_bwt.size(), p, 1);
      host.assign(t.begin(), t.end());
    } catch (const strix::error& e) {
      host = "error";
    }
    try {
      const auto t = invert(small_bwt, p);
      device.assign(t.begin(), t.end());
    } catch (const strix::error& e) {
      device = "error";
    }
    CHECK(host == device);
  }
  (void)small_primary;
}
TEST_CASE_TEMPLATE_APPLY(space_inverse_bwt, all_configs);

TEST_SUITE_END();
