#pragma once
// The (execution space, index type) pairs libstrix is compiled for: every Kokkos
// backend enabled in this build, with 32- and 64-bit indices. Feature headers declare
// their compiled-once functions for these with `extern template` (STRIX_FOR_EACH_ETI), and
// the explicit instantiation files in libstrix define them (src/eti/).
//
// Another execution space: include the feature's detail/*_def.hpp and instantiate it
// yourself with the feature's STRIX_..._INSTANTIATE(SPACE, INDEX) macro.
#include <Kokkos_Core.hpp>
#include <cstdint>

#ifdef KOKKOS_ENABLE_CUDA
#define STRIX_ETI_CUDA(M) M(Kokkos::Cuda, std::uint32_t) M(Kokkos::Cuda, std::uint64_t)
#else
#define STRIX_ETI_CUDA(M)
#endif
#ifdef KOKKOS_ENABLE_OPENMP
#define STRIX_ETI_OPENMP(M) M(Kokkos::OpenMP, std::uint32_t) M(Kokkos::OpenMP, std::uint64_t)
#else
#define STRIX_ETI_OPENMP(M)
#endif
#ifdef KOKKOS_ENABLE_SERIAL
#define STRIX_ETI_SERIAL(M) M(Kokkos::Serial, std::uint32_t) M(Kokkos::Serial, std::uint64_t)
#else
#define STRIX_ETI_SERIAL(M)
#endif

#define STRIX_FOR_EACH_ETI(M) STRIX_ETI_CUDA(M) STRIX_ETI_OPENMP(M) STRIX_ETI_SERIAL(M)
