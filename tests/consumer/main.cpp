// Builds the suffix array of "banana" through the installed library and checks it.
#include <cstdio>
#include <cstring>
#include <strix/strix.hpp>

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  const char* s = "banana";
  const std::size_t n = std::strlen(s);
  Kokkos::View<std::uint8_t*> text("text", n);
  auto text_h = Kokkos::create_mirror_view(text);
  for (std::size_t i = 0; i < n; ++i) text_h(i) = static_cast<std::uint8_t>(s[i]);
  Kokkos::deep_copy(text, text_h);
  Kokkos::View<std::uint32_t*> sa("sa", n);
  strix::suffix_array(Kokkos::DefaultExecutionSpace(), text, sa);
  auto sa_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), sa);
  const std::uint32_t expected[] = {5, 3, 1, 0, 4, 2};
  for (std::size_t i = 0; i < n; ++i)
    if (sa_h(i) != expected[i]) { std::printf("consumer: wrong SA\n"); return 1; }
  const bool ok = strix::check_suffix_array(Kokkos::DefaultExecutionSpace(), text, sa).ok;
  std::printf("consumer: suffix array of banana %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
