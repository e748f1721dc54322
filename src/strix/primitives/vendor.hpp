// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Which primitives have a vendor overload for an execution space in this build, asked in one
// place (as Kokkos Kernels' *_tpl_spec_avail): the primitive headers include their vendor
// overloads by STRIX_VENDOR_CUDA / STRIX_VENDOR_HOST, and code and tests ask
// vendor_available_v<primitive::P, ExecSpace>. STRIX_VENDOR_PRIMITIVES=OFF turns every one off
// (the portable Kokkos defaults then run everywhere).
#include <Kokkos_Core.hpp>
#include <type_traits>

#include <strix/config.hpp>

#if STRIX_VENDOR_PRIMITIVES && defined(KOKKOS_ENABLE_CUDA)
#define STRIX_VENDOR_CUDA 1  // CUB: every primitive
#else
#define STRIX_VENDOR_CUDA 0
#endif
#if STRIX_VENDOR_PRIMITIVES
#define STRIX_VENDOR_HOST 1  // tuned host code (backends/host/): radix and segmented sorts
#else
#define STRIX_VENDOR_HOST 0
#endif

namespace strix::primitives {

enum class primitive { radix_sort, segmented_sort, small_segment_sort, scan, select, histogram, streams };

template <primitive P, class ExecSpace>
struct vendor_available : std::false_type {};

#if STRIX_VENDOR_CUDA
template <primitive P>
struct vendor_available<P, Kokkos::Cuda> : std::true_type {};
#endif
#if STRIX_VENDOR_HOST
#ifdef KOKKOS_ENABLE_OPENMP
template <>
struct vendor_available<primitive::radix_sort, Kokkos::OpenMP> : std::true_type {};
template <>
struct vendor_available<primitive::segmented_sort, Kokkos::OpenMP> : std::true_type {};
#endif
#ifdef KOKKOS_ENABLE_SERIAL
template <>
struct vendor_available<primitive::radix_sort, Kokkos::Serial> : std::true_type {};
template <>
struct vendor_available<primitive::segmented_sort, Kokkos::Serial> : std::true_type {};
#endif
#endif

template <primitive P, class ExecSpace>
constexpr bool vendor_available_v = vendor_available<P, ExecSpace>::value;

}  // namespace strix::primitives
