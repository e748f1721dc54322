#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine: the whole test suite (doctest suites and CLI scripts) of every
# carried build, then the suffix-array benchmark of one build against a baseline binary,
# their runs alternating. Expects in .carry/: builds.tar.xz (or builds/) holding one folder
# per build with strix and strix_tests (a folder with strix alone is a baseline, not
# tested), lib/ (libdivsufsort*.so*) and data/*.xz (bench/prepare-inputs.sh).
#   bench/run-builds-device.sh BENCH_BUILD BASELINE_BUILD [RUNS]
# STRIX_BENCH_INPUTS as in run-device.sh (default here: english.txt chrX.dna).
# Logs and tables under $OUT (or /tmp/strix-out); a summary table last.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry"
bench_build="$1"; baseline_build="$2"; runs="${3:-5}"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$carry/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
[ -f "$carry/builds.tar.xz" ] && [ ! -d "$carry/builds" ] && tar -xJf "$carry/builds.tar.xz" -C "$carry"
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) ($(nproc) cores); $(date -u +%Y-%m-%dT%H:%MZ)"

summary="$out/tests-summary.txt"; : > "$summary"
for dir in "$carry"/builds/*/; do
  name="$(basename "$dir")"
  [ -x "$dir/strix_tests" ] || continue
  echo "== tests: $name ($("$dir/strix" --version))"
  timeout "${STRIX_TEST_TIMEOUT:-400}" "$dir/strix_tests" > "$out/tests-$name.log" 2>&1
  rc=$?
  cases="$(grep 'test cases:' "$out/tests-$name.log" | tail -1 | sed 's/\[doctest\] //')"
  cli1="$(timeout 120 bash "$root/tests/cli/cli_test.sh" "$dir/strix" 2>&1 | tail -1)"
  cli2="$(timeout 180 bash "$root/tests/cli/cli_lcp_repeats_test.sh" "$dir/strix" 2>&1 | tail -1)"
  echo "| $name | exit $rc | $cases | $cli1 | $cli2 |" | tee -a "$summary"
  [ $rc -eq 0 ] || grep -B3 -A8 'ERROR' "$out/tests-$name.log" | head -40
done

echo "== benchmark: $bench_build against $baseline_build"
STRIX_BENCH_INPUTS="${STRIX_BENCH_INPUTS:-english.txt chrX.dna}" STRIX_BIN="$carry/builds/$bench_build" \
  STRIX_BASELINE="$carry/builds/$baseline_build/strix" bash "$root/bench/run-device.sh" bench "$runs"
echo
echo "| build | strix_tests | doctest | cli | cli_lcp_repeats |"
echo "|---|---|---|---|---|"
cat "$summary"
