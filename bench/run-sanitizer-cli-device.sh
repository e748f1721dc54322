#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine: compute-sanitizer racecheck and memcheck over every GPU kernel the
# strix tool runs (sa, bwt, lcp, repeats raw/compact/all, check: the prefix-doubling rounds,
# CUB sorts and scans, the checker, Phi-LCP, the repeat queries), on small texts that take
# every path: random bytes, DNA, one repeated byte (many rounds, large segments), a
# Fibonacci word and a short period (many small segments). Much faster than the test suite
# under racecheck, which spends minutes per test case. Prints a table last.
#   bench/run-sanitizer-cli-device.sh PATH/TO/strix [SECONDS per run (default 240)]
set -uo pipefail
strix="$1"; limit="${2:-240}"
out="${OUT:-/tmp/strix-out}/sanitizer-cli"
mkdir -p "$out/data"
cs="$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)"
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $("$cs" --version | tail -1); $(date -u +%Y-%m-%dT%H:%MZ)"
d="$out/data"
head -c 60000 /dev/urandom > "$d/random.bin"
head -c 60000 /dev/urandom | tr -dc 'ACGT' | head -c 40000 > "$d/dna.txt"
head -c 50000 /dev/zero | tr '\0' 'a' > "$d/equal.txt"
a=a; b=ab; while [ ${#b} -lt 30000 ]; do c="$b$a"; a="$b"; b="$c"; done; printf '%s' "${b:0:30000}" > "$d/fibonacci.txt"
for i in $(seq 1 4000); do printf 'abcabcx'; done > "$d/period.txt"
jobs=()
for tool in racecheck memcheck; do
  for input in random.bin dna.txt equal.txt fibonacci.txt period.txt; do
    (
      log="$out/$tool-$input.log"; : > "$log"
      for cmd in "sa $d/$input -o $out/$tool-$input.sa" "check $d/$input $out/$tool-$input.sa" \
                 "bwt $d/$input -o $out/$tool-$input.bwt" "lcp $d/$input -o $out/$tool-$input.lcp" \
                 "repeats $d/$input -o $out/$tool-$input.rep --method raw" \
                 "repeats $d/$input -o $out/$tool-$input.rep --all"; do
        echo "### strix $cmd" >> "$log"
        # shellcheck disable=SC2086
        timeout "$limit" "$cs" --tool "$tool" --error-exitcode 99 --print-limit 50 "$strix" $cmd --backend cuda >> "$log" 2>&1
        echo "### exit $?" >> "$log"
      done
    ) &
  done
done
wait
echo "| tool | input | runs passed (exit 0) | errors | race warnings (in Kokkos parallel_reduce) |"
echo "|---|---|---|---|---|"
for tool in racecheck memcheck; do
  for input in random.bin dna.txt equal.txt fibonacci.txt period.txt; do
    log="$out/$tool-$input.log"
    ok="$(grep -c '^### exit 0$' "$log")"; runs="$(grep -c '^### exit' "$log")"
    errors="$(grep -h 'ERROR SUMMARY' "$log" | grep -o '[0-9]\+ error' | awk '{s += $1} END {print s + 0}')"
    races="$(grep -c 'Race reported' "$log")"; kokkos="$(grep 'Race reported' "$log" | grep -c 'ParallelReduce')"
    echo "| $tool | $input | $ok of $runs | ${errors:-?} | $races ($kokkos) |"
  done
done
