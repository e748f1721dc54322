// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// The (execution space, index type) pairs libstrix is compiled for: the Kokkos backends in
// STRIX_ETI_SPACES (strix/config.hpp: CUDA alone in a CUDA build unless asked, every
// backend in a host build), with 32- and 64-bit indices. Feature headers declare
// their compiled-once functions for these with `extern template` (STRIX_FOR_EACH_ETI), and
// the explicit instantiation files in libstrix define them (src/eti/).
//
// Another execution space: include the feature's detail/*_def.hpp and instantiate it
// yourself with the feature's STRIX_..._INSTANTIATE(SPACE, INDEX) macro.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include <strix/config.hpp>

#if STRIX_ETI_HAS_CUDA
#define STRIX_ETI_SPACE_CUDA(M) M(Kokkos::Cuda)
#define STRIX_ETI_CUDA(M) M(Kokkos::Cuda, std::uint32_t) M(Kokkos::Cuda, std::uint64_t)
#else
#define STRIX_ETI_SPACE_CUDA(M)
#define STRIX_ETI_CUDA(M)
#endif
#if STRIX_ETI_HAS_OPENMP
#define STRIX_ETI_SPACE_OPENMP(M) M(Kokkos::OpenMP)
#define STRIX_ETI_OPENMP(M) M(Kokkos::OpenMP, std::uint32_t) M(Kokkos::OpenMP, std::uint64_t)
#else
#define STRIX_ETI_SPACE_OPENMP(M)
#define STRIX_ETI_OPENMP(M)
#endif
#if STRIX_ETI_HAS_SERIAL
#define STRIX_ETI_SPACE_SERIAL(M) M(Kokkos::Serial)
#define STRIX_ETI_SERIAL(M) M(Kokkos::Serial, std::uint32_t) M(Kokkos::Serial, std::uint64_t)
#else
#define STRIX_ETI_SPACE_SERIAL(M)
#define STRIX_ETI_SERIAL(M)
#endif

// M(SPACE, INDEX) for every pair; M(SPACE) for what depends on the execution space alone.
#define STRIX_FOR_EACH_ETI(M) STRIX_ETI_CUDA(M) STRIX_ETI_OPENMP(M) STRIX_ETI_SERIAL(M)
#define STRIX_FOR_EACH_ETI_SPACE(M) STRIX_ETI_SPACE_CUDA(M) STRIX_ETI_SPACE_OPENMP(M) STRIX_ETI_SPACE_SERIAL(M)
