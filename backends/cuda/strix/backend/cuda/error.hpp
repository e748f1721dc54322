// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// CUDA runtime errors as strix::error: allocation failures are device_out_of_memory.
#include <cuda_runtime_api.h>

#include <string>

#include <strix/error.hpp>

namespace strix::backend::cuda {

inline void check(cudaError_t status, const char* what) {
  if (status == cudaSuccess) return;
  (void)cudaGetLastError();  // clear the error state the call left
  const std::string msg = std::string(what) + ": " + cudaGetErrorString(status);
  if (status == cudaErrorMemoryAllocation)
    throw strix::error(strix::error_code::device_out_of_memory, msg);
  throw strix::error(strix::error_code::device_error, msg);
}

}  // namespace strix::backend::cuda
