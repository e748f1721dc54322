#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds strix and runs its test suite with ctest.
# STRIX_VARIANT=openmp|serial|cuda picks the Kokkos build (default openmp: the tests
# then run on both the OpenMP and the Serial execution spaces).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
variant="${STRIX_VARIANT:-openmp}"
"$here/scripts/build.sh" "$variant" "$here/build/$variant" >/dev/null
export OMP_PROC_BIND="${OMP_PROC_BIND:-false}"
ctest --test-dir "$here/build/$variant" --output-on-failure "$@"
