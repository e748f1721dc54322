#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine: the CUDA build's suffix-array tests on the CUDA space, then the
# larsson-sadakane tuning grid (strix_bench_ls_tune) on real and generated texts. Expects,
# in DIR (default .carry/ls): bin/*.xz (strix_tests, strix_bench_ls_tune of a CUDA build,
# stripped, xz-compressed), lib/ (libdivsufsort*.so*), data/english.txt.xz, data/chrX.dna.xz.
#   bench/run-ls-device.sh [DIR]
# Writes logs under $OUT (or /tmp/strix-out); prints the tuning table last.
set -uo pipefail
dir="$(cd "${1:-.carry/ls}" && pwd)"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out" /tmp/ls-bin /tmp/ls-in
export LD_LIBRARY_PATH="$dir/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
for f in "$dir"/bin/*.xz; do xz -dc "$f" > "/tmp/ls-bin/$(basename "$f" .xz)"; chmod +x "/tmp/ls-bin/$(basename "$f" .xz)"; done
for f in "$dir"/data/*.xz; do xz -dc -T0 "$f" > "/tmp/ls-in/$(basename "$f" .xz)"; done
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(nproc) cores"
ls -la /tmp/ls-in
timeout "${STRIX_TEST_TIMEOUT:-200}" /tmp/ls-bin/strix_tests --test-suite=sa --test-case='*<Cuda*' > "$out/tests.log" 2>&1
echo "strix_tests (sa, CUDA) exit $?"; tail -3 "$out/tests.log"
grep -B3 -A8 "ERROR" "$out/tests.log" | head -40
timeout "${STRIX_TUNE_TIMEOUT:-300}" /tmp/ls-bin/strix_bench_ls_tune /tmp/ls-in/english.txt /tmp/ls-in/chrX.dna \
  random:67108864 periodic:1000:16777216 --runs 3 > "$out/tune.txt" 2> "$out/tune.err"
echo "strix_bench_ls_tune exit $?"
grep -i "error" "$out/tune.err" | head -5
cat "$out/tune.txt"
