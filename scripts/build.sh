#!/usr/bin/env bash
# Builds strix for one Kokkos variant, bootstrapping that Kokkos if needed.
#   scripts/build.sh [openmp|serial|cuda] [BUILD_DIR] [extra cmake args...]
# Default BUILD_DIR: build/VARIANT. A user's own Kokkos is used instead when
# Kokkos_ROOT is set in the environment.
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
fi
cmake -S "$here" -B "$build" "${args[@]}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
echo "$build"
