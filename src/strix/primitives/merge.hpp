// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Merge of two sorted sequences by a comparator, with merge path (Green-McColl-Bader;
// Baxter's moderngpu): the output is cut into tiles of equal length, each tile finds
// where it starts in both inputs by one binary search along its cross diagonal, then
// merges its tile sequentially. Every tile does the same work whatever the data, and
// each writes one contiguous piece of the output. Portable: any Kokkos execution space.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/core/device_view.hpp>

namespace strix::primitives {

// Where output position `diag` of the merge of a (na elements) and b (nb) starts: the
// number of elements taken from a (the rest, diag minus it, from b). b_before_a(j, i): b's
// j-th element strictly precedes a's i-th; on ties a's elements come first (stable).
template <class BeforeA>
KOKKOS_INLINE_FUNCTION std::uint64_t merge_path_split(std::uint64_t na, std::uint64_t nb, std::uint64_t diag,
                                                      const BeforeA& b_before_a) {
  std::uint64_t lo = diag > nb ? diag - nb : 0;
  std::uint64_t hi = diag < na ? diag : na;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    if (!b_before_a(diag - 1 - mid, mid)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

// The merge of two sorted sequences known only through b_before_a (see merge_path_split):
// emit(k, from_a, index) is called once for every output position k, with the element's
// side and its index there. Tiles of output merge independently.
template <class ExecSpace, class BeforeA, class Emit>
void merge_by(const ExecSpace& space, std::uint64_t na, std::uint64_t nb, const BeforeA& b_before_a,
              const Emit& emit) {
  const std::uint64_t total = na + nb;
  if (total == 0) return;
  // Host threads take long tiles (few searches); device threads short ones (on an H100,
  // 32 outputs a thread merged 2-3x slower than 8: too few threads in flight).
  const std::uint64_t tile = is_host_space_v<ExecSpace> ? 4096 : 8;
  const std::uint64_t tiles = (total + tile - 1) / tile;
  Kokkos::parallel_for(
      "strix::merge", Kokkos::RangePolicy<ExecSpace, Kokkos::IndexType<std::int64_t>>(space, 0, tiles),
      KOKKOS_LAMBDA(const std::int64_t t) {
        const std::uint64_t begin = static_cast<std::uint64_t>(t) * tile;
        const std::uint64_t end = begin + tile < total ? begin + tile : total;
        std::uint64_t i = merge_path_split(na, nb, begin, b_before_a);
        std::uint64_t j = begin - i;
        for (std::uint64_t k = begin; k < end; ++k) {
          const bool take_a = j >= nb || (i < na && !b_before_a(j, i));
          if (take_a) emit(k, true, i++);
          else emit(k, false, j++);
        }
      });
}

namespace merge_impl {
template <class AView, class BView, class Less>
struct view_before {
  AView a;
  BView b;
  Less less;
  KOKKOS_INLINE_FUNCTION bool operator()(std::uint64_t j, std::uint64_t i) const { return less(b(j), a(i)); }
};
template <class AView, class BView, class OutView>
struct view_emit {
  AView a;
  BView b;
  OutView out;
  KOKKOS_INLINE_FUNCTION void operator()(std::uint64_t k, bool from_a, std::uint64_t idx) const {
    out(k) = from_a ? a(idx) : b(idx);
  }
};
}  // namespace merge_impl

// out[0, na+nb) = the stable merge of sorted a and b (less(x, y): x before y).
// out must not overlap a or b.
template <class ExecSpace, class T, class Less>
void merge(const ExecSpace& space, const device_view<const T, ExecSpace>& a, const device_view<const T, ExecSpace>& b,
           const device_view<T, ExecSpace>& out, const Less& less) {
  using A = device_view<const T, ExecSpace>;
  merge_by(space, a.extent(0), b.extent(0), merge_impl::view_before<A, A, Less>{a, b, less},
           merge_impl::view_emit<A, A, device_view<T, ExecSpace>>{a, b, out});
}

}  // namespace strix::primitives
