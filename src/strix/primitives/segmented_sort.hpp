// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Sort of key/value pairs inside segments given by offsets; portable default and vendor
// overloads (see radix_sort.hpp).
#include <cstddef>

#include <strix/primitives/vendor.hpp>
#include <strix/primitives/portable/segmented_sort.hpp>

namespace strix::primitives {

// Scratch bytes segmented_sort_pairs<K, V, O> needs for n pairs in num_segments segments.
template <class K, class V, class O, class ExecSpace>
std::size_t segmented_sort_pairs_scratch_bytes(const ExecSpace& space, std::size_t n,
                                               std::size_t /*num_segments*/) {
  return portable::segmented_sort_pairs_scratch_bytes(space, n);
}

// Sorts (keys, vals) by key bits [0, key_bits) inside each segment [offsets(s),
// offsets(s + 1)); returns true when the result ended in the *_alt views.
// (Template parameters in the vendor overloads' order: see radix_sort_pairs.)
template <class K, class V, class O, class ExecSpace>
bool segmented_sort_pairs(const ExecSpace& space, workspace<ExecSpace>& ws,
                          const device_view<K, ExecSpace>& keys, const device_view<K, ExecSpace>& keys_alt,
                          const device_view<V, ExecSpace>& vals, const device_view<V, ExecSpace>& vals_alt,
                          const device_view<const O, ExecSpace>& offsets, std::size_t num_segments,
                          int key_bits) {
  return portable::segmented_sort_pairs(space, ws, keys, keys_alt, vals, vals_alt, offsets,
                                        num_segments, key_bits);
}

}  // namespace strix::primitives

#if STRIX_VENDOR_HOST
#include <strix/backend/host/segmented_sort.hpp>
#endif
#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/segmented_sort.hpp>
#endif
