// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The first step every suffix-array construction shares: the text's bytes mapped to their
// rank 1..sigma in its alphabet (0 stands for "past the end", so that a suffix sorts before
// every longer one it is a prefix of), and the first k mapped characters of every suffix
// packed into one 64-bit key.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/copy.hpp>
#include <strix/core/device_view.hpp>

namespace strix::detail {

// present[c] = 1 for the bytes c the text holds, 0 for the others (256 entries).
template <class ExecSpace, class Present>
void mark_present_bytes(const ExecSpace& space, const text_view<ExecSpace>& text, const Present& present) {
  strix::fill(space, present, typename Present::non_const_value_type(0));
  // Not a histogram: on small alphabets (DNA) a histogram's atomics contend, while this pass
  // reads before it stores, so each word is written a few times.
  Kokkos::parallel_for(
      "strix::alphabet", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, text.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const auto c = text(i);
        if (!present(c)) present(c) = 1u;
      });
}

// rank_of[c] = 1..sigma for the bytes c the text holds (0 for the others); returns sigma.
// `present` and `rank_of` hold 256 entries.
template <class ExecSpace>
unsigned map_alphabet(const ExecSpace& space, const text_view<ExecSpace>& text,
                      const device_view<std::uint32_t, ExecSpace>& present,
                      const device_view<std::uint16_t, ExecSpace>& rank_of) {
  mark_present_bytes(space, text, present);
  auto present_h = strix::to_host(space, present);
  std::uint16_t rank_h[256];
  unsigned sigma = 0;
  for (int c = 0; c < 256; ++c) rank_h[c] = present_h(c) ? static_cast<std::uint16_t>(++sigma) : 0;
  strix::copy(space, rank_of, Kokkos::View<const std::uint16_t*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(rank_h, 256));
  space.fence();  // rank_h is on the stack
  return sigma;
}

// The mapped characters T[i .. i + k) at `bits` bits each (0 past the end) in one key.
template <class Text, class RankOf>
struct prefix_key {
  Text text;
  RankOf rank_of;  // 256 entries
  std::uint64_t n;
  int k, bits;
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(const std::uint64_t i) const {
    std::uint64_t key = 0;
    for (int t = 0; t < k; ++t) {
      const std::uint64_t p = i + std::uint64_t(t);
      key = (key << bits) | (p < n ? rank_of(text(p)) : 0u);
    }
    return key;
  }
};

// keys(i) = prefix_key(i), and suf(i) = i: the initial sort's input.
template <class ExecSpace, class I>
void pack_prefix_keys(const ExecSpace& space, const text_view<ExecSpace>& text,
                      const device_view<std::uint16_t, ExecSpace>& rank_of, int k, int bits,
                      const device_view<std::uint64_t, ExecSpace>& keys, const device_view<I, ExecSpace>& suf) {
  const std::size_t n = text.extent(0);
  const prefix_key<text_view<ExecSpace>, device_view<std::uint16_t, ExecSpace>> key_of{text, rank_of, n, k, bits};
  Kokkos::parallel_for(
      "strix::pack_keys", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i) {
        keys(i) = key_of(std::uint64_t(i));
        suf(i) = static_cast<I>(i);
      });
}

}  // namespace strix::detail
