#pragma once
// Merge of two sorted sequences by a comparator, with merge path (Green-McColl-Bader;
// Baxter's moderngpu): the output is cut into tiles of equal length, each tile finds
// where it starts in both inputs by one binary search along its cross diagonal, then
// merges its tile sequentially. Every tile does the same work whatever the data, and
// each writes one contiguous piece of the output. Portable: any Kokkos execution space.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/primitives/views.hpp>

namespace strix::primitives {

// Where output position `diag` of merge(a, b) starts: the number of elements taken from
// a (the rest, diag minus it, from b). Stable: on ties a's elements come first.
template <class AView, class BView, class Less>
KOKKOS_INLINE_FUNCTION std::uint64_t merge_path_split(const AView& a, std::uint64_t na, const BView& b,
                                                      std::uint64_t nb, std::uint64_t diag, const Less& less) {
  std::uint64_t lo = diag > nb ? diag - nb : 0;
  std::uint64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    // a[mid] precedes b[diag-1-mid] unless b's is strictly smaller.
    if (!less(b(diag - 1 - mid), a(mid))) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// out[0, na+nb) = the stable merge of sorted a and b (less(x, y): x before y).
// out must not overlap a or b.
template <class ExecSpace, class T, class Less>
void merge(const ExecSpace& space, const device_view<const T, ExecSpace>& a, const device_view<const T, ExecSpace>& b,
           const device_view<T, ExecSpace>& out, const Less& less) {
  const std::uint64_t na = a.extent(0), nb = b.extent(0), total = na + nb;
  if (total == 0) return;
  // Host threads take long tiles (few searches); device threads short ones.
  const std::uint64_t tile = is_host_space_v<ExecSpace> ? 4096 : 8;
  const std::uint64_t tiles = (total + tile - 1) / tile;
  Kokkos::parallel_for(
      "strix::merge", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles),
      KOKKOS_LAMBDA(const std::int64_t t) {
        const std::uint64_t begin = static_cast<std::uint64_t>(t) * tile;
        const std::uint64_t end = begin + tile < total ? begin + tile : total;
        std::uint64_t i = merge_path_split(a, na, b, nb, begin, less);
        std::uint64_t j = begin - i;
        for (std::uint64_t k = begin; k < end; ++k) {
          const bool take_a = j >= nb || (i < na && !less(b(j), a(i)));
          out(k) = take_a ? a(i++) : b(j++);
        }
      });
}

}  // namespace strix::primitives
