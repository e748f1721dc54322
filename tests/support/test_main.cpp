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
  // STRIX_TEST_CASE_EXCLUDE: doctest's --test-case-exclude for every test program ctest starts
  // (a CI stage narrows its configurations with it, e.g. "*<Serial/64>*").
  if (const char* exclude = std::getenv("STRIX_TEST_CASE_EXCLUDE"); exclude && *exclude)
    context.addFilter("test-case-exclude", exclude);
  return context.run();
}
