// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// A Huffman-shaped wavelet tree of bytes, built on the device and held there
// (huffman_wavelet_ref.hpp has its queries; huffman_shape.hpp its shape). It takes about
// H0 + 4 % bits per symbol and H0 + 1 levels of rank per query on average, where a wavelet
// matrix over the same bytes takes ceil(log2 sigma) of each. The FM-index uses it for general
// byte texts; detail/huffman_wavelet_def.hpp has the construction and the checks of a loaded
// one.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/bit_vector.hpp>
#include <strix/succinct/huffman_wavelet_ref.hpp>

namespace strix::detail {

template <class ExecSpace>
struct huffman_wavelet_data {
  using memory_space = typename ExecSpace::memory_space;
  bit_vector_data<ExecSpace, std::uint64_t> bits;
  Kokkos::View<std::uint32_t*, memory_space> code;
  Kokkos::View<std::uint8_t*, memory_space> length;
  Kokkos::View<std::uint64_t*, memory_space> node_base, node_ones;
  Kokkos::View<std::uint16_t*, memory_space> child;
  std::uint8_t code_length[256] = {};  // on the host too: what a file keeps
  std::uint64_t n = 0;
  int sigma = 0, only_symbol = 0;

  huffman_wavelet_ref ref() const {
    huffman_wavelet_ref r;
    r.bits = bits.ref();
    r.code = code.data();
    r.length = length.data();
    r.node_base = node_base.data();
    r.node_ones = node_ones.data();
    r.child = child.data();
    r.n = n;
    r.sigma = sigma;
    r.only_symbol = only_symbol;
    return r;
  }
  std::size_t bytes() const {
    return bits.bytes() + code.span() * 4 + length.span() + (node_base.span() + node_ones.span()) * 8 +
           child.span() * 2;
  }
};

}  // namespace strix::detail
