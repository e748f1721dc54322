#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine: compute-sanitizer's memcheck (with leak check) and racecheck over
# every CUDA test case of strix_tests (names end in "<Cuda/32>" or "<Cuda/64>"), one slice
# per test suite and width, all slices side by side, each bounded by a time limit. Prints
# per tool the errors, the race warnings (and how many of them sit in Kokkos' own
# parallel_reduce, known to racecheck before Kokkos 4.3) and the test cases finished, last.
#   bench/run-sanitizer-device.sh PATH/TO/strix_tests [SECONDS (default 480)] [TOOLS]
set -uo pipefail
tests="$1"; limit="${2:-480}"; tools="${3:-memcheck racecheck}"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out"
cs="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $("$cs" --version | tail -1); $(date -u +%Y-%m-%dT%H:%MZ)"
export OMP_PROC_BIND=false OMP_NUM_THREADS=1  # host test cases are filtered out; cores go to the tools
cases="$("$tests" --test-case='*<Cuda*' --list-test-cases 2>/dev/null | grep -c '<Cuda')"
echo "CUDA test cases: $cases"
declare -A extra=([memcheck]="--leak-check full" [racecheck]="")
for tool in $tools; do
  for suite in primitives sa bwt lcp repeats index; do
    for width in 32 64; do
      # shellcheck disable=SC2086
      timeout "$limit" "$cs" --tool "$tool" ${extra[$tool]} --error-exitcode 99 --print-limit 50 \
        "$tests" --test-suite="$suite" --test-case="*<Cuda/$width>" > "$out/sanitizer-$tool-$suite-$width.log" 2>&1 &
    done
  done
done
wait
echo "| tool | errors | race warnings (in Kokkos parallel_reduce) | slices unfinished | CUDA test cases passed | failed |"
echo "|---|---|---|---|---|---|"
for tool in $tools; do
  errors=0 races=0 kokkos=0 unfinished=0 passed=0 failed=0
  for log in "$out"/sanitizer-$tool-*.log; do
    e="$(grep -h 'ERROR SUMMARY' "$log" | tail -1 | grep -o '[0-9]\+ error' | grep -o '[0-9]\+')"
    [ -n "$e" ] && errors=$((errors + e)) || { unfinished=$((unfinished + 1)); echo "  unfinished: $(basename "$log") at $(grep 'TEST CASE:' "$log" | tail -1)"; }
    races=$((races + $(grep -c 'Race reported' "$log")))
    kokkos=$((kokkos + $(grep 'Race reported' "$log" | grep -c 'ParallelReduce')))
    line="$(grep 'test cases:' "$log" | tail -1)"
    p="$(echo "$line" | sed -n 's/.*| *\([0-9]\+\) passed.*/\1/p')"; f="$(echo "$line" | sed -n 's/.*| *\([0-9]\+\) failed.*/\1/p')"
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  done
  echo "| $tool | $errors | $races ($kokkos) | $unfinished | $passed of $cases | $failed |"
done
