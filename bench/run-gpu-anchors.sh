#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 49 on the GPU machine: strix's suffix array, BWT and inverse BWT beside libcubwt 1.0.0
# (SA) and 1.6.3 (BWT, and its unbwt on strix's BWT), and optionally beside another strix build, runs alternating (A B A B ...) so
# that drift hits every side; medians of RUNS after one warm-up each; outputs compared byte
# for byte. Both sides time the copies in and out with pinned host buffers and device memory
# allocated beforehand (strix: the tool's total_seconds; libcubwt: bench/cubwt_time.cu).
#   bench/run-gpu-anchors.sh [RUNS]
#   bench/run-gpu-anchors.sh startup [RUNS]: only the tool's start-up, the wall time of a whole
#     `strix sa` process on an 11-byte text (CUDA set-up, kernel loading), each side (the packed
#     strix, STRIX_TOOL_ENV, strix-base) alternating, medians of RUNS after a warm-up.
# Expects scripts/device-check.sh's pack (.carry/check: the CUDA strix, its libraries and the
# inputs) and .carry/anchors/ with strix_bench_cubwt-v1.0.0 and -v1.6.3 (bench/build-anchors.sh)
# and, when present, strix-base (or strix-base.xz): another strix build timed beside the packed one (STRIX_BASE_NAME
# names it in the table). STRIX_ANCHOR_INPUTS: inputs (default "english.txt chrX.dna");
# STRIX_ANCHOR_KINDS: what is timed (default "sa bwt unbwt"); STRIX_TOOL_ENV: "VAR=VALUE ..." for one more
# side, the packed strix run under that environment (e.g. CUDA_MODULE_LOADING=EAGER). The tool's rows also
# carry the whole process's wall time (start-up, Kokkos and CUDA set-up, file reading and writing included).
# Writes rows under $OUT (default /tmp/strix-anchors); prints the tables last.
#
# linux.tar (35 MB packed) does not fit a call beside the whole pack: `bench/run-gpu-anchors.sh
# pack-slim [INPUT...]` (here, after the device check's pack) makes .carry/slim: strix,
# strix_bench_sa (with strix_bench_gen and strix_bench_divsufsort, for bench/run-sa-algorithms-device.sh) and
# their libraries, and the inputs named (default linux.tar); on the device
# STRIX_ANCHOR_CARRY=.carry/slim STRIX_ANCHOR_INPUTS=linux.tar bench/run-gpu-anchors.sh, carry
# [".carry/slim", ".carry/anchors"] (without strix-base.xz if the 64 MiB are short).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = pack-slim ]; then
  shift
  slim="$root/.carry/slim" stage="$(mktemp -d)"
  rm -rf "$slim" && mkdir -p "$slim/data"
  xz -dc "$root/.carry/check/check.tar.xz" | tar -xf - -C "$stage" ./bin/strix ./bin/strix_bench_sa ./bin/strix_bench_gen ./bin/strix_bench_divsufsort ./lib ||
    { echo "pack-slim: .carry/check lacks strix, strix_bench_sa, strix_bench_gen, strix_bench_divsufsort or lib/ (scripts/device-check.sh pack first)" >&2; exit 1; }
  tar -cf - -C "$stage" . | xz -6 -T0 > "$slim/check.tar.xz"
  rm -rf "$stage"
  for d in "${@:-linux.tar}"; do ln -f "$root/.carry/data/$d.xz" "$slim/data/"; done
  cp "$root/.carry/check/commit" "$slim/commit"
  du -sh "$slim"
  exit 0
fi
startup=""; [ "${1:-}" = startup ] && { startup=1; shift; }
runs="${1:-5}"
out="${OUT:-/tmp/strix-anchors}"
carry="$root/${STRIX_ANCHOR_CARRY:-.carry/check}"
mkdir -p "$out" /tmp/strix-check
rm -f /tmp/strix.* /tmp/base.* /tmp/cubwt-* /tmp/inproc.*  # no output of an earlier run compared
tar -xJf "$carry/check.tar.xz" -C /tmp/strix-check
bin=/tmp/strix-check/bin anchors="$root/.carry/anchors" in=/tmp/strix-in
export LD_LIBRARY_PATH="/tmp/strix-check/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
inputs="${STRIX_ANCHOR_INPUTS:-english.txt chrX.dna}"
source "$root/bench/device-inputs.sh"
base="$anchors/strix-base"
if [ -f "$base.xz" ]; then xz -dc "$base.xz" > /tmp/strix-base && chmod +x /tmp/strix-base && base=/tmp/strix-base; fi
[ -x "$base" ] || base=""
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%FT%TZ); strix $("$bin/strix" --version | head -1)"
rows="$out/rows.tsv"; : > "$rows"; : > "$out/rows.phases"

