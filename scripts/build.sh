#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds strix for one Kokkos variant, bootstrapping that Kokkos if needed.
#   scripts/build.sh [openmp|serial|cuda] [BUILD_DIR] [extra cmake args...]
# Default BUILD_DIR: build/VARIANT. A user's own Kokkos is used instead when
# Kokkos_ROOT is set in the environment. For cuda, the strix-host fallback (for machines
# without a usable GPU, and --backend openmp|serial) is built only when asked for:
# STRIX_HOST_FALLBACK_EXE=build/openmp/strix copies a host build's tool, and
# STRIX_HOST_KOKKOS_ROOT=PREFIX builds one against that host-only Kokkos.
# STRIX_PYTHON: the interpreter the Python module is built for (default /usr/bin/python3).
# STRIX_CLI_PARTS_LIBRARY=build/openmp/libstrix_cli_parts.a: link another host build's Kokkos-free
# tool parts instead of compiling them (CI's later host builds do).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
variant="${1:-openmp}"
build="${2:-$here/build/$variant}"
shift $(( $# > 2 ? 2 : $# ))
jobs="${STRIX_JOBS:-$(nproc)}"

"$here/scripts/install-deps.sh"
args=(-DCMAKE_BUILD_TYPE=Release)
# The Python module is built for Debian's interpreter (where install-deps.sh puts NumPy and
# pybind11), not whichever python3 comes first on PATH; STRIX_PYTHON names another.
python="${STRIX_PYTHON:-/usr/bin/python3}"
[ -x "$python" ] && args+=(-DPython3_EXECUTABLE="$python")
if [ -n "${Kokkos_ROOT:-}" ]; then
  prefix="$Kokkos_ROOT"
else
  prefix="$("$here/scripts/bootstrap-kokkos.sh" "$variant" | tail -1)"
fi
args+=(-DKokkos_ROOT="$prefix" -DCMAKE_PREFIX_PATH="$prefix")
# (The parts must come from this source, with the same MPI setting.)
if [ -n "${STRIX_CLI_PARTS_LIBRARY:-}" ]; then
  args+=(-DSTRIX_CLI_PARTS_LIBRARY="$(realpath -m "$STRIX_CLI_PARTS_LIBRARY")")
fi
if [ "$variant" = cuda ]; then
  command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
  export NVCC_WRAPPER_DEFAULT_ARCH="${NVCC_WRAPPER_DEFAULT_ARCH:-sm_90}"
  args+=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper")
  # The host fallback strix-host (cmake/StrixHostFallback.cmake) is opt-in: a host build's
  # strix to copy (STRIX_HOST_FALLBACK_EXE), or a host-only Kokkos to build it with
  # (STRIX_HOST_KOKKOS_ROOT; `scripts/bootstrap-kokkos.sh openmp | tail -1` makes one).
  if [ -n "${STRIX_HOST_FALLBACK_EXE:-}" ]; then
    args+=(-DSTRIX_HOST_FALLBACK_EXE="$(realpath -m "$STRIX_HOST_FALLBACK_EXE")")
  fi
  if [ -n "${STRIX_HOST_KOKKOS_ROOT:-}" ]; then args+=(-DSTRIX_HOST_KOKKOS_ROOT="$STRIX_HOST_KOKKOS_ROOT"); fi
fi
cmake -S "$here" -B "$build" "${args[@]}" "$@" >/dev/null
cmake --build "$build" -j "$jobs"
echo "$build"
