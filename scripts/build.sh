#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds strix for one Kokkos variant, bootstrapping that Kokkos if needed.
#   scripts/build.sh [openmp|serial|cuda] [BUILD_DIR] [extra cmake args...]
# Default BUILD_DIR: build/VARIANT. A user's own Kokkos is used instead when
# Kokkos_ROOT is set in the environment (for cuda, STRIX_HOST_KOKKOS_ROOT names the
# host-only Kokkos of its strix-host fallback; bootstrapped with the default Kokkos).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
variant="${1:-openmp}"
build="${2:-$here/build/$variant}"
shift $(( $# > 2 ? 2 : $# ))
jobs="${STRIX_JOBS:-$(nproc)}"

"$here/scripts/install-deps.sh"
args=(-DCMAKE_BUILD_TYPE=Release)
if [ -n "${Kokkos_ROOT:-}" ]; then
  prefix="$Kokkos_ROOT"
else
  prefix="$("$here/scripts/bootstrap-kokkos.sh" "$variant" | tail -1)"
fi
args+=(-DKokkos_ROOT="$prefix" -DCMAKE_PREFIX_PATH="$prefix")
if [ "$variant" = cuda ]; then
  command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
  export NVCC_WRAPPER_DEFAULT_ARCH="${NVCC_WRAPPER_DEFAULT_ARCH:-sm_90}"
  args+=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper")
  # The host fallback strix-host (cmake/StrixHostFallback.cmake) needs a host-only Kokkos.
  host_prefix="${STRIX_HOST_KOKKOS_ROOT:-}"
  if [ -z "$host_prefix" ] && [ -z "${Kokkos_ROOT:-}" ]; then
    host_prefix="$("$here/scripts/bootstrap-kokkos.sh" openmp | tail -1)"
  fi
  args+=(-DSTRIX_HOST_KOKKOS_ROOT="$host_prefix")
fi
cmake -S "$here" -B "$build" "${args[@]}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
echo "$build"