if [ -n "$startup" ]; then
  printf mississippi > /tmp/strix-startup.txt
  walls="$out/startup.tsv"; : > "$walls"
  for r in $(seq 0 "$runs"); do
    for side in strix env base; do
      case "$side" in
        strix) exe=("$bin/strix") ;;
        env) [ -n "${STRIX_TOOL_ENV:-}" ] || continue; read -r -a exe <<< "$STRIX_TOOL_ENV"; exe=(env "${exe[@]}" "$bin/strix") ;;
        base) [ -n "$base" ] || continue; exe=("$base") ;;
      esac
      t0="$(date +%s.%N)"
      "${exe[@]}" sa /tmp/strix-startup.txt -o /tmp/strix-startup.sa --backend cuda || { echo "$side: failed"; continue; }
      t1="$(date +%s.%N)"
      [ "$r" = 0 ] || echo -e "$side\t$t0\t$t1" >> "$walls"
    done
  done
  python3 - "$walls" "${STRIX_BASE_NAME:-base}" "${STRIX_TOOL_ENV:-}" <<'PY' | tee "$out/startup.md"
import collections, statistics, sys
w = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, t0, t1 = line.split()
    w[side].append(float(t1) - float(t0))
name = {"strix": "packed strix", "env": "packed strix under " + sys.argv[3], "base": sys.argv[2]}
print("| side | `strix sa` of 11 bytes, process wall ms (median) | min | max |\n|---|---|---|---|")
for side, v in w.items():
    print(f"| {name[side]} | {statistics.median(v) * 1e3:.1f} | {min(v) * 1e3:.1f} | {max(v) * 1e3:.1f} |")
PY
  exit 0
fi

# One timed run of a side; appends "input kind side seconds extra" to $rows.
tool_env=()  # the environment of the next strix_run (the STRIX_TOOL_ENV side)
strix_run() {  # side binary kind file [more arguments]
  local json="$out/$1.$3.json" more=("${@:5}") t0 t1
  t0="$(date +%s.%N)"
  if timeout 300 env ${tool_env[@]+"${tool_env[@]}"} "$2" "$3" "$4" -o "/tmp/$1.$3" --stats "${more[@]}" > "$json" 2> "$out/$1.err"; then
    t1="$(date +%s.%N)"
    python3 - "$json" "$(basename "$4")" "$3" "$1" "$t0" "$t1" "${rows%.tsv}.phases" >> "$rows" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], sys.argv[4], d["total_seconds"], d.get("peak_device_bytes", d.get("peak_bytes", 0)),
      d.get("primary_index", "-"), float(sys.argv[6]) - float(sys.argv[5]), sep="\t")
# Every timed run's phases, for the per-phase medians printed last.
with open(sys.argv[7], "a") as f:
    print(sys.argv[2], sys.argv[3], sys.argv[4], json.dumps(d.get("phases_seconds", {})), sep="\t", file=f)
PY
  else echo "$1 $3 $(basename "$4"): failed: $(tail -1 "$out/$1.err")"; fi
}
inproc_run() {  # kind file [primary index, for unbwt]: strix_bench_sa, the in-process twin of cubwt_time.cu
  local line side="${inproc_side:-strix in-process}"
  [ -x "$bin/strix_bench_sa" ] || return 0
  if line="$(timeout 300 env ${tool_env[@]+"${tool_env[@]}"} "$bin/strix_bench_sa" "$1" "$2" "/tmp/inproc.$1" 1 ${3:-} 2> "$out/inproc.err")"; then
    echo "$line" | python3 -c "
import sys; kv = dict(p.split('=') for p in sys.stdin.read().split())
print('$(basename "$2")', '$1', '$side', kv['seconds'], kv['device_bytes'], kv['primary'], '-', sep='\t')" >> "$rows"
  else echo "strix_bench_sa $1: failed: $(tail -1 "$out/inproc.err")"; fi
}
cubwt_run() {  # version kind file [primary index, for unbwt]
  local line
  if line="$(timeout 300 "$anchors/strix_bench_cubwt-$1" "$2" "$3" "/tmp/cubwt-$1.$2" 1 ${4:-} 2> "$out/cubwt.err")"; then
    echo "$line" | python3 -c "
import sys; kv = dict(p.split('=') for p in sys.stdin.read().split())
print('$(basename "$3")', '$2', 'libcubwt-$1', kv['seconds'], kv['device_bytes'], kv['primary'], '-', sep='\t')" >> "$rows"
  else echo "libcubwt $1 $2: failed: $(tail -1 "$out/cubwt.err")"; fi
}
env_run() {  # kind file: the packed strix under STRIX_TOOL_ENV, the tool and (sa, bwt) in process
  [ -n "${STRIX_TOOL_ENV:-}" ] || return 0
  read -r -a tool_env <<< "$STRIX_TOOL_ENV"
  strix_run env "$bin/strix" "$@"
  [ "$1" = unbwt ] || inproc_side="env in-process" inproc_run "$1" "$2"
  tool_env=()
}

