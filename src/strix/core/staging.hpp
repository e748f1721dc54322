// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Host memory on the way to and from an execution space's memory: pinned for CUDA (copies run
// by DMA, asynchronously, without page faults), plain host memory otherwise.
#include <Kokkos_Core.hpp>

namespace strix {

template <class ExecSpace>
struct staging_space {
  using type = Kokkos::HostSpace;
};
#ifdef KOKKOS_ENABLE_CUDA
template <>
struct staging_space<Kokkos::Cuda> {
  using type = Kokkos::CudaHostPinnedSpace;
};
#endif

template <class ExecSpace>
using staging_space_t = typename staging_space<ExecSpace>::type;

}  // namespace strix
