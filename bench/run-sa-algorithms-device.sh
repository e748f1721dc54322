#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine (issue 11): the CUDA build's SA tests and CLI algorithm test, then
# every suffix-array algorithm side by side (bench/sa_algorithms_bench.py) on the GPU and on
# the host's OpenMP backend, beside libdivsufsort and libsais. Expects in .carry/: bin/
# (strix, strix-host (CUDA build's host fallback, unused here), strix_tests, strix_bench_gen,
# strix_bench_divsufsort, strix_bench_libsais), lib/ (libdivsufsort*.so*), data/*.xz.
#   bench/run-sa-algorithms-device.sh STEPS [RUNS]
# STEPS: comma-separated from tests, gpu, host, threads, auto, crossover, lean (default tests,gpu).
# Environment: SA_GPU_INPUTS / SA_HOST_INPUTS (names under the input folder), SA_ALGORITHMS,
# SA_HOST_ALGORITHMS, SA_DIVSUFSORT (the baseline: /bin/false leaves it out where libdivsufsort would take
# minutes — Fibonacci; `auto`'s step checks its arrays itself), SA_THREADS (the thread counts of the "threads" step); SA_BIN / SA_CARRY:
# the binaries' folder and the pack (default .carry/bin, .carry: the device check's unpacked
# pack serves too, e.g. SA_BIN=/tmp/strix-check/bin SA_CARRY=.carry/check). lean (issue 64): the
# GPU constructions in one process each (strix_bench_sa, median of RUNS after a warm-up) with
# their peaks, beside BASE_BENCH_SA (an older build's strix_bench_sa, alternating) on
# SA_LEAN_INPUTS with SA_LEAN_ALGORITHMS; then SA_LEAN_SIZES bytes of simulated genome
# (strix_bench_gen genome from chrX.dna; none: no such row), SA_LEAN_SIZE_ALGORITHM (default
# auto) once after a warm-up, checked on the device.
# Results and logs go to $OUT (default /tmp/strix-out); the tables come last.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="${SA_CARRY:-$root/.carry}"
steps=",${1:-tests,gpu},"
runs="${2:-3}"
out="${OUT:-/tmp/strix-out}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$carry/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
bin="${SA_BIN:-$carry/bin}"
for x in "$bin"/*.xz; do [ -e "$x" ] && xz -dkf "$x"; done
chmod +x "$bin"/* 2>/dev/null
step() { [[ "$steps" == *",$1,"* ]]; }
device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
echo "device: $device; host: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) ($(nproc) cores); $(date -u +%Y-%m-%dT%H:%MZ)"

if step tests; then
  timeout 400 "$bin/strix_tests" --test-suite=sa --test-case='*<Cuda*' > "$out/tests.log" 2>&1
  echo "strix_tests sa (CUDA cases) exit $?: $(grep 'test cases:' "$out/tests.log")"
  STRIX_TEST_BACKENDS="${SA_TEST_BACKENDS:-cuda openmp}" \
    timeout 300 bash "$root/tests/cli/cli_algorithm_test.sh" "$bin/strix" > "$out/cli.log" 2>&1
  echo "cli_algorithm_test exit $?: $(tail -1 "$out/cli.log")"; grep FAIL "$out/cli.log" | head -5
fi

in=/tmp/strix-in
inputs="${SA_GPU_INPUTS:-english.txt chrX.dna linux.tar fibonacci-256MiB periodic1000-256MiB equal-1GiB} ${SA_HOST_INPUTS:-english.txt chrX.dna}"
source "$root/bench/device-inputs.sh"
bench=(python3 "$root/bench/sa_algorithms_bench.py" --strix "$bin/strix" --divsufsort "${SA_DIVSUFSORT:-$bin/strix_bench_divsufsort}"
       --runs "$runs")
[ -x "$bin/strix_bench_libsais" ] && bench+=(--libsais "$bin/strix_bench_libsais")  # (not in every pack)
paths() { for n in "$@"; do [ -f "$in/$n" ] && echo "$in/$n"; done; }
if step gpu; then
  "${bench[@]}" --backend cuda --baseline-once --algorithms "${SA_ALGORITHMS:-auto,prefix-doubling,larsson-sadakane,skew,hybrid,dc7,dc13,dc21}" \
    --timeout 60 --out "$out/gpu" $(paths ${SA_GPU_INPUTS:-english.txt chrX.dna linux.tar fibonacci-256MiB periodic1000-256MiB equal-1GiB}) \
    > "$out/gpu.md" 2> "$out/gpu.err"
fi
if step host; then
  "${bench[@]}" --backend openmp --threads "$(nproc)" \
    --algorithms "${SA_HOST_ALGORITHMS:-auto,prefix-doubling,larsson-sadakane,hybrid,dc7,dc13,dc21}" \
    --timeout 90 --out "$out/host" $(paths ${SA_HOST_INPUTS:-english.txt chrX.dna}) > "$out/host.md" 2> "$out/host.err"
fi
if step threads; then
  for t in ${SA_THREADS:-1 2 4 8}; do
    "${bench[@]}" --backend openmp --threads "$t" --algorithms "${SA_THREAD_ALGORITHMS:-prefix-doubling}" \
      --timeout 90 --out "$out/threads$t" $(paths ${SA_THREAD_INPUTS:-english.txt}) > "$out/threads$t.md" 2> "$out/threads$t.err"
  done
fi
if step auto; then
  # What `auto` picks on each input (GPU), its time, and the linear-time check of its result.
  { echo "| input | auto picked | suffix_array s | total s | check |"; echo "|---|---|---|---|---|"
    for n in ${SA_GPU_INPUTS:-english.txt chrX.dna linux.tar fibonacci-256MiB periodic1000-256MiB equal-1GiB}; do
      [ -f "$in/$n" ] || continue
      timeout 60 "$bin/strix" sa "$in/$n" -o /tmp/auto.sa --quiet > /dev/null  # warm-up
      timeout 60 "$bin/strix" sa "$in/$n" -o /tmp/auto.sa --stats --quiet > "$out/auto.$n.json" || { echo "| $n | failed | | | |"; continue; }
      verdict="$(timeout 60 "$bin/strix" check "$in/$n" /tmp/auto.sa > /dev/null 2>&1 && echo ok || echo WRONG)"
      python3 -c "import json,sys; s=json.load(open(sys.argv[1])); print(f\"| {sys.argv[2]} | {s['algorithm']} | {s['stages_seconds']['suffix_array']:.3f} | {s['total_seconds']:.3f} | {sys.argv[3]} |\")" \
        "$out/auto.$n.json" "$n" "$verdict"
    done; } > "$out/auto.md"
fi
if step crossover; then
  # The host's crossover in text length: prefix doubling on all cores against libdivsufsort.
  for mb in ${SA_CROSSOVER_MIB:-1 4 16}; do head -c $((mb << 20)) "$in/english.txt" > "$in/english-${mb}MiB"; done
  "${bench[@]}" --backend openmp --threads "$(nproc)" --algorithms auto,prefix-doubling --timeout 60 --out "$out/crossover" \
    $(for mb in ${SA_CROSSOVER_MIB:-1 4 16}; do echo "$in/english-${mb}MiB"; done) > "$out/crossover.md" 2> "$out/crossover.err"
fi
if step lean; then
  lean_row() {  # input algorithm build bench-line bytes
    python3 - "$@" <<'PY'
import sys
name, algorithm, build, line, n = sys.argv[1:6]
kv = dict(p.split("=", 1) for p in line.split() if "=" in p)
if "seconds" not in kv:
    print(f"| {name} | {algorithm} | {build} | failed: {line[-80:]} | | | |")
else:
    peak = int(kv.get("peak_bytes", "0") or 0) / int(n)
    print(f"| {name} | {algorithm} | {build} | {kv.get('algorithm', '') or '-'} | {float(kv['seconds']) * 1e3:.1f} | "
          f"{peak:.1f} | {kv.get('check', '-')} |")
PY
  }
  { echo "| input | asked | build | ran | ms (in-process) | peak bytes/byte | check |"; echo "|---|---|---|---|---|---|---|"
    for n in ${SA_LEAN_INPUTS:-english.txt chrX.dna}; do
      [ -f "$in/$n" ] || continue
      for a in ${SA_LEAN_ALGORITHMS:-prefix-doubling dc7 dc13 dc21}; do
        for b in base new; do
          exe="$bin/strix_bench_sa"; [ "$b" = base ] && exe="${BASE_BENCH_SA:-}"
          [ -x "$exe" ] || continue
          (cd /tmp && lean_row "$n" "$a" "$b" "$(timeout 120 "$exe" sa "$in/$n" /tmp/lean.sa "$runs" "$a" 2>&1 | tr '\n' ' ')" "$(stat -c %s "$in/$n")")
        done
      done
    done
    for bytes in ${SA_LEAN_SIZES:-4294967294 8000000000}; do
      [ "$bytes" = none ] && continue
      f="$in/genome-$bytes" log="$out/lean.genome-$bytes.log"
      # (Every step in the log as it ends, so that a call cut off says where it was.)
      start=$SECONDS
      timeout 300 "$bin/strix_bench_gen" genome "$bytes" "$f" "$in/chrX.dna" > /dev/null || { echo "| genome-$bytes | generation failed | | | | | |"; continue; }
      echo "generated in $((SECONDS - start)) s" > "$log"
      a="${SA_LEAN_SIZE_ALGORITHM:-auto}"
      lean_row "genome-$bytes" "$a" new "$(STRIX_BENCH_CHECK=1 STRIX_BENCH_PROGRESS=1 timeout 500 "$bin/strix_bench_sa" sa "$f" - 1 "$a" 2>> "$log" | tr '\n' ' ')" "$bytes"
      rm -f "$f"
    done; } > "$out/lean.md" 2> "$out/lean.err"
fi
for f in "$out"/lean.md "$out"/auto.md "$out"/crossover.md "$out"/gpu.md "$out"/host.md "$out"/threads*.md; do
  [ -f "$f" ] || continue
  echo "== $(basename "$f" .md)"; cat "$f"; grep -v '^$' "${f%.md}.err" | head -8
done
