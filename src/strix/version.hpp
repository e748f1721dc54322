// SPDX-License-Identifier: BSD-3-Clause
#pragma once
// Version, the Kokkos version and the Kokkos backends this build of libstrix is compiled for
// (STRIX_ETI_SPACES).
#include <Kokkos_Core.hpp>
#include <string>

#include <strix/config.hpp>

namespace strix {

inline std::string version() { return STRIX_VERSION_STRING; }

// The Kokkos this build of libstrix is compiled against, as Kokkos names its releases
// ("3.4.01", "4.6.01").
inline std::string kokkos_version() {
  constexpr int v = KOKKOS_VERSION;  // major * 10000 + minor * 100 + patch
  const int patch = v % 100;
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." + (patch < 10 ? "0" : "") +
         std::to_string(patch);
}

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
