// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Histogram of a byte array; portable default and vendor overloads (see radix_sort.hpp).
#include <cstdint>

#include <strix/primitives/vendor.hpp>
#include <strix/primitives/portable/histogram.hpp>

namespace strix::primitives {

// counts(c) = occurrences of byte c in values; counts has 256 entries.
template <class ExecSpace>
void byte_histogram(const ExecSpace& space, workspace<ExecSpace>& ws,
                    const device_view<const std::uint8_t, ExecSpace>& values,
                    const device_view<std::uint64_t, ExecSpace>& counts) {
  portable::byte_histogram(space, ws, values, counts);
}

}  // namespace strix::primitives

#if STRIX_VENDOR_HOST
#include <strix/backend/host/histogram.hpp>
#endif
#if STRIX_VENDOR_CUDA
#include <strix/backend/cuda/histogram.hpp>
#endif
