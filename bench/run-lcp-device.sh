#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine: the CUDA build's LCP/repeats tests, then the LCP and
# longest-repeat benchmark (sequential CPU reference vs OpenMP on all host cores vs CUDA).
# Expects, carried in .carry/: bin/ (strix, strix_tests, strix_bench_lcp_repeats,
# strix_bench_gen from a CUDA build), lib/ (libdivsufsort*.so* for strix_tests) and
# data/*.xz (bench/prepare-inputs.sh).
#   bench/run-lcp-device.sh [tests|bench|all] [RUNS]
# STRIX_LCP_INPUTS="english.txt chrX.dna ..." picks the inputs (default below; also
# equal-1GiB, which needs ~60 GB of host memory for the sequential "all" reference).
# Each step is time-boxed (STRIX_TEST_TIMEOUT, STRIX_LCP_TIMEOUT seconds per input).
# Writes logs, rows.jsonl and results.md under $OUT (or /tmp/strix-lcp-out); tables last.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry"
what="${1:-all}"
runs="${2:-3}"
out="${OUT:-/tmp/strix-lcp-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$carry/lib:${LD_LIBRARY_PATH:-}"
export OMP_PROC_BIND=false
bin="$carry/bin"
device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
host="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) ($(nproc) cores)"
echo "device: $device; host: $host; $(date -u +%Y-%m-%dT%H:%MZ); commit $(git -C "$root" rev-parse --short HEAD 2>/dev/null)"

if [ "$what" != bench ]; then
  echo "== CUDA build tests: lcp and repeats suites (the compiled spaces; 32/64-bit), CLI"
  timeout "${STRIX_TEST_TIMEOUT:-300}" "$bin/strix_tests" --test-suite=lcp,repeats > "$out/tests.log" 2>&1
  echo "strix_tests exit $?"; tail -3 "$out/tests.log"
  timeout 120 bash "$root/tests/cli/cli_lcp_repeats_test.sh" "$bin/strix" 2>&1 | tail -3
fi
[ "$what" = tests ] && exit 0

echo "== inputs"
in=/tmp/strix-in
inputs="${STRIX_LCP_INPUTS:-english.txt chrX.dna linux.tar fibonacci-256MiB periodic1000-256MiB}"
source "$root/bench/device-inputs.sh"

echo "== benchmark: strix_bench_lcp_repeats INPUT --runs $runs --backends cuda,openmp"
rows="$out/rows.jsonl"; : > "$rows"
for name in $inputs; do
  f="$in/$name"; [ -f "$f" ] || { echo "$name: missing"; continue; }
  timeout "${STRIX_LCP_TIMEOUT:-300}" "$bin/strix_bench_lcp_repeats" "$f" --runs "$runs" --backends cuda,openmp \
    >> "$rows" 2> "$out/$name.err"
  echo "$name: exit $?"; sed 's/^/  /' "$out/$name.err" | tail -12
done
python3 - "$rows" "$device" "$host" "$runs" <<'PY' | tee "$out/results.md"
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
device, host, runs = sys.argv[2], sys.argv[3], sys.argv[4]
def s(x): return "skipped" if x is None else f"{x:.3f}"
def sp(a, b): return "-" if a is None or b is None or b <= 0 else f"{a / b:.1f}x"
print(f"device: {device}; host: {host}; CUDA/OpenMP: median of {runs} after a warm-up; sequential: 1 run\n")
print("| input | n | raw walk avg / max | compact walk avg / max | useful LLRs | LCP seq s | LCP OpenMP s | LCP GPU s | GPU vs seq | GPU vs OpenMP | outputs == sequential |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
for r in rows:
    w, l = r["walk"], r["lcp"]
    bad = [k for k, v in r.get("check", {}).items() if v != "ok"]
    print(f"| {r['input']} | {r['n']} | {w['raw_average']:.1f} / {w['raw_max']} | {w['compact_average']:.2f} / {w['compact_max']} | "
          f"{w['useful_llrs']} | {s(l.get('sequential'))} | {s(l.get('openmp'))} | {s(l.get('cuda'))} | "
          f"{sp(l.get('sequential'), l.get('cuda'))} | {sp(l.get('openmp'), l.get('cuda'))} | {'yes' if not bad else 'NO: ' + ', '.join(bad)} |")
print()
print("| input | method | mode | seq s | OpenMP s | GPU s | GPU vs seq | GPU vs OpenMP |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    for key in ["compact leftmost", "compact all", "raw leftmost", "raw all"]:
        t = r["lr"].get(key, {})
        m, mode = key.split()
        print(f"| {r['input']} | {m} | {mode} | {s(t.get('sequential'))} | {s(t.get('openmp'))} | {s(t.get('cuda'))} | "
              f"{sp(t.get('sequential'), t.get('cuda'))} | {sp(t.get('openmp'), t.get('cuda'))} |")
PY
