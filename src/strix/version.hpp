// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Version and the Kokkos backends this build of libstrix is compiled for (STRIX_ETI_SPACES).
#include <Kokkos_Core.hpp>
#include <string>

#include <strix/config.hpp>

namespace strix {

inline std::string version() { return STRIX_VERSION_STRING; }

inline std::string enabled_backends() {
  std::string s;
  auto add = [&s](const char* name) { s += s.empty() ? name : std::string(", ") + name; };
#if STRIX_ETI_HAS_CUDA
  add("cuda");
#endif
#if STRIX_ETI_HAS_OPENMP
  add("openmp");
#endif
#if STRIX_ETI_HAS_SERIAL
  add("serial");
#endif
  return s;
}

}  // namespace strix
