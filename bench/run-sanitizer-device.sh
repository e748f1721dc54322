#!/usr/bin/env bash
# Runs on the GPU machine: compute-sanitizer's memcheck (with leak check) and racecheck over
# every CUDA test case of strix_tests (names "<Cuda/32>", "<Cuda/64>"), side by side, each
# bounded by a time limit; prints each tool's error summary and doctest's totals last.
#   bench/run-sanitizer-device.sh PATH/TO/strix_tests [SECONDS (default 240)]
set -uo pipefail
tests="$1"; limit="${2:-240}"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out"
cs="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $("$cs" --version | tail -1); $(date -u +%Y-%m-%dT%H:%MZ)"
declare -A extra=([memcheck]="--leak-check full" [racecheck]="")
for tool in memcheck racecheck; do
  # shellcheck disable=SC2086
  timeout "$limit" "$cs" --tool "$tool" ${extra[$tool]} --error-exitcode 99 --print-limit 20 \
    "$tests" --test-case='*<Cuda*' > "$out/sanitizer-$tool.log" 2>&1 &
done
wait
echo "| tool | errors | doctest test cases | assertions |"
echo "|---|---|---|---|"
for tool in memcheck racecheck; do
  log="$out/sanitizer-$tool.log"
  summary="$(grep -h 'ERROR SUMMARY' "$log" | tail -1 | sed 's/========= //')"
  cases="$(grep 'test cases:' "$log" | tail -1 | sed 's/\[doctest\] test cases: *//')"
  asserts="$(grep 'assertions:' "$log" | tail -1 | sed 's/\[doctest\] assertions: *//')"
  echo "| $tool | ${summary:-no summary (time limit?)} | ${cases:-unfinished} | ${asserts:-} |"
done
