// SPDX-License-Identifier: BSD-3-Clause
// libFuzzer target: the strix tool's file readers on arbitrary files. The low two bits of
// byte 0 pick the reader:
//   0:    a text and a suffix array file for it (`strix lcp|repeats --sa`): bytes 1-2 give
//         the text's length, the text follows, the rest is the suffix array file. The file
//         is accepted exactly when it is the text's suffix array (32- or 64-bit).
//   1:    a BWT file and its primary index (`strix unbwt`): bytes 1-8 the index, the rest
//         the BWT. When it inverts, the text found has exactly this BWT and primary index.
//   2, 3: a saved wavelet tree or matrix (`strix wt`; format 1, or a container), see
//         wavelet_file below; with 3 and
//         bit 5 set, an FM-index file (`strix count|locate|extract`), see index_file.
// Every rejection is a strix::error; anything else (crash, other exception) is a finding.
#include <cstring>
#include <vector>

#include <strix/bwt/inverse_bwt.hpp>
#include <strix/error.hpp>
#include <strix/fm_index/fm_index_file.hpp>
#include <strix/io/container.hpp>
#include <strix/succinct/serialize.hpp>
#include <strix/succinct/wavelet_matrix.hpp>
#include <strix/succinct/wavelet_tree.hpp>

#include "features/index_job.hpp"
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
    auto s = strix::cli::open_session("serial", width);
    strix::cli::index_job index(*s);
    index.load_text(strix::cli::read_text(*s, in), n);
    index.load_suffix_array(strix::cli::read_index_array(*s, sa, n));
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

// A saved wavelet tree or matrix (`strix wt query FILE`): the rest of the input is the file.
// With bit 6 of byte 0 set, the signature, version and both checksums are made right first,
// so that the structural checks behind them are reached. A file that loads must answer
// every query consistently: select(c, rank(c, i) + 1) = i for c = access(i).
template <class W>
void query_loaded(const strix::wavelet_file_info& info, const strix::byte_reader& read) {
  using S = typename W::symbol_type;
  using I = typename W::index_type;
  W w;
  try {
    w = strix::load_wavelet<W>(Kokkos::Serial(), info, read);
  } catch (const strix::error&) {
    return;
  }
  // The first and last positions (n may be large for a small file: one symbol, no levels).
  std::vector<I> pos;
  for (std::uint64_t i = 0; i < info.n && i < 256; ++i) pos.push_back(I(i));
  for (std::uint64_t i = info.n > 512 ? info.n - 256 : 256; i < info.n; ++i) pos.push_back(I(i));
  const std::size_t m = pos.size();
  std::vector<S> sym(m);
  std::vector<I> before(m), after(m), next(m), ks(m);
  w.access(pos.data(), m, sym.data());
  std::vector<I> pos1(pos);
  for (auto& p : pos1) ++p;
  w.rank(sym.data(), pos.data(), m, before.data());
  w.rank(sym.data(), pos1.data(), m, after.data());
  for (std::size_t q = 0; q < m; ++q) ks[q] = before[q] + 1;
  w.select(sym.data(), ks.data(), m, next.data());
  for (std::size_t q = 0; q < m; ++q) {
    STRIX_FUZZ_EXPECT(after[q] == before[q] + 1);
    STRIX_FUZZ_EXPECT(next[q] == pos[q]);
  }
}

void wavelet_file(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> file(data + 1, data + size);
  if ((data[0] & 0x40) && file.size() >= strix::wavelet_header_bytes) {
    std::memcpy(file.data(), "STRIXWV\x1a", 8);
    const std::uint32_t version = strix::wavelet_file_version;
    std::memcpy(file.data() + 8, &version, 4);
    strix::detail::checksum64 payload, header;
    payload.add(file.data() + strix::wavelet_header_bytes, file.size() - strix::wavelet_header_bytes);
    const std::uint64_t p = payload.value();
    std::memcpy(file.data() + 48, &p, 8);
    header.add(file.data(), 56);
    const std::uint64_t h = header.value();
    std::memcpy(file.data() + 56, &h, 8);
  }
  std::size_t at = 0;
  const strix::byte_reader read = [&](void* out, std::size_t bytes) {
    const std::size_t k = std::min(bytes, file.size() - at);
    if (k) std::memcpy(out, file.data() + at, k);
    at += k;
    return k;
  };
  strix::wavelet_file_info info;
  try {
    info = strix::read_wavelet_info(read);
  } catch (const strix::error&) {
    return;
  }
  using space = Kokkos::Serial;
  const bool tree = info.shape == strix::wavelet_shape::tree;
  switch (info.symbol_bytes) {
    case 1:
      if (tree) query_loaded<strix::wavelet_tree<space, std::uint8_t, std::uint32_t>>(info, read);
      else query_loaded<strix::wavelet_matrix<space, std::uint8_t, std::uint32_t>>(info, read);
      break;
    case 2:
      if (tree) query_loaded<strix::wavelet_tree<space, std::uint16_t, std::uint64_t>>(info, read);
      else query_loaded<strix::wavelet_matrix<space, std::uint16_t, std::uint64_t>>(info, read);
      break;
    default:
      if (tree) query_loaded<strix::wavelet_tree<space, std::uint32_t, std::uint32_t>>(info, read);
      else query_loaded<strix::wavelet_matrix<space, std::uint32_t, std::uint64_t>>(info, read);
  }
}

