// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Bytes in use on the current CUDA device (cudaMemGetInfo: every allocation of the device,
// the CUDA context's too). No CUDA runtime type here.
#include <cstddef>

namespace strix::backend::cuda {

std::size_t device_bytes_in_use();
std::size_t device_bytes_free();

}  // namespace strix::backend::cuda
