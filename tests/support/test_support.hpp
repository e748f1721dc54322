// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Execution spaces and index types every test runs on (those libstrix is compiled for:
// STRIX_ETI_SPACES), and host<->device helpers.
#include <doctest/doctest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <tuple>
#include <vector>

#include <strix/config.hpp>
#include <strix/core/copy.hpp>

#include "oracle.hpp"

namespace strix_test {

template <class Space, class Index>
struct config {
  using space = Space;
  using index = Index;
  using memory_space = typename Space::memory_space;
};

using all_configs = decltype(std::tuple_cat(
#if STRIX_ETI_HAS_CUDA
    std::tuple<config<Kokkos::Cuda, std::uint32_t>, config<Kokkos::Cuda, std::uint64_t>>{},
#endif
#if STRIX_ETI_HAS_OPENMP
    std::tuple<config<Kokkos::OpenMP, std::uint32_t>, config<Kokkos::OpenMP, std::uint64_t>>{},
#endif
#if STRIX_ETI_HAS_SERIAL
    std::tuple<config<Kokkos::Serial, std::uint32_t>, config<Kokkos::Serial, std::uint64_t>>{},
#endif
    std::tuple<>{}));

// The first of them, for the tests that need one execution space only.
using first_space = typename std::tuple_element_t<0, all_configs>::space;
using first_memory = typename first_space::memory_space;

}  // namespace strix_test

// Test names carry the backend and width, e.g. "suffix array<Cuda/32>", so that one backend
// can be picked: strix_tests --test-case='*<Cuda*' (compute-sanitizer runs on the device).
#if STRIX_ETI_HAS_CUDA
TYPE_TO_STRING_AS("Cuda/32", strix_test::config<Kokkos::Cuda, std::uint32_t>);
TYPE_TO_STRING_AS("Cuda/64", strix_test::config<Kokkos::Cuda, std::uint64_t>);
#endif
#if STRIX_ETI_HAS_OPENMP
TYPE_TO_STRING_AS("OpenMP/32", strix_test::config<Kokkos::OpenMP, std::uint32_t>);
TYPE_TO_STRING_AS("OpenMP/64", strix_test::config<Kokkos::OpenMP, std::uint64_t>);
#endif
#if STRIX_ETI_HAS_SERIAL
TYPE_TO_STRING_AS("Serial/32", strix_test::config<Kokkos::Serial, std::uint32_t>);
TYPE_TO_STRING_AS("Serial/64", strix_test::config<Kokkos::Serial, std::uint64_t>);
#endif

namespace strix_test {

// Copies go through strix::copy (compiled once into libstrix), not Kokkos::deep_copy, whose
// copy kernels would be instantiated here for every element type.
template <class Memory, class T>
Kokkos::View<T*, Memory> to_view(const std::vector<T>& v) {
  Kokkos::View<T*, Memory> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "strix_test::data"), v.size());
  strix::copy(d, Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()));
  return d;
}

template <class View>
std::vector<typename View::non_const_value_type> to_vector(const View& d) {
  using T = typename View::non_const_value_type;
  std::vector<T> v(d.size());
  strix::copy(Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(v.data(), v.size()), d);
  return v;
}

}  // namespace strix_test
