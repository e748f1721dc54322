#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine (no package registry there): the CUDA build's tests, then the
# benchmark of strix CUDA against libdivsufsort on the same host. Expects, carried in
# .carry/: bin/ (strix, strix_tests, strix_bench_divsufsort, strix_bench_gen from a CUDA
# build), lib/ (libdivsufsort*.so*) and data/*.xz (bench/prepare-inputs.sh).
#   bench/run-device.sh [tests|bench|all] [RUNS]
# STRIX_BENCH_INPUTS="english.txt linux.tar ..." restricts the benchmark to those inputs.
# STRIX_BIN=DIR takes the binaries from DIR instead of .carry/bin. STRIX_BASELINE=PATH names an
# earlier strix binary: its runs alternate with the current one's and both medians are shown.
# Writes logs and results.md under $OUT (or /tmp/strix-out); prints a table last.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry"
what="${1:-all}"
runs="${2:-3}"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$carry/lib:${LD_LIBRARY_PATH:-}"
export OMP_PROC_BIND=false
bin="${STRIX_BIN:-$carry/bin}"
baseline="${STRIX_BASELINE:-}"
device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
echo "device: $device; host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) ($(nproc) cores)"

if [ "$what" != bench ]; then
  echo "== CUDA build tests (the spaces the build is compiled for: CUDA unless STRIX_ETI_SPACES adds host ones; 32- and 64-bit)"
  # Each step is time-boxed.
  # STRIX_TEST_SUITES: doctest --test-suite pattern (default: every suite, e.g. "sa,lcp").
  timeout "${STRIX_TEST_TIMEOUT:-300}" "$bin/strix_tests" ${STRIX_TEST_SUITES:+--test-suite="$STRIX_TEST_SUITES"} > "$out/tests.log" 2>&1
  echo "strix_tests exit $?"; tail -4 "$out/tests.log"
  timeout 120 bash "$root/tests/cli/cli_test.sh" "$bin/strix" 2>&1 | tail -3
fi
[ "$what" = tests ] && exit 0

echo "== inputs"
in=/tmp/strix-in
inputs="${STRIX_BENCH_INPUTS:-english.txt chrX.dna linux.tar fibonacci-256MiB periodic1000-256MiB equal-1GiB}"
source "$root/bench/device-inputs.sh"
ls -la "$in"

echo "== benchmark: $runs timed strix runs after one warm-up; libdivsufsort once, same host"
rows="$out/rows.jsonl"; : > "$rows"
for name in $inputs; do
  f="$in/$name"; [ -f "$f" ] || continue
  timeout 120 "$bin/strix" sa "$f" -o /tmp/strix.sa --stats > "$out/$name.warmup.json" 2> "$out/$name.err" || { echo "$name: strix failed: $(tail -1 "$out/$name.err")"; continue; }
  [ -n "$baseline" ] && timeout 120 "$baseline" sa "$f" -o /tmp/base.sa --stats > /dev/null 2>>"$out/$name.err"
  for r in $(seq 1 "$runs"); do
    timeout 120 "$bin/strix" sa "$f" -o /tmp/strix.sa --stats > "$out/$name.run$r.json" 2>>"$out/$name.err"
    [ -n "$baseline" ] && timeout 120 "$baseline" sa "$f" -o /tmp/base.sa --stats > "$out/$name.base$r.json" 2>>"$out/$name.err"
  done
  if [ -n "$baseline" ] && ! cmp -s /tmp/strix.sa /tmp/base.sa; then echo "$name: baseline SA differs"; fi
  if [ -f "$in/$name.divsufsort" ]; then base="$(cat "$in/$name.divsufsort")"  # measured earlier on this machine
  else base="$(timeout 200 "$bin/strix_bench_divsufsort" "$f" "$in/$name.dsa" 1 | sed 's/seconds=//')"; echo "$base" > "$in/$name.divsufsort"; fi
  cp "$in/$name.dsa" /tmp/divsufsort.sa
  if cmp -s /tmp/strix.sa /tmp/divsufsort.sa; then same=yes; else same=NO; fi
  python3 - "$name" "$base" "$same" "$out" "$runs" "${baseline:+yes}" >> "$rows" <<'PY'
import json, os, statistics, sys
name, base, same, out, runs, with_base = sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5]), sys.argv[6]
load = lambda kind: [json.load(open(f"{out}/{name}.{kind}{r}.json")) for r in range(1, runs + 1)]
# The construction time and rounds, in the JSON layout of this version or of older ones.
construct = lambda r: r["stages_seconds"]["suffix_array"] if "stages_seconds" in r else r["construct_seconds"]
rounds = lambda r: r["counters"].get("rounds", 0) if "counters" in r else r["rounds"]
rs = load("run")
last = rs[-1]
row = {"input": name, "n": last["n"], "total": statistics.median(r["total_seconds"] for r in rs),
       "device": statistics.median(construct(r) for r in rs), "peak_per_byte": last["peak_bytes_per_input_byte"],
       "rounds": rounds(last), "phases": last["phases_seconds"], "divsufsort": base,
       "same_as_divsufsort": same, "gpu": last["device"]}
if with_base == "yes":
    bs = load("base")
    row["base_total"] = statistics.median(r["total_seconds"] for r in bs)
    row["base_device"] = statistics.median(construct(r) for r in bs)
    row["base_peak_per_byte"] = bs[-1]["peak_bytes_per_input_byte"]
print(json.dumps(row))
PY
  tail -1 "$rows"
done
python3 - "$rows" "$device" <<'PY' | tee "$out/results.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"device: {sys.argv[2]}\n")
print("| input | n | strix total s | strix device s | MB/s (total) | MB/s (device) | peak B/n | rounds | divsufsort s | speedup (total) | SA == divsufsort |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    n = r["n"]
    print(f"| {r['input']} | {n} | {r['total']:.4f} | {r['device']:.4f} | {n/r['total']/1e6:.0f} | {n/r['device']/1e6:.0f} | "
          f"{r['peak_per_byte']:.1f} | {r['rounds']} | {r['divsufsort']:.2f} | {r['divsufsort']/r['total']:.1f}x | {r['same_as_divsufsort']} |")
if any("base_total" in r for r in rows):
    print("\n| input | baseline total s | current total s | total ratio | baseline device s | current device s | device ratio | peak B/n baseline / current |")
    print("|---|---|---|---|---|---|---|---|")
    for r in rows:
        if "base_total" in r:
            print(f"| {r['input']} | {r['base_total']:.4f} | {r['total']:.4f} | {r['base_total']/r['total']:.3f}x | "
                  f"{r['base_device']:.4f} | {r['device']:.4f} | {r['base_device']/r['device']:.3f}x | "
                  f"{r['base_peak_per_byte']:.1f} / {r['peak_per_byte']:.1f} |")
PY
