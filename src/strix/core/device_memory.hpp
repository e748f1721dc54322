// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The device memory in use and free, where the backend can tell (CUDA: cudaMemGetInfo, every
// allocation of the device, the CUDA context's too); host backends answer 0 ("not known"): their
// memory is the process's. For choices by size (`auto` on a GPU, the distributed constructions)
// and measured peaks.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include <strix/config.hpp>

#if defined(KOKKOS_ENABLE_CUDA) && STRIX_ETI_HAS_CUDA
#include <strix/backend/cuda/device_memory.hpp>
#endif

namespace strix::detail {

template <class ExecSpace>
struct device_memory_in_use {
  static std::size_t bytes() { return 0; }
  static std::size_t free_bytes() { return 0; }  // 0: not known
};
#if defined(KOKKOS_ENABLE_CUDA) && STRIX_ETI_HAS_CUDA
template <>
struct device_memory_in_use<Kokkos::Cuda> {
  static std::size_t bytes() { return backend::cuda::device_bytes_in_use(); }
  static std::size_t free_bytes() { return backend::cuda::device_bytes_free(); }
};
#endif

}  // namespace strix::detail
