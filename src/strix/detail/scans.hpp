#pragma once
// Scan functors the algorithms need beyond Kokkos' built-in prefix sum.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix::detail {

// out[k] = max(in(0..k)) where in(k) = flag[k] ? pos[k] : 0 ("the head of k's group").
template <class I, class FlagView, class PosView, class OutView>
struct group_head_scan {
  using value_type = I;
  FlagView flag;
  PosView pos;
  OutView out;

  KOKKOS_INLINE_FUNCTION void operator()(const std::int64_t k, value_type& update,
                                         const bool final) const {
    const I v = flag(k) ? static_cast<I>(pos(k)) : I(0);
    if (v > update) update = v;
    if (final) out(k) = update;
  }
  KOKKOS_INLINE_FUNCTION void init(value_type& v) const { v = 0; }
  KOKKOS_INLINE_FUNCTION void join(volatile value_type& dst, const volatile value_type& src) const {
    if (src > dst) dst = src;
  }
};

// Two running counts in one scan: elements kept, and segments (groups) kept.
template <class I>
struct two_counts {
  I kept;
  I segments;
};

}  // namespace strix::detail
