#pragma once
// The texts a difference-cover construction sorts: the caller's bytes, or (skew's
// recursion) the names of the previous level. Either way symbol(p) is 1..max for p < n
// and 0 past the end, so that a suffix sorts before every longer one it is a prefix of.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/bits.hpp>
#include <strix/primitives/views.hpp>

namespace strix::detail {

// Bytes mapped to their rank 1..sigma in the text's alphabet (fewer bits a symbol).
template <class ExecSpace>
struct byte_symbols {
  text_view<ExecSpace> text;
  device_view<const std::uint16_t, ExecSpace> rank_of;
  std::uint64_t n;
  int bits;  // bits_for(sigma)
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t p) const { return p < n ? rank_of(text(p)) : 0; }
};

// Names 1..K of a reduced string.
template <class ExecSpace, class I>
struct name_symbols {
  device_view<const I, ExecSpace> names;
  std::uint64_t n;
  int bits;  // bits_for(K)
  KOKKOS_INLINE_FUNCTION std::uint64_t operator()(std::uint64_t p) const { return p < n ? names(p) : 0; }
};

// rank_of[c] = 1..sigma for the bytes c the text holds (0 for the others); returns sigma.
// `present` and `rank_of` hold 256 entries.
template <class ExecSpace>
unsigned map_alphabet(const ExecSpace& space, const text_view<ExecSpace>& text,
                      const device_view<std::uint32_t, ExecSpace>& present,
                      const device_view<std::uint16_t, ExecSpace>& rank_of) {
  Kokkos::deep_copy(space, present, 0u);
  Kokkos::parallel_for(
      "strix::dc_alphabet", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, text.extent(0)),
      KOKKOS_LAMBDA(const std::int64_t i) {
        const auto c = text(i);
        if (!present(c)) present(c) = 1u;  // read first: few distinct writes on small alphabets
      });
  auto present_h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), present);
  auto rank_h = Kokkos::create_mirror_view(Kokkos::HostSpace(), rank_of);
  unsigned sigma = 0;
  for (int c = 0; c < 256; ++c) rank_h(c) = present_h(c) ? static_cast<std::uint16_t>(++sigma) : 0;
  Kokkos::deep_copy(space, rank_of, rank_h);
  space.fence();
  return sigma;
}

}  // namespace strix::detail