// An FM-index file: the rest of the input. With bit 6 of byte 0 set, its length, its
// sections' checksums and the table's and header's are made right first, so that the
// structural checks behind them are reached. An index that loads must answer consistently:
// as many positions as its count for each pattern, ascending, and extract of the whole text.
template <class I>
void query_index(const std::string& path) {
  using space = Kokkos::Serial;
  strix::fm_index<space, I> fm;
  try {
    strix::io::container_reader file(path, strix::fm_index_file_kind, strix::fm_index_file_version);
    strix::reference_sequences sequences;
    fm = strix::load_fm_index<space, I>(space(), file, &sequences);
  } catch (const strix::error&) {
    return;
  }
  const std::uint8_t patterns[] = {'A', 'C', 'G', 'T', 'A', 'C', 0x00, 'a', 'b'};
  const std::uint64_t offsets[] = {0, 1, 2, 4, 6, 6, 7, 9};
  // A load checks the samples' structure, not that each mark sits on the row its sample names
  // (that would take a walk over the whole text): a file forged that way loads, and its locate
  // reports the damage as a typed error, which is all it may do.
  typename strix::fm_index<space, I>::host_locations found;
  try {
    found = fm.locate(patterns, offsets, 7, 1000);
  } catch (const strix::error& e) {
    STRIX_FUZZ_EXPECT(e.code() == strix::error_code::invalid_input);
    return;
  }
  const auto counts = fm.count(patterns, offsets, 7);
  for (std::size_t q = 0; q < 7; ++q) {
    const std::uint64_t got = found.starts[q + 1] - found.starts[q];
    STRIX_FUZZ_EXPECT(counts[q] == found.counts[q]);
    STRIX_FUZZ_EXPECT(got == std::min<std::uint64_t>(counts[q], 1000));
    for (std::uint64_t k = found.starts[q]; k < found.starts[q + 1]; ++k) {
      STRIX_FUZZ_EXPECT(found.positions[k] <= fm.size());
      STRIX_FUZZ_EXPECT(k == found.starts[q] || found.positions[k - 1] < found.positions[k]);
    }
  }
  STRIX_FUZZ_EXPECT(counts[4] == fm.size() + 1);  // the empty pattern
  if (fm.can_extract() && fm.size() <= 100000) STRIX_FUZZ_EXPECT(fm.extract(0, fm.size()).size() == fm.size());
}

void index_file(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> file(data + 1, data + size);
  if ((data[0] & 0x40) && file.size() >= 64) {
    auto get = [&](std::size_t at, int bytes) {
      std::uint64_t v = 0;
      std::memcpy(&v, file.data() + at, bytes);
      return v;
    };
    auto put = [&](std::size_t at, std::uint64_t v) { std::memcpy(file.data() + at, &v, 8); };
    const std::uint64_t count = std::min<std::uint64_t>(get(12, 4), (file.size() - 64) / 64);
    const bool blocked = get(8, 4) >= 2;  // container version 2: blocked section checksums
    for (std::uint64_t k = 0; k < count; ++k) {
      const std::size_t e = 64 + k * 64;
      const std::uint64_t offset = get(e + 40, 8), bytes = get(e + 48, 8);
      if (offset <= file.size() && bytes <= file.size() - offset)
        put(e + 56, blocked ? strix::io::section_checksum(file.data() + offset, bytes)
                            : strix::io::checksum(file.data() + offset, bytes));
    }
    put(40, file.size());
    put(48, strix::io::checksum(file.data() + 64, count * 64));
    put(56, strix::io::checksum(file.data(), 56));
  }
  strix_fuzz::memory_file saved(file.data(), file.size());
  int width = 0;
  try {
    strix::io::container_reader reader(saved.path(), strix::fm_index_file_kind, strix::fm_index_file_version);
    width = strix::fm_index_file_width(reader);
  } catch (const strix::error&) {
    return;
  }
  if (width == 4) query_index<std::uint32_t>(saved.path());
  else query_index<std::uint64_t>(saved.path());
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  strix_fuzz::start_kokkos();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  switch (data[0] & 3) {
    case 0: suffix_array_file(data, size); break;
    case 1: bwt_file(data, size); break;
    case 3:
      if (data[0] & 0x20) {
        index_file(data, size);
        break;
      }
      [[fallthrough]];
    default: wavelet_file(data, size);
  }
  return 0;
}
