// SPDX-License-Identifier: BSD-3-Clause
// The consumer's Kokkos Kernels half: one BLAS call on the same Kokkos as strix's.
#include <KokkosBlas1_dot.hpp>
#include <Kokkos_Core.hpp>

bool kokkos_kernels_dot_ok() {
  Kokkos::View<double*> x("x", 1000), y("y", 1000);
  Kokkos::deep_copy(x, 2.0);
  Kokkos::deep_copy(y, 3.0);
  return KokkosBlas::dot(x, y) == 6000.0;
}
