// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Definitions of strix::copy's and strix::fill's compiled halves: Kokkos::deep_copy over bytes
// (or words, for fills), instantiated once per execution space in libstrix.
#include <strix/core/copy.hpp>

namespace strix::detail {

template <class ExecSpace>
void copy_bytes(const ExecSpace& space, void* dst, bool dst_on_host, const void* src, bool src_on_host,
                std::size_t bytes) {
  using device_memory = typename ExecSpace::memory_space;
  using U = Kokkos::MemoryUnmanaged;
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  if (dst_on_host && src_on_host) {
    Kokkos::deep_copy(space, Kokkos::View<unsigned char*, Kokkos::HostSpace, U>(d, bytes),
                      Kokkos::View<const unsigned char*, Kokkos::HostSpace, U>(s, bytes));
  } else if (dst_on_host) {
    Kokkos::deep_copy(space, Kokkos::View<unsigned char*, Kokkos::HostSpace, U>(d, bytes),
                      Kokkos::View<const unsigned char*, device_memory, U>(s, bytes));
  } else if (src_on_host) {
    Kokkos::deep_copy(space, Kokkos::View<unsigned char*, device_memory, U>(d, bytes),
                      Kokkos::View<const unsigned char*, Kokkos::HostSpace, U>(s, bytes));
  } else {
    Kokkos::deep_copy(space, Kokkos::View<unsigned char*, device_memory, U>(d, bytes),
                      Kokkos::View<const unsigned char*, device_memory, U>(s, bytes));
  }
}

template <class Memory, class ExecSpace, class Word>
void fill_in(const ExecSpace& space, void* dst, std::size_t count, std::uint64_t pattern) {
  Kokkos::deep_copy(space, Kokkos::View<Word*, Memory, Kokkos::MemoryUnmanaged>(static_cast<Word*>(dst), count),
                    static_cast<Word>(pattern));
}

template <class Memory, class ExecSpace>
void fill_words_in(const ExecSpace& space, void* dst, std::size_t count, std::uint64_t pattern, int width) {
  switch (width) {
    case 1: return fill_in<Memory, ExecSpace, std::uint8_t>(space, dst, count, pattern);
    case 2: return fill_in<Memory, ExecSpace, std::uint16_t>(space, dst, count, pattern);
    case 4: return fill_in<Memory, ExecSpace, std::uint32_t>(space, dst, count, pattern);
    default: return fill_in<Memory, ExecSpace, std::uint64_t>(space, dst, count, pattern);
  }
}

inline void write_word(unsigned char* at, std::uint64_t pattern, int width) {
  switch (width) {
    case 1: { const auto w = std::uint8_t(pattern); std::memcpy(at, &w, 1); return; }
    case 2: { const auto w = std::uint16_t(pattern); std::memcpy(at, &w, 2); return; }
    case 4: { const auto w = std::uint32_t(pattern); std::memcpy(at, &w, 4); return; }
    default: std::memcpy(at, &pattern, 8);
  }
}

template <class ExecSpace>
void fill_words(const ExecSpace& space, void* dst, bool on_host, std::size_t count, std::uint64_t pattern,
                int width) {
  STRIX_REQUIRE(width == 1 || width == 2 || width == 4 || width == 8);
  if (on_host && !std::is_same<typename ExecSpace::memory_space, Kokkos::HostSpace>::value) {
    // Host memory filled from a device execution space: by the host, after the space's work.
    space.fence();
    auto* bytes = static_cast<unsigned char*>(dst);
    for (std::size_t i = 0; i < count; ++i) write_word(bytes + i * width, pattern, width);
  } else {
    fill_words_in<typename ExecSpace::memory_space>(space, dst, count, pattern, width);
  }
}

}  // namespace strix::detail

#define STRIX_COPY_INSTANTIATE(SPACE) STRIX_COPY_DECLARE(, SPACE)
