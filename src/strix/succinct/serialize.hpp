// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Saving and loading built wavelet trees and matrices (the format: wavelet_file.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <strix/core/copy.hpp>
#include <strix/core/length.hpp>
#include <strix/error.hpp>
#include <strix/succinct/wavelet.hpp>
#include <strix/succinct/wavelet_file.hpp>

namespace strix {

namespace detail {

template <class T, class View>
std::vector<T> to_host_vector(const View& v) {
  std::vector<T> h(v.extent(0));
  Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged> dst(h.data(), h.size());
  strix::copy(dst, v);
  return h;
}

// A wavelet's arrays on `space` from what a file held (the alphabet, the cumulative counts,
// the level words), checked for order and size; finish_wavelet (the wavelet's constructor)
// then checks the bits against the counts. `what` names the file in errors.
template <class Space, class Symbol>
wavelet_data<Space, Symbol> wavelet_data_from_arrays(const Space& space, wavelet_shape shape, std::uint64_t n,
                                                     const std::vector<Symbol>& alphabet,
                                                     const std::vector<std::uint64_t>& counts,
                                                     const std::vector<std::uint64_t>& words, std::uint64_t total_bits,
                                                     const std::string& what) {
  using memory_space = typename Space::memory_space;
  const std::uint64_t sigma = alphabet.size();
  bool ok = counts.size() == sigma + 1 && counts[0] == 0 && counts[sigma] == n &&
            words.size() == padded_words(total_bits);
  for (std::uint64_t m = 0; ok && m < sigma; ++m)
    ok = counts[m] < counts[m + 1] && (m == 0 || alphabet[m - 1] < alphabet[m]);
  STRIX_USER_REQUIRE(ok, what + " is corrupt (alphabet or counts out of order)");
  wavelet_data<Space, Symbol> d;
  std::uint64_t size[wavelet_max_levels + 1];
  d.n = n;
  const std::uint64_t total = wavelet_layout(shape, counts.data(), sigma, size, d.offset, d.levels);
  STRIX_USER_REQUIRE(total == total_bits, what + " is corrupt (level sizes disagree with the counts)");
  for (int l = 0; l < d.levels; ++l)  // the padding after each level (to a 512-bit block) is zero
    for (std::uint64_t i = d.offset[l] + size[l]; i < d.offset[l + 1]; i = (i / 64 + 1) * 64)
      STRIX_USER_REQUIRE((words[i / 64] >> (i % 64)) == 0, what + " is corrupt (bits between levels)");
  upload_alphabet(space, alphabet, counts, d);
  d.bits.n = total_bits;
  d.bits.words = allocate<std::uint64_t, memory_space>("strix::wavelet::bits", words.size());
  strix::copy(space, d.bits.words,
                    Kokkos::View<const std::uint64_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(words.data(), words.size()));
  space.fence();
  return d;
}

}  // namespace detail

// Writes a wavelet tree or matrix (strix's container, kind "wavelet": wavelet_file.hpp).
template <class W>
void save_wavelet(const W& w, const byte_writer& write) {
  using Symbol = typename W::symbol_type;
  const auto& d = w.data();
  const auto alphabet = detail::to_host_vector<Symbol>(d.alphabet);
  const auto counts = detail::to_host_vector<std::uint64_t>(d.counts);
  const auto words = detail::to_host_vector<std::uint64_t>(d.bits.words);
  const std::vector<std::uint64_t> meta{std::uint64_t(W::shape), sizeof(Symbol), d.n, d.sigma, d.bits.n};
  io::container_writer file(wavelet_container_kind, wavelet_container_version);
  file.add("meta", meta);
  file.add("alphabet", alphabet);
  file.add("counts", counts);
  file.add("levels", words);
  file.write(io::container_writer::sink(write));
}

// Reads the rest of a file after read_wavelet_info and rebuilds the structure on `space`. W's shape
// and symbol size must be the file's.
template <class W>
W load_wavelet(const typename W::execution_space& space, const wavelet_file_info& info, const byte_reader& read,
               const wavelet_options& options = {}) {
  using Symbol = typename W::symbol_type;
  using Space = typename W::execution_space;
  STRIX_USER_REQUIRE(info.shape == W::shape && info.symbol_bytes == int(sizeof(Symbol)),
                     "wavelet file holds a different structure than the one asked for");
  check_length<typename W::index_type>(info.n, "wavelet file of " + std::to_string(info.n) + " symbols");
  if (info.container) {
    auto d = detail::wavelet_data_from_arrays<Space, Symbol>(
        space, W::shape, info.n, info.container->vector<Symbol>("alphabet"),
        info.container->vector<std::uint64_t>("counts"), info.container->vector<std::uint64_t>("levels"),
        info.total_bits, "wavelet file");
    STRIX_USER_REQUIRE(d.sigma == info.sigma, "wavelet file is corrupt (alphabet size)");
    return W(space, std::move(d), options);
  }
  // A format-1 file: the payload follows its header.
  std::vector<unsigned char> alpha_bytes(detail::padded8(info.sigma * sizeof(Symbol)));
  std::vector<std::uint64_t> counts(info.sigma + 1), words(detail::padded_words(info.total_bits));
  detail::read_exact(read, alpha_bytes.data(), alpha_bytes.size(), "alphabet");
  detail::read_exact(read, counts.data(), counts.size() * 8, "counts");
  detail::read_exact(read, words.data(), words.size() * 8, "level bits");
  unsigned char extra;
  STRIX_USER_REQUIRE(read(&extra, 1) == 0, "wavelet file is corrupt (bytes after its end)");
  detail::checksum64 payload;
  payload.add(alpha_bytes.data(), alpha_bytes.size());
  payload.add_words(counts.data(), counts.size());
  payload.add_words(words.data(), words.size());
  STRIX_USER_REQUIRE(payload.value() == info.payload_checksum, "wavelet file is corrupt (payload checksum mismatch)");

  std::vector<Symbol> alphabet(info.sigma);
  if (info.sigma) std::memcpy(alphabet.data(), alpha_bytes.data(), info.sigma * sizeof(Symbol));
  auto d = detail::wavelet_data_from_arrays<Space, Symbol>(space, W::shape, info.n, alphabet, counts, words,
                                                           info.total_bits, "wavelet file");
  return W(space, std::move(d), options);
}

}  // namespace strix
