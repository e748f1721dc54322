// SPDX-License-Identifier: BSD-3-Clause
#include <cuda_runtime.h>

#include <strix/backend/cuda/device_memory.hpp>
#include <strix/backend/cuda/error.hpp>

namespace strix::backend::cuda {

std::size_t device_bytes_in_use() {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return total - free;
}

std::size_t device_bytes_free() {
  std::size_t free = 0, total = 0;
  check(cudaMemGetInfo(&free, &total), "cudaMemGetInfo");
  return free;
}

}  // namespace strix::backend::cuda
