// SPDX-License-Identifier: BSD-3-Clause
// A user's first strix program, built against the installed package: a text goes to the
// device once, its index builds the suffix array, LCP array and BWT on request, and a wavelet
// tree of the BWT answers a single rank query. Checked against the known answers for banana.
#include <cstdio>
#include <string>
#include <strix/strix.hpp>

#ifdef STRIX_CONSUMER_WITH_KOKKOS_KERNELS
bool kokkos_kernels_dot_ok();  // with_kokkos_kernels.cpp
#endif

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  using space = Kokkos::DefaultExecutionSpace;
  const std::string text = "banana";

  strix::text_index<space, std::uint32_t> index(space(), reinterpret_cast<const std::uint8_t*>(text.data()),
                                                text.size());
  auto sa = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), index.suffix_array());
  auto lcp = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), index.lcp());
  auto bwt = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), index.bwt());
  // How many 'a' in the BWT's first 4 symbols: one query, no arrays.
  strix::wavelet_tree<space, std::uint8_t, std::uint32_t> wt(space(), index.bwt());
  const std::uint32_t a_in_first_4 = wt.rank('a', 4);

  const std::uint32_t want_sa[] = {5, 3, 1, 0, 4, 2}, want_lcp[] = {0, 1, 3, 0, 0, 2};
  const std::string want_bwt = "annbaa";  // libdivsufsort's divbwt layout, primary index 4
  bool ok = index.bwt_primary() == 4 && a_in_first_4 == 1 &&
            strix::check_suffix_array(space(), index.text(), index.suffix_array()).ok;
  for (std::size_t i = 0; i < text.size(); ++i)
    ok = ok && sa(i) == want_sa[i] && lcp(i) == want_lcp[i] && bwt(i) == std::uint8_t(want_bwt[i]);
#ifdef STRIX_CONSUMER_WITH_KOKKOS_KERNELS
  const bool kernels_ok = kokkos_kernels_dot_ok();
  std::printf("consumer: a Kokkos Kernels dot product beside strix %s\n", kernels_ok ? "ok" : "WRONG");
  ok = ok && kernels_ok;
#endif
  std::printf("consumer: suffix array, LCP, BWT and a rank query on banana %s (strix %s)\n", ok ? "ok" : "WRONG",
              strix::version().c_str());
  return ok ? 0 : 1;
}
