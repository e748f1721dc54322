#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 49 on the GPU machine: strix's suffix array and BWT beside libcubwt 1.0.0 (SA) and
# 1.6.3 (BWT), and optionally beside another strix build, runs alternating (A B A B ...) so
# that drift hits every side; medians of RUNS after one warm-up each; outputs compared byte
# for byte. Both sides time the copies in and out with pinned host buffers and device memory
# allocated beforehand (strix: the tool's total_seconds; libcubwt: bench/cubwt_time.cu).
#   bench/run-gpu-anchors.sh [RUNS]
# Expects scripts/device-check.sh's pack (.carry/check: the CUDA strix, its libraries and the
# inputs) and .carry/anchors/ with strix_bench_cubwt-v1.0.0 and -v1.6.3 (bench/build-anchors.sh)
# and, when present, strix-base: another strix build timed beside the packed one (STRIX_BASE_NAME
# names it in the table). STRIX_ANCHOR_INPUTS: inputs (default "english.txt chrX.dna").
# Writes rows under $OUT (default /tmp/strix-anchors); prints the tables last.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-5}"
out="${OUT:-/tmp/strix-anchors}"
mkdir -p "$out" /tmp/strix-check
tar -xJf "$root/.carry/check/check.tar.xz" -C /tmp/strix-check
bin=/tmp/strix-check/bin anchors="$root/.carry/anchors" carry="$root/.carry/check" in=/tmp/strix-in
export LD_LIBRARY_PATH="/tmp/strix-check/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
inputs="${STRIX_ANCHOR_INPUTS:-english.txt chrX.dna}"
source "$root/bench/device-inputs.sh"
base="$anchors/strix-base"; [ -x "$base" ] || base=""
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%FT%TZ); strix $("$bin/strix" --version | head -1)"
rows="$out/rows.tsv"; : > "$rows"

# One timed run of a side; appends "input kind side seconds extra" to $rows.
strix_run() {  # side binary kind file
  local json="$out/$1.$3.json"
  if timeout 300 "$2" "$3" "$4" -o "/tmp/$1.$3" --stats > "$json" 2> "$out/$1.err"; then
    python3 - "$json" "$(basename "$4")" "$3" "$1" >> "$rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], sys.argv[4], d["total_seconds"], d.get("peak_device_bytes", d.get("peak_bytes", 0)),
      d.get("primary_index", "-"), sep="\t")
PY
  else echo "$1 $3 $(basename "$4"): failed: $(tail -1 "$out/$1.err")"; fi
}
cubwt_run() {  # version kind file
  local line
  if line="$(timeout 300 "$anchors/strix_bench_cubwt-$1" "$2" "$3" "/tmp/cubwt-$1.$2" 1 2> "$out/cubwt.err")"; then
    echo "$line" | python3 -c "
import sys; kv = dict(p.split('=') for p in sys.stdin.read().split())
print('$(basename "$3")', '$2', 'libcubwt-$1', kv['seconds'], kv['device_bytes'], kv['primary'], sep='\t')" >> "$rows"
  else echo "libcubwt $1 $2: failed: $(tail -1 "$out/cubwt.err")"; fi
}

for name in $inputs; do
  f="$in/$name"; [ -f "$f" ] || { echo "$name: not carried"; continue; }
  for r in $(seq 0 "$runs"); do  # round 0: warm-up, dropped below
    [ "$r" = 0 ] && mark="$rows" && rows="$out/warmup.tsv"
    strix_run strix "$bin/strix" sa "$f"
    [ -n "$base" ] && strix_run base "$base" sa "$f"
    cubwt_run v1.0.0 sa "$f"
    strix_run strix "$bin/strix" bwt "$f"
    [ -n "$base" ] && strix_run base "$base" bwt "$f"
    cubwt_run v1.6.3 bwt "$f"
    [ "$r" = 0 ] && rows="$mark"
  done
  cmp -s /tmp/strix.sa /tmp/cubwt-v1.0.0.sa && sa_same=yes || sa_same=NO
  cmp -s /tmp/strix.bwt /tmp/cubwt-v1.6.3.bwt && bwt_same=yes || bwt_same=NO
  echo -e "$name\tsame\t$sa_same\t$bwt_same" >> "$out/same.tsv"
done

python3 - "$rows" "$out/same.tsv" "${STRIX_BASE_NAME:-base}" <<'PY' | tee "$out/results.md"
import collections, statistics, sys
t = collections.defaultdict(list); extra = {}
for line in open(sys.argv[1]):
    name, kind, side, s, mem, primary = line.rstrip("\n").split("\t")
    t[(name, kind, side)].append(float(s)); extra[(name, kind, side)] = (int(float(mem)), primary)
same = {l.split("\t")[0]: l.rstrip("\n").split("\t")[2:] for l in open(sys.argv[2])}
names = sorted({k[0] for k in t}, key=lambda n: list(same).index(n) if n in same else 0)
print("| input | kind | strix ms | libcubwt ms | strix speed | strix device peak | libcubwt device storage | same output |"
      + (f" {sys.argv[3]} ms | {sys.argv[3]} / strix |" if any(k[2] == "base" for k in t) else ""))
print("|---|---|---|---|---|---|---|---|" + ("---|---|" if any(k[2] == "base" for k in t) else ""))
for n in names:
    for kind, anchor, i in (("sa", "libcubwt-v1.0.0", 0), ("bwt", "libcubwt-v1.6.3", 1)):
        s = t.get((n, kind, "strix")); a = t.get((n, kind, anchor)); b = t.get((n, kind, "base"))
        if not s or not a: continue
        ms, ma = statistics.median(s) * 1e3, statistics.median(a) * 1e3
        row = (f"| {n} | {kind} | {ms:.2f} | {ma:.2f} | {ma / ms:.2f}x | {extra[(n, kind, 'strix')][0] / 1e9:.2f} GB | "
               f"{extra[(n, kind, anchor)][0] / 1e9:.2f} GB | {same.get(n, ['?', '?'])[i]} |")
        if b: row += f" {statistics.median(b) * 1e3:.2f} | {statistics.median(b) * 1e3 / ms:.3f}x |"
        print(row)
print(f"\n(medians of {len(next(iter(t.values())))} runs; strix ms = the tool's total_seconds, copies included)")
PY