kinds=" ${STRIX_ANCHOR_KINDS:-sa bwt unbwt} "
for name in $inputs; do
  f="$in/$name"; [ -f "$f" ] || { echo "$name: not carried"; continue; }
  # Without the timed BWT, one untimed run makes the BWT the inverse starts from.
  [[ "$kinds" == *" bwt "* ]] || { mark="$rows"; rows="$out/warmup.tsv"; strix_run strix "$bin/strix" bwt "$f"; rows="$mark"; }
  for r in $(seq 0 "$runs"); do  # round 0: warm-up, dropped below
    [[ "$kinds" == *" sa "* || "$kinds" == *" bwt "* ]] || break
    [ "$r" = 0 ] && mark="$rows" && rows="$out/warmup.tsv"
    if [[ "$kinds" == *" sa "* ]]; then
      strix_run strix "$bin/strix" sa "$f"
      env_run sa "$f"
      [ -n "$base" ] && strix_run base "$base" sa "$f"
      cubwt_run v1.0.0 sa "$f"
      inproc_run sa "$f"
    fi
    if [[ "$kinds" == *" bwt "* ]]; then
      strix_run strix "$bin/strix" bwt "$f"
      env_run bwt "$f"
      [ -n "$base" ] && strix_run base "$base" bwt "$f"
      cubwt_run v1.6.3 bwt "$f"
      inproc_run bwt "$f"
    fi
    [ "$r" = 0 ] && rows="$mark"
  done
  # The inverse of strix's BWT (under the input's name, which the rows go by), both sides.
  primary="$(python3 -c "import json; print(json.load(open('$out/strix.bwt.json'))['primary_index'])" 2>/dev/null)"
  mkdir -p /tmp/strix-unbwt-in && cp /tmp/strix.bwt "/tmp/strix-unbwt-in/$name"
  for r in $(seq 0 "$runs"); do
    [[ "$kinds" == *" unbwt "* ]] || break
    [ "$r" = 0 ] && mark="$rows" && rows="$out/warmup.tsv"
    strix_run strix "$bin/strix" unbwt "/tmp/strix-unbwt-in/$name" --primary "$primary"
    env_run unbwt "/tmp/strix-unbwt-in/$name" --primary "$primary"
    [ -n "$base" ] && strix_run base "$base" unbwt "/tmp/strix-unbwt-in/$name" --primary "$primary"
    cubwt_run v1.6.3 unbwt "/tmp/strix-unbwt-in/$name" "$primary"
    inproc_run unbwt "/tmp/strix-unbwt-in/$name" "$primary"
    [ "$r" = 0 ] && rows="$mark"
  done
  unbwt_same="-"  # (not timed: STRIX_ANCHOR_KINDS without unbwt)
  [[ "$kinds" == *" unbwt "* ]] && { cmp -s /tmp/strix.unbwt "$f" && unbwt_same=yes || unbwt_same=NO; }
  for side in strix base; do  # the last run's phases of the inverse
    [ -f "$out/$side.unbwt.json" ] && python3 -c "import json, sys; d = json.load(open(sys.argv[1]))
