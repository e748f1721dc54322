// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Version and the Kokkos backends this build of strix was compiled with.
#include <Kokkos_Core.hpp>
#include <string>

#include <strix/config.hpp>

namespace strix {

inline std::string version() { return STRIX_VERSION_STRING; }

inline std::string enabled_backends() {
  std::string s;
  auto add = [&s](const char* name) { s += s.empty() ? name : std::string(", ") + name; };
#ifdef KOKKOS_ENABLE_CUDA
  add("cuda");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  add("openmp");
#endif
#ifdef KOKKOS_ENABLE_SERIAL
  add("serial");
#endif
  return s;
}

}  // namespace strix
