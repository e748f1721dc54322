// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: strix's library entry points on arbitrary texts (Serial backend),
// each against an independent oracle: the suffix array (and strix's induced sort, sais)
// against a naive sort, the checker against a corrupted copy, the LCP array against direct
// comparison, the BWT against libdivsufsort's divbwt, the inverse BWT by round trip, and the
// longest-repeat queries against the sequential algorithms. Byte 0 picks the index width;
// the text follows.
#include <algorithm>
#include <vector>

#include <strix/backend/host/induced_sort.hpp>
#include <strix/bwt/inverse_bwt.hpp>
#include <strix/strix.hpp>

#include "fuzz_support.hpp"
#include "oracle.hpp"

namespace {

using strix_test::bytes;
using space = Kokkos::Serial;

template <class I>
std::vector<I> copy_of(const Kokkos::View<const I*, Kokkos::HostSpace>& v) {
  return std::vector<I>(v.data(), v.data() + v.extent(0));
}

template <class I>
void check_text(const bytes& text) {
  const std::uint64_t n = text.size();
  strix::text_index<space, I> index(space(), text.data(), n);
  const auto sa = copy_of<I>(index.suffix_array());
  STRIX_FUZZ_EXPECT(sa == strix_test::naive_suffix_array<I>(text));
  std::vector<I> induced(n);
  strix::backend::host::induced_suffix_array(text.data(), induced.data(), n, 1);
  STRIX_FUZZ_EXPECT(induced == sa);

  // The checker accepts the suffix array and rejects it with two entries swapped.
  Kokkos::View<I*, Kokkos::HostSpace> wrong("wrong", n);
  std::copy(sa.begin(), sa.end(), wrong.data());
  STRIX_FUZZ_EXPECT(strix::check_suffix_array(space(), index.text(), wrong).ok);
  if (n >= 2) {
    std::swap(wrong(0), wrong(n - 1));
    STRIX_FUZZ_EXPECT(!strix::check_suffix_array(space(), index.text(), wrong).ok);
  }

  const auto lcp = copy_of<I>(index.lcp());
  for (std::uint64_t i = 0; i < n; ++i) {
    std::uint64_t l = 0;
    if (i > 0)
      while (sa[i - 1] + l < n && sa[i] + l < n && text[sa[i - 1] + l] == text[sa[i] + l]) ++l;
    STRIX_FUZZ_EXPECT(lcp[i] == l);
  }

  const auto bwt_view = index.bwt();
  const bytes bwt(bwt_view.data(), bwt_view.data() + n);
  if (n > 0) {
    const auto expected = strix_test::divbwt_of(text);
    STRIX_FUZZ_EXPECT(bwt == expected.first && index.bwt_primary() == expected.second);
  }
  STRIX_FUZZ_EXPECT(strix::inverse_bwt(bwt.data(), n, index.bwt_primary()) == text);

  const auto rank = index.inverse_suffix_array();
  const auto rank_h = copy_of<I>(rank);
  for (auto method : {strix::repeat_method::raw, strix::repeat_method::compact}) {
    strix::repeat_options options;
    options.method = method;
    Kokkos::View<strix::repeat<I>*, Kokkos::HostSpace> found("found", n);
    strix::leftmost_longest_repeats(space(), rank, index.lcp(), found, options);
    std::vector<strix::repeat<I>> expected(n);
    strix::sequential::leftmost_longest_repeats(rank_h.data(), lcp.data(), n, method, expected.data());
    for (std::uint64_t k = 0; k < n; ++k)
      STRIX_FUZZ_EXPECT(found(k).length == expected[k].length &&
                        (found(k).length == 0 || found(k).start == expected[k].start));
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  strix_fuzz::start_kokkos();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bytes text(data + 1, data + size);
  if (data[0] & 1) check_text<std::uint64_t>(text);
  else check_text<std::uint32_t>(text);
  return 0;
}
