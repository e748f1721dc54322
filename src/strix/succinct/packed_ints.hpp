// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The arrays of a packed integer array (packed_ints_ref.hpp) in an execution space's memory;
// built by detail::pack_ints (succinct/detail/compact_build_def.hpp).
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/succinct/packed_ints_ref.hpp>

namespace strix::detail {

template <class ExecSpace>
struct packed_ints_data {
  Kokkos::View<std::uint64_t*, typename ExecSpace::memory_space> words;
  std::uint64_t count = 0;
  int width = 0;

  packed_ints_ref ref() const {
    packed_ints_ref r;
    r.words = words.data();
    r.width = width;
    return r;
  }
  std::size_t bytes() const { return words.span() * 8; }
};

}  // namespace strix::detail
