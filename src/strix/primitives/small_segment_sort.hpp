// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Sort of many small listed segments of key/value pairs in place (one team or warp per
// segment, in fast scratch memory); portable default and vendor overloads (see
// radix_sort.hpp).
#include <cstddef>

#include <strix/primitives/vendor.hpp>
#include <strix/primitives/portable/small_segment_sort.hpp>

namespace strix::primitives {

using portable::small_segment_max;

// Sorts (keys, vals) by key inside every segment [offsets(s), offsets(s + 1)) for s in
// `segments`; every such segment has at most max_len <= small_segment_max pairs. Equal
// keys end in any order.
template <class ExecSpace, class K, class V, class O>
void sort_small_segments(const ExecSpace& space, const device_view<K, ExecSpace>& keys,
                         const device_view<V, ExecSpace>& vals, const device_view<const O, ExecSpace>& offsets,
                         const device_view<const O, ExecSpace>& segments, std::size_t max_len) {
  portable::sort_small_segments(space, keys, vals, offsets, segments, max_len);
}

}  // namespace strix::primitives

#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/small_segment_sort.hpp>
#endif
