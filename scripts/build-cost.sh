#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# What a build from scratch costs: CPU seconds (user + system, all processes) and wall time of
# `scripts/build.sh VARIANT` into an empty folder (library, tests and tool; for cuda, the host
# fallback only when STRIX_HOST_FALLBACK_EXE or STRIX_HOST_KOKKOS_ROOT asks for it), then the
# most expensive translation units.
#
#   scripts/build-cost.sh [cuda|openmp|serial] [TOP] [extra cmake args...]
#
# Kokkos must be bootstrapped already (its build is not counted). The per-unit times come from
# scripts/compile-timer.sh as compiler launcher; the table is also kept in BUILD/compile-times.tsv.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
variant="${1:-cuda}"
top="${2:-10}"
shift $(( $# > 2 ? 2 : $# ))
build="${STRIX_BUILD_COST_DIR:-$(mktemp -d /tmp/strix-build-cost.XXXXXX)}"
build="$(realpath -m "$build")"
rm -rf "$build" && mkdir -p "$build"
# Bootstrap outside the measurement (a no-op when cached).
"$here/scripts/bootstrap-kokkos.sh" "$variant" >/dev/null
# This machine's speed right now: the CPU seconds g++ spends on a unit that includes only
# Kokkos_Core.hpp (median of 3, before and after the build). Shared 2-core machines drift by
# more than half between hours; divide totals by this to compare runs made at different times.
reference_seconds() {
  local unit="$build/reference.cpp" openmp_prefix
  openmp_prefix="$("$here/scripts/bootstrap-kokkos.sh" openmp | tail -1)"
  echo '#include <Kokkos_Core.hpp>' > "$unit"
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S" g++ -std=c++17 -O2 -fopenmp -isystem "$openmp_prefix/include" -c "$unit" -o /dev/null 2>&1 |
      awk '{ print $1 + $2 }'
  done | sort -g | sed -n 2p
}
reference_before="$(reference_seconds)"
export STRIX_COMPILE_TIMES="$build/compile-times.tsv"
: > "$STRIX_COMPILE_TIMES"
/usr/bin/time -o "$build/total.time" -f "%U %S %e" \
  "$here/scripts/build.sh" "$variant" "$build" -DCMAKE_CXX_COMPILER_LAUNCHER="$here/scripts/compile-timer.sh" "$@" \
  >"$build/build.log" 2>&1 || { tail -30 "$build/build.log" >&2; exit 1; }
read -r user sys wall < "$build/total.time"
units="$(wc -l < "$STRIX_COMPILE_TIMES")"
compile="$(awk -F'\t' '{ s += $1 } END { printf "%.0f", s }' "$STRIX_COMPILE_TIMES")"
echo "strix build cost ($variant, $(date -u +%Y-%m-%dT%H:%MZ), $(git -C "$here" rev-parse --short HEAD), $(nproc) cores):"
awk -v u="$user" -v s="$sys" -v w="$wall" -v c="$compile" -v n="$units" 'BEGIN {
  printf "  total %.0f CPU s (%.0f user + %.0f system), %.0f s wall; %d compiled units, %s CPU s compiling\n", u + s, u, s, w, n, c }'
echo "  machine speed reference (Kokkos_Core-only unit, g++ -O2): $reference_before s before, $(reference_seconds) s after"
echo "  the $top most expensive units (CPU s, object):"
sort -t$'\t' -k1,1 -g -r "$STRIX_COMPILE_TIMES" | head -n "$top" |
  awk -F'\t' -v root="$build/" '{ o = $3; sub(root, "", o); printf "  %7.1f  %s\n", $1, o }'
echo "  (kept in $build)"
