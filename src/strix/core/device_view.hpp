// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// strix's vocabulary view types, taken by the primitives and the compiled-once algorithms:
// unmanaged contiguous rank-1 views in the execution space's memory space.
#include <Kokkos_Core.hpp>
#include <cstdint>

namespace strix {

template <class T, class ExecSpace>
using device_view = Kokkos::View<T*, typename ExecSpace::memory_space, Kokkos::MemoryUnmanaged>;

template <class ExecSpace>
using text_view = device_view<const std::uint8_t, ExecSpace>;

// True for execution spaces whose memory the host can read (OpenMP, Serial, ...).
template <class ExecSpace>
constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename ExecSpace::memory_space>::accessible;

}  // namespace strix