print(sys.argv[2], sys.argv[3], 'unbwt phases (ms):', {k: round(v * 1e3, 2) for k, v in d.get('phases_seconds', {}).items()})" \
      "$out/$side.unbwt.json" "$name" "$side"
  done
  [[ "$kinds" == *" unbwt "* ]] && { cmp -s /tmp/cubwt-v1.6.3.unbwt "$f" || echo "$name: libcubwt's unbwt of strix's BWT is not the input"; }
  cmp -s /tmp/strix.sa /tmp/cubwt-v1.0.0.sa && sa_same=yes || sa_same=NO
  cmp -s /tmp/strix.bwt /tmp/cubwt-v1.6.3.bwt && bwt_same=yes || bwt_same=NO
  [ -f /tmp/inproc.sa ] && { cmp -s /tmp/strix.sa /tmp/inproc.sa || echo "$name: strix_bench_sa's SA differs from the tool's"; }
  [ -f /tmp/inproc.unbwt ] && { cmp -s /tmp/inproc.unbwt "$f" || echo "$name: strix_bench_sa's unbwt is not the input"; }
  [ -f /tmp/inproc.bwt ] && { cmp -s /tmp/strix.bwt /tmp/inproc.bwt || echo "$name: strix_bench_sa's BWT differs from the tool's"; }
  echo -e "$name\tsame\t$sa_same\t$bwt_same\t$unbwt_same" >> "$out/same.tsv"
done

python3 - "$rows" "$out/same.tsv" "${STRIX_BASE_NAME:-base}" "${STRIX_TOOL_ENV:-}" <<'PY' | tee "$out/results.md"
import collections, statistics, sys
t = collections.defaultdict(list); extra = {}; wall = collections.defaultdict(list)
for line in open(sys.argv[1]):
    name, kind, side, s, mem, primary, w = line.rstrip("\n").split("\t")
    t[(name, kind, side)].append(float(s)); extra[(name, kind, side)] = int(float(mem))
    if w != "-": wall[(name, kind, side)].append(float(w))
same = {l.split("\t")[0]: l.rstrip("\n").split("\t")[2:] for l in open(sys.argv[2])}
label = {"strix": "strix tool (total_seconds)", "strix in-process": "strix in-process (strix_bench_sa)",
         "base": sys.argv[3] + " tool", "env": "strix tool under " + sys.argv[4],
         "env in-process": "strix in-process under " + sys.argv[4]}
print("| input | kind | side | median ms | speed vs libcubwt | device bytes | same output as libcubwt | process wall ms |")
print("|---|---|---|---|---|---|---|---|")
for n in same:
    for kind, anchor, i in (("sa", "libcubwt-v1.0.0", 0), ("bwt", "libcubwt-v1.6.3", 1), ("unbwt", "libcubwt-v1.6.3", 2)):
        a = t.get((n, kind, anchor))
        if not a: continue
        ma = statistics.median(a) * 1e3
        for side in (anchor, "strix", "env", "strix in-process", "env in-process", "base"):
            v = t.get((n, kind, side))
            if not v: continue
            m = statistics.median(v) * 1e3
            w = wall.get((n, kind, side))
            w = f"{statistics.median(w) * 1e3:.1f}" if w else ""
            print(f"| {n} | {kind} | {label.get(side, side)} | {m:.2f} | {ma / m:.2f}x | {extra[(n, kind, side)] / 1e9:.2f} GB | "
                  f"{same[n][i] if side == 'strix' else ''} | {w} |")
print(f"\n(medians of {len(next(iter(t.values())))} runs, copies included on every side)")
PY
# The tool's phases (ms, medians of the timed runs), each side beside the packed strix.
[ -f "$out/rows.phases" ] && python3 - "$out/rows.phases" <<'PY' | tee -a "$out/results.md"
import collections, json, statistics, sys
p = collections.defaultdict(lambda: collections.defaultdict(list)); order = {}
for line in open(sys.argv[1]):
    name, kind, side, phases = line.rstrip("\n").split("\t")
    for k, v in json.loads(phases).items():
        p[(name, kind)][(side, k)].append(v); order.setdefault((name, kind, k), len(order))
for (name, kind), d in p.items():
    sides = sorted({s for s, _ in d}, key=lambda s: ("strix", "env", "base").index(s) if s in ("strix", "env", "base") else 9)
    print(f"\n{name} {kind} phases, ms: | phase | " + " | ".join(sides) + " |")
    for k in sorted({k for _, k in d}, key=lambda k: order[(name, kind, k)]):
        print(f"| {k} | " + " | ".join(f"{statistics.median(d[(s, k)]) * 1e3:.2f}" if d.get((s, k)) else "" for s in sides) + " |")
PY
