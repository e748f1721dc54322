// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Stable radix sort of key/value pairs (keys and values std::uint32_t or std::uint64_t).
// The generic overloads run the portable default; vendor overloads, more specialised on
// the execution space, take over where vendor.hpp says they are available.
#include <cstddef>

#include <strix/primitives/vendor.hpp>
#include <strix/primitives/portable/radix_sort.hpp>

namespace strix::primitives {

// Scratch bytes radix_sort_pairs<K, V> needs for n pairs on any bit range.
template <class K, class V, class ExecSpace>
std::size_t radix_sort_pairs_scratch_bytes(const ExecSpace& space, std::size_t n) {
  return portable::radix_sort_pairs_scratch_bytes(space, n);
}

// Sorts (keys, vals) stably by key bits [begin_bit, end_bit); *_alt are scratch of the
// same length. Returns true when the sorted pairs ended in the *_alt views. The template
// parameters are in the vendor overloads' order (K, V), so that a call spelling them still
// reaches those overloads, and one spelling the space first does not compile.
template <class K, class V, class ExecSpace>
bool radix_sort_pairs(const ExecSpace& space, workspace<ExecSpace>& ws,
                      const device_view<K, ExecSpace>& keys, const device_view<K, ExecSpace>& keys_alt,
                      const device_view<V, ExecSpace>& vals, const device_view<V, ExecSpace>& vals_alt,
                      int begin_bit, int end_bit) {
  return portable::radix_sort_pairs(space, ws, keys, keys_alt, vals, vals_alt, begin_bit, end_bit);
}

}  // namespace strix::primitives

#if STRIX_VENDOR_HOST
#include <strix/backend/host/radix_sort.hpp>
#endif
#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/radix_sort.hpp>
#endif
