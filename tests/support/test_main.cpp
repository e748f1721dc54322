// SPDX-License-Identifier: BSD-3-Clause
// doctest runner that brings Kokkos up once for all tests.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <Kokkos_Core.hpp>
#include <cstdlib>

int main(int argc, char** argv) {
  setenv("OMP_PROC_BIND", "false", 0);
  Kokkos::ScopeGuard kokkos(argc, argv);
  doctest::Context context(argc, argv);
  return context.run();
}
