#!/usr/bin/env bash
# Runs on the GPU machine: compute-sanitizer's memcheck (with leak check) and racecheck over
# every CUDA test case of strix_tests (names "<Cuda/32>", "<Cuda/64>"). The cases are cut
# into slices run side by side (racecheck is slow), each bounded by a time limit; prints
# per tool the errors found and the test cases finished, last.
#   bench/run-sanitizer-device.sh PATH/TO/strix_tests [SECONDS (default 480)]
# STRIX_SANITIZER_SLICES="memcheck:4 racecheck:12" sets the slices per tool.
set -uo pipefail
tests="$1"; limit="${2:-480}"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out"
cs="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $("$cs" --version | tail -1); $(date -u +%Y-%m-%dT%H:%MZ)"
export OMP_PROC_BIND=false OMP_NUM_THREADS=1  # the host test cases are skipped; keep cores for the tools
filter='*<Cuda*'
cases="$("$tests" --test-case="$filter" --list-test-cases 2>/dev/null | grep -c '<Cuda')"
echo "CUDA test cases: $cases"
declare -A extra=([memcheck]="--leak-check full" [racecheck]="")
for spec in ${STRIX_SANITIZER_SLICES:-memcheck:4 racecheck:12}; do
  tool="${spec%%:*}"; slices="${spec##*:}"; per=$(( (cases + slices - 1) / slices ))
  for ((s = 0; s < slices; ++s)); do
    # shellcheck disable=SC2086
    timeout "$limit" "$cs" --tool "$tool" ${extra[$tool]} --error-exitcode 99 --print-limit 20 \
      "$tests" --test-case="$filter" --first=$((s * per + 1)) --last=$(((s + 1) * per)) \
      > "$out/sanitizer-$tool-$s.log" 2>&1 &
  done
done
wait
echo "| tool | errors (sum of slices) | slices without a summary | CUDA test cases passed | failed or unfinished |"
echo "|---|---|---|---|---|"
for tool in memcheck racecheck; do
  errors=0 missing=0 passed=0 failed=0
  for log in "$out"/sanitizer-$tool-*.log; do
    [ -f "$log" ] || continue
    e="$(grep -h 'ERROR SUMMARY' "$log" | tail -1 | grep -o '[0-9]\+ error' | grep -o '[0-9]\+')"
    if [ -n "$e" ]; then errors=$((errors + e)); else missing=$((missing + 1)); fi
    line="$(grep 'test cases:' "$log" | tail -1)"
    p="$(echo "$line" | sed -n 's/.*| *\([0-9]\+\) passed.*/\1/p')"; f="$(echo "$line" | sed -n 's/.*| *\([0-9]\+\) failed.*/\1/p')"
    passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
    [ -z "$line" ] && grep -h 'TEST CASE:' "$log" | tail -1 | sed "s|^|  unfinished in $(basename "$log"): |"
  done
  echo "| $tool | $errors | $missing | $passed of $cases | $failed |"
done
