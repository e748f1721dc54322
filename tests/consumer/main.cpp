// SPDX-License-Identifier: BSD-3-Clause
// Builds the suffix array of "banana" through the installed library, with the free
// function and with a text_index, and checks both.
#include <cstdio>
#include <cstring>
#include <strix/strix.hpp>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const char* s = "banana";
  const std::size_t n = std::strlen(s);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(s);
  Kokkos::View<std::uint8_t*> text("text", n);
  auto text_h = Kokkos::create_mirror_view(text);
  for (std::size_t i = 0; i < n; ++i) text_h(i) = bytes[i];
  Kokkos::deep_copy(text, text_h);
  Kokkos::View<std::uint32_t*> sa("sa", n);
  strix::suffix_array(Kokkos::DefaultExecutionSpace(), text, sa);
  auto sa_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sa);
  const std::uint32_t expected_sa[] = {5, 3, 1, 0, 4, 2};
  const std::uint32_t expected_lcp[] = {0, 1, 3, 0, 0, 2};
  bool ok = strix::check_suffix_array(Kokkos::DefaultExecutionSpace(), text, sa).ok;
  strix::text_index<Kokkos::DefaultExecutionSpace, std::uint32_t> index(
      Kokkos::DefaultExecutionSpace(), bytes, n);
  auto lcp_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), index.lcp());
  auto index_sa_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), index.suffix_array());
  for (std::size_t i = 0; i < n; ++i)
    ok = ok && sa_h(i) == expected_sa[i] && index_sa_h(i) == expected_sa[i] && lcp_h(i) == expected_lcp[i];
  std::printf("consumer: suffix array and LCP of banana %s (strix %s)\n", ok ? "ok" : "WRONG",
              strix::version().c_str());
  return ok ? 0 : 1;
}
