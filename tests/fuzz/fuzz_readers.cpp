// libFuzzer target: the strix tool's file readers on arbitrary files. The first byte picks
// the reader:
//   even: a text and a suffix array file for it (`strix lcp|repeats --sa`): bytes 1-2 give
//         the text's length, the text follows, the rest is the suffix array file. The file
//         is accepted exactly when it is the text's suffix array (32- or 64-bit).
//   odd:  a BWT file and its primary index (`strix unbwt`): bytes 1-8 the index, the rest
//         the BWT. When it inverts, the text found has exactly this BWT and primary index.
// Every rejection is a strix::error; anything else (crash, other exception) is a finding.
#include <cstring>
#include <vector>

#include <strix/bwt/inverse_bwt.hpp>
#include <strix/error.hpp>

#include "engine.hpp"
#include "files.hpp"
#include "formats.hpp"
#include "fuzz_support.hpp"
#include "oracle.hpp"

namespace {

using strix_test::bytes;

void suffix_array_file(const std::uint8_t* data, std::size_t size) {
  if (size < 3) return;
  const std::size_t want = data[1] | (std::size_t(data[2]) << 8);
  const std::size_t n = std::min(want, size - 3);
  const bytes text(data + 3, data + 3 + n);
  const std::uint8_t* sa_bytes = data + 3 + n;
  const std::size_t sa_size = size - 3 - n;
  strix_fuzz::memory_file text_file(text.data(), text.size()), sa_file(sa_bytes, sa_size);

  bool accepted = false;
  int width = 0;
  try {
    strix::cli::input_file in(text_file.path()), sa(sa_file.path());
    width = strix::cli::resolve_width(n, 0, &sa);
    auto e = strix::cli::make_engine("serial", width);
    e->load_text(strix::cli::read_text(*e, in), n);
    e->load_suffix_array(strix::cli::read_index_array(*e, sa, n));
    accepted = true;
  } catch (const strix::error&) {
  }
  // The truth: the file holds the text's suffix array at one of the two widths.
  const auto sa32 = strix_test::naive_suffix_array<std::uint32_t>(text);
  const auto sa64 = strix_test::naive_suffix_array<std::uint64_t>(text);
  const bool is32 = sa_size == 4 * n && (n == 0 || std::memcmp(sa_bytes, sa32.data(), sa_size) == 0);
  const bool is64 = sa_size == 8 * n && (n == 0 || std::memcmp(sa_bytes, sa64.data(), sa_size) == 0);
  STRIX_FUZZ_EXPECT(accepted == (is32 || is64));
}

void bwt_file(const std::uint8_t* data, std::size_t size) {
  if (size < 9) return;
  std::uint64_t primary = 0;
  std::memcpy(&primary, data + 1, 8);
  const std::size_t n = size - 9;
  // Mostly indices near the valid range, sometimes anything.
  if (!(data[0] & 0x80)) primary %= n + 2;
  strix_fuzz::memory_file bwt_file(data + 9, n);
  try {
    strix::cli::input_file in(bwt_file.path());
    const auto bwt = strix::cli::read_bytes(in);
    STRIX_FUZZ_EXPECT(bwt.size() == n);
    const auto text = strix::inverse_bwt(bwt.data(), bwt.size(), primary);
    const auto again = strix_test::divbwt_of(text);
    STRIX_FUZZ_EXPECT(again.first == bwt);
    STRIX_FUZZ_EXPECT(n == 0 || again.second == primary);
  } catch (const strix::error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  strix_fuzz::start_kokkos();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  if (data[0] % 2 == 0) suffix_array_file(data, size);
  else bwt_file(data, size);
  return 0;
}
