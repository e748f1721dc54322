#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A compiler launcher (CMAKE_CXX_COMPILER_LAUNCHER) that records each compile's CPU
# seconds (user + system, the compiler's children included) in $STRIX_COMPILE_TIMES:
# one tab-separated line "cpu_seconds<TAB>wall_seconds<TAB>object" per translation unit.
# scripts/build-cost.sh sums and ranks them.
set -u
log="${STRIX_COMPILE_TIMES:-}"
if [ -z "$log" ]; then exec "$@"; fi
object="?"
prev=""
for a in "$@"; do
  [ "$prev" = "-o" ] && object="$a"
  prev="$a"
done
case "$object" in /*) ;; *) object="$PWD/$object" ;; esac
tmp="$(mktemp)"
/usr/bin/time -o "$tmp" -f "%U %S %e" "$@"
status=$?
read -r user sys wall < <(tail -1 "$tmp")
rm -f "$tmp"
awk -v u="$user" -v s="$sys" -v w="$wall" -v o="$object" 'BEGIN { printf "%.2f\t%s\t%s\n", u + s, w, o }' >> "$log"
exit $status
