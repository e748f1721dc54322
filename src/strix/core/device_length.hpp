// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The length checks of strix/core/length.hpp for one execution space: the index type's limit
// everywhere, and on GPUs the limit of this build's Kokkos (max_device_length).
#include <cstdint>
#include <string>

#include <strix/core/device_view.hpp>
#include <strix/core/length.hpp>

namespace strix {

// invalid_input unless n symbols fit I and, on a GPU, this Kokkos' kernels. `what` names them.
template <class I, class ExecSpace>
void check_length_on(std::uint64_t n, const std::string& what) {
  check_length<I>(n, what);
  if constexpr (!is_host_space_v<ExecSpace>) check_device_length(n, what);
}

}  // namespace strix
