// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The arrays of a sparse bit vector (sparse_bits_ref.hpp) in an execution space's memory.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/sparse_bits_ref.hpp>

namespace strix::detail {

template <class ExecSpace>
struct sparse_bits_data {
  using memory_space = typename ExecSpace::memory_space;
  Kokkos::View<std::uint64_t*, memory_space> super;
  Kokkos::View<std::uint16_t*, memory_space> block;
  Kokkos::View<std::uint8_t*, memory_space> low;
  std::uint64_t n = 0, ones = 0;

  sparse_bits_ref ref() const {
    sparse_bits_ref r;
    r.super = super.data();
    r.block = block.data();
    r.low = low.data();
    r.n = n;
    r.ones = ones;
    return r;
  }
  std::size_t bytes() const { return super.span() * 8 + block.span() * 2 + low.span(); }
};

// Array sizes of a sparse bit vector of n bits (n >= 1).
inline std::uint64_t sparse_blocks(std::uint64_t n) { return (n + 255) >> sparse_block_log2; }
inline std::uint64_t sparse_supers(std::uint64_t n) { return (sparse_blocks(n) >> sparse_super_blocks_log2) + 1; }

}  // namespace strix::detail
