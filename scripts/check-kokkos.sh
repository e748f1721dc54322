#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# strix against a Kokkos of your own (issue 52: the newest Kokkos obtainable, checked beside
# the bootstrapped 3.4.01): configures, builds and runs the whole suite (doctest suites, CLI
# scripts, pytest, the Spack recipe) with the Kokkos installed at PREFIX, then the
# downstream package test, and prints one summary line.
#   scripts/check-kokkos.sh KOKKOS_PREFIX [BUILD_DIR] [extra cmake args...]
# KOKKOS_PREFIX holds lib*/cmake/Kokkos (and KokkosKernels for Kokkos 3.x; CMAKE_PREFIX_PATH
# may name a Kokkos Kernels elsewhere). A Kokkos built without position-independent code
# (CMAKE_POSITION_INDEPENDENT_CODE) cannot go into the Python module: pass
# -DSTRIX_ENABLE_PYTHON=OFF for one. CUDA Kokkos: build here, run the suite through
# scripts/device-check.sh instead. KOKKOS_KERNELS_ROOT=PREFIX (a Kokkos Kernels built on the
# same Kokkos): strix is configured with it on CMAKE_PREFIX_PATH, and the downstream project
# links it beside strix (a BLAS call and strix's calls in one program).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
prefix="$(realpath "$1")"
build="$(realpath -m "${2:-$here/build/kokkos-$(basename "$prefix")}")"
shift $(( $# > 2 ? 2 : $# ))
jobs="${STRIX_JOBS:-$(nproc)}"
log="$build.log"
mkdir -p "$build"
version="$(grep -rhoE 'set\(PACKAGE_VERSION "[0-9.]+"' "$prefix"/lib*/cmake/Kokkos/KokkosConfigVersion.cmake | grep -oE '[0-9.]+' | head -1)"
echo "strix $(git -C "$here" rev-parse --short HEAD) against Kokkos ${version:-?} at $prefix (build: $build, log: $log)"
kernels="${KOKKOS_KERNELS_ROOT:+$(realpath "$KOKKOS_KERNELS_ROOT")}"
kernels_version=""
[ -n "$kernels" ] && kernels_version="$(grep -rhoE 'set\(PACKAGE_VERSION "[0-9.]+"' "$kernels"/lib*/cmake/KokkosKernels/KokkosKernelsConfigVersion.cmake | grep -oE '[0-9.]+' | head -1)"
[ -n "$kernels" ] && echo "with Kokkos Kernels ${kernels_version:-?} at $kernels"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
  -DCMAKE_PREFIX_PATH="$prefix${kernels:+;$kernels}${CMAKE_PREFIX_PATH:+;$CMAKE_PREFIX_PATH}" -DPython3_EXECUTABLE=/usr/bin/python3 "$@" > "$log" 2>&1 ||
  { tail -20 "$log"; echo "configure failed"; exit 1; }
cmake --build "$build" -j "$jobs" >> "$log" 2>&1 || { grep -E 'error|Error' "$log" | head -20; echo "build failed"; exit 1; }
warnings="$(grep -c 'warning:' "$log")"
(cd "$build" && OMP_PROC_BIND=false ctest -j 2 --output-on-failure) >> "$log" 2>&1
rc=$?
summary="$(grep -E 'tests passed|tests failed' "$log" | tail -1)"
# The installed package used downstream, built against the same Kokkos.
consumer="skipped"
install="$(mktemp -d)"
if cmake --install "$build" --prefix "$install" >> "$log" 2>&1 &&
   cmake -S "$here/tests/consumer" -B "$install/consumer" -DCMAKE_PREFIX_PATH="$install;$prefix${kernels:+;$kernels}" \
     ${kernels:+-DSTRIX_CONSUMER_WITH_KOKKOS_KERNELS=ON} >> "$log" 2>&1 &&
   cmake --build "$install/consumer" >> "$log" 2>&1 && "$install/consumer/consumer" >> "$log" 2>&1; then
  consumer="passed"
else consumer="FAILED"; rc=1; fi
rm -rf "$install"
echo "Kokkos ${version:-?}${kernels:+ + Kokkos Kernels ${kernels_version:-?}}: ctest: ${summary:-no summary}; build warnings: $warnings; downstream package: $consumer"
[ "$rc" -eq 0 ] && [ "$warnings" -eq 0 ]
