#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds strix and runs its test suite with ctest.
# STRIX_VARIANT=openmp|serial|cuda picks the Kokkos build (default openmp: the tests
# then run on both the OpenMP and the Serial execution spaces).
# STRIX_TEST_JOBS: test programs run at once (default 2). One alone leaves a core idle for
# most of the run (its oracles, the Serial halves and the tool's scripts are single-threaded):
# two take about two thirds of the time on two cores (bench/NOTES.md, "Build cost", sixth pass).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
variant="${STRIX_VARIANT:-openmp}"
"$here/scripts/build.sh" "$variant" "$here/build/$variant" >/dev/null
export OMP_PROC_BIND="${OMP_PROC_BIND:-false}"
jobs="${STRIX_TEST_JOBS:-2}"
# Beside another test, OpenMP threads that spin while they wait take the core from it.
[ "$jobs" -gt 1 ] && export OMP_WAIT_POLICY="${OMP_WAIT_POLICY:-passive}"
ctest --test-dir "$here/build/$variant" --output-on-failure -j "$jobs" "$@"
