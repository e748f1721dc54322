#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The GPU runs the FM-index (issue 16) and the Python module (issue 20) still need, in one
# batch for the device machine (no package registry there). Expects, carried in .carry/:
#   bin/       strix, strix_tests, strix_bench_fm from a CUDA build (STRIX_ETI_SPACES may add
#              the host spaces), and, for the host side by side, host/strix_bench_fm from an
#              OpenMP build, host/strix_bench_sdsl_fm and host/strix_bench_seqan3_fm when built
#   lib/       shared libraries the binaries need beyond the machine's (libsdsl, libhts, ...)
#   python/    the CUDA build's module (strix.cpython-*.so and strix.pyi) when issue 20 is to be checked
#   data/*.xz  english.txt, chrX.dna (bench/prepare-inputs.sh)
#   bench/run-fm-device.sh [tests|bench|gpu|host|python|pycount|reference|profile|scaling|all] [PATTERNS] [THREADS]
# profile: Nsight Compute sections of the count kernel (32-mers, rate 32) and the locate
# kernels, on each input (full reports under $OUT/ncu-*.txt); scaling: the host count and
# locate of strix (OpenMP) at 1, 2, 4, 8 and 16 threads and SDSL's at 1, 4 and 16; trace: every
# kernel's duration (Nsight Compute, clocks unlocked) in the bench's last locate from device
# views (10^6 20-mers drawn, as `gpu` runs them), beside the call's whole time.
# STRIX_FM_HOST_PATTERNS: patterns a length for the host side by side (default 10^6).
# PYTHON names the interpreter the module was built for (default python3).
# Every step is time-boxed and logged under $OUT (default /tmp/strix-fm-out); RESULT lines
# and the test summaries are printed.
# With scripts/device-check.sh's pack (.carry/check/check.tar.xz, its data/ folder) instead of
# the folders above: unpacked to /tmp/strix-check, its host/ and python/ used. STRIX_FM_INPUTS
# names the inputs (default "english.txt chrX.dna"; linux.tar too); `reference` indexes the
# multi-FASTA contigs.fa through the tool (--stats: build time, peak, size).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry"
what="${1:-all}"
patterns="${2:-10000000}"
threads="${3:-16}"
out="${OUT:-/tmp/strix-fm-out}"
bin="${STRIX_BIN:-$carry/bin}"
host="$bin/host"
python_dir="$carry/python"
if [ -f "$carry/check/check.tar.xz" ] && [ ! -d "$carry/bin" ]; then
  mkdir -p /tmp/strix-check && tar -xJf "$carry/check/check.tar.xz" -C /tmp/strix-check
  bin=/tmp/strix-check/bin host=/tmp/strix-check/host python_dir=/tmp/strix-check/python
  export LD_LIBRARY_PATH="/tmp/strix-check/lib:${LD_LIBRARY_PATH:-}"
  carry="$carry/check"
fi
in=/tmp/strix-in
inputs="${STRIX_FM_INPUTS:-english.txt chrX.dna}"
mkdir -p "$out"
export LD_LIBRARY_PATH="$carry/lib:${LD_LIBRARY_PATH:-}"
export OMP_PROC_BIND=false
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); host: $(nproc) cores; $(date -u +%FT%TZ)"

if [ "$what" = tests ] || [ "$what" = all ]; then
  echo "== CUDA build: the FM-index, succinct and index suites, then the CLI's FM commands"
  timeout 600 "$bin/strix_tests" --test-suite='fm_index,succinct,index' > "$out/tests.log" 2>&1
  echo "strix_tests exit $?"; tail -3 "$out/tests.log"
  timeout 300 bash "$root/tests/cli/cli_index_test.sh" "$bin/strix" > "$out/cli_index.log" 2>&1
  echo "cli_index_test exit $?"; tail -2 "$out/cli_index.log"
fi

if [ "$what" = python ] || [ "$what" = all ]; then
  echo "== the Python module of the CUDA build (issue 20)"
  py="${PYTHON:-python3}"
  if [ -d "$python_dir" ] && "$py" -c 'import numpy, pytest' 2>/dev/null; then
    PYTHONPATH="$python_dir" timeout 600 "$py" -m pytest -q -p no:cacheprovider "$root/tests/python" \
      > "$out/python.log" 2>&1
    echo "pytest exit $?"; tail -3 "$out/python.log"
  else
    echo "skipped: no carried module, or no numpy/pytest for $py"
  fi
fi

if [ "$what" = reference ]; then
  inputs="contigs.fa"; source "$root/bench/device-inputs.sh"
  echo "== contigs.fa: the multi-FASTA reference through the tool (CUDA), three builds"
  for r in 1 2 3; do
    timeout 300 "$bin/strix" index "$in/contigs.fa" --fasta -o /tmp/contigs.idx --stats > "$out/reference.$r.json" 2> "$out/reference.err"
  done
  python3 - "$out" "$in/contigs.fa" <<'PY'
import json, os, statistics, sys
rows = [json.load(open(f"{sys.argv[1]}/reference.{r}.json")) for r in (1, 2, 3)]
n = rows[0].get("n", 0)
total = statistics.median(r.get("total_seconds", 0) for r in rows)
print(f"RESULT reference_n {n} symbols")
print(f"RESULT reference_total_ms {total * 1e3:.4g} ms")
for key in ("peak_bytes_per_input_byte", "bits_per_symbol", "peak_device_bytes"):
    if key in rows[0]: print(f"RESULT reference_{key} {rows[0][key]} -")
print(f"RESULT reference_file_bytes {os.path.getsize('/tmp/contigs.idx')} B")
PY
  cat "$out/reference.1.json" | head -c 1500; echo
fi

if [ "$what" = pycount ]; then
  source "$root/bench/device-inputs.sh"
  echo "== the Python module's FMIndex.count on the GPU beside the C++ call (chrX.dna, 10^7 32-mers from NumPy arrays)"
  PYTHONPATH="$python_dir" timeout 300 python3 - "$in/chrX.dna" <<'PY'
import statistics, sys, time
import numpy as np
import strix
text = np.fromfile(sys.argv[1], dtype=np.uint8)
fm = strix.FMIndex.build(text, sample_rate=32)
rng = np.random.default_rng(1)
m, k = 10_000_000, 32
starts = rng.integers(0, len(text) - k, size=m)
patterns = text[starts[:, None] + np.arange(k)].reshape(-1)
offsets = np.arange(0, (m + 1) * k, k, dtype=np.uint64)
fm.count(patterns, offsets)
times = []
for _ in range(5):
    t0 = time.perf_counter(); c = fm.count(patterns, offsets); times.append(time.perf_counter() - t0)
print(f"RESULT python_count32_host_arrays {m / statistics.median(times) / 1e6:.4g} Mpatterns/s (backend {fm.backend}, {int((c > 0).sum())} found)")
PY
fi

# Nsight Compute, for profile and trace.
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)

if [ "$what" = profile ]; then
  source "$root/bench/device-inputs.sh"
  sections=(--section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy --section LaunchStats
            --section WarpStateStats --section SchedulerStats)
  keep='^  [a-zA-Z]|Duration|Throughput|Registers Per|Achieved Occupancy|Theoretical Occupancy|L1/TEX Hit|L2 Hit|Mem Busy|Max Bandwidth|Warp Cycles Per Issued|Issued Warp Per|No Eligible|Grid Size|Block Size'
  for name in $inputs; do
    f="$in/$name"; [ -f "$f" ] || continue
    for kernel in fm_count fm_locate; do
      echo "== $name: Nsight Compute, the $kernel kernels (10^6 patterns, rate 32)"
      timeout 600 "$ncu" --kernel-name-base demangled -k "regex:$kernel" -c "$([ $kernel = fm_count ] && echo 1 || echo 6)" \
        "${sections[@]}" "$bin/strix_bench_fm" "$f" --patterns 1000000 --runs 1 --rates 32 --lengths 32 \
        > "$out/ncu-$kernel-$name.txt" 2>&1
      echo "ncu exit $?"; grep -E "$keep" "$out/ncu-$kernel-$name.txt" | grep -v "^  RESULT" | head -60
    done
  done
fi

if [ "$what" = trace ]; then
  source "$root/bench/device-inputs.sh"
  for name in $inputs; do
    f="$in/$name"; [ -f "$f" ] || continue
    echo "== $name: the kernels of one locate from device views (rate 32)"
    timeout 600 "$ncu" --kernel-name-base demangled --clock-control none --metrics gpu__time_duration.sum --csv \
      "$bin/strix_bench_fm" "$f" --patterns 10000000 --runs 1 --rates 32 --lengths 32 > "$out/trace-$name.csv" 2>&1
    echo "ncu exit $?"
    grep "locate20" "$out/trace-$name.csv" | head -3
    python3 - "$out/trace-$name.csv" <<'PY'
import csv, re, sys
rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
head, rows = rows[0], rows[1:]
name_at, metric_at, value_at = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
kernels = [(r[name_at], float(r[value_at].replace(",", ""))) for r in rows if r[metric_at] == "gpu__time_duration.sum"]
def short(k):
    lam = re.search(r"lambda\([^)]*\) \(instance (\d+)\)", k)
    for pattern in (r"fm_\w+", r"cub::\w+", r"Device\w+Kernel\w*", r"strix::\w+(::\w+)*"):
        m = re.search(pattern, k)
        if m: return m.group(0) + (f"#{lam.group(1)}" if lam else "")
    return k[:60]
checks = [i for i, (k, _) in enumerate(kernels) if "fm_offsets_ascend" in k]
ends = [i for i, (k, _) in enumerate(kernels) if "extract" in k]
start = max(i for i in checks if any(e > i for e in ends))
end = min(e for e in ends if e > start)
total = 0.0
for k, ns in kernels[start:end]:
    total += ns
    print(f"  {short(k):40s} {ns / 1e3:10.1f} us")
print(f"RESULT locate_device_kernels_sum_ms {total / 1e6:.4g} ms ({end - start} kernels)")
PY
  done
fi

if [ "$what" = scaling ]; then
  source "$root/bench/device-inputs.sh"
  for name in $inputs; do
    f="$in/$name"; [ -f "$f" ] || continue
    echo "== $name: host counts and locates by threads (${STRIX_FM_HOST_PATTERNS:-1000000} patterns)"
    for t in 1 2 4 8 16; do
      OMP_NUM_THREADS=$t timeout 600 "$host/strix_bench_fm" "$f" --patterns "${STRIX_FM_HOST_PATTERNS:-1000000}" --runs 3 \
        --rates 32 --lengths 16,32 2>&1 | grep -E "count(16|32)_host_arrays |locate20 " | sed "s/^RESULT /RESULT t$t /"
    done
    for t in 1 4 16; do
      [ -x "$host/strix_bench_sdsl_fm" ] || break
      OMP_NUM_THREADS=$t timeout 600 "$host/strix_bench_sdsl_fm" "$f" --patterns "${STRIX_FM_HOST_PATTERNS:-1000000}" --runs 3 \
        2>&1 | grep -E "count(16|32)|locate" | sed "s/^RESULT /RESULT t$t /"
    done
  done
fi

# bench: the GPU runs and the host side by side; gpu or host: one of them.
if [ "$what" = bench ] || [ "$what" = all ] || [ "$what" = gpu ] || [ "$what" = host ]; then
  source "$root/bench/device-inputs.sh"
  for name in $inputs; do
    f="$in/$name"
    [ -f "$f" ] || { echo "$name: not carried"; continue; }
    if [ "$what" != host ]; then
      echo "== $name: strix on the GPU ($patterns patterns a length)"
      timeout 900 "$bin/strix_bench_fm" "$f" --patterns "$patterns" --runs 3 2>&1 | tee "$out/$name.gpu.log" | grep RESULT
    fi
    [ "$what" = gpu ] && continue
    echo "== $name: the host side by side, $threads threads, ${STRIX_FM_HOST_PATTERNS:-1000000} patterns (strix OpenMP / SDSL / SeqAn3)"
    for b in strix_bench_fm strix_bench_sdsl_fm strix_bench_seqan3_fm; do
      [ -x "$host/$b" ] || { echo "$b: not carried"; continue; }
      [ "$b" = strix_bench_seqan3_fm ] && LC_ALL=C grep -q '[^ACGTN]' "$f" && continue
      OMP_NUM_THREADS="$threads" timeout 900 "$host/$b" "$f" --patterns "${STRIX_FM_HOST_PATTERNS:-1000000}" --runs 3 2>&1 |
        tee "$out/$name.$b.log" | grep RESULT
    done
  done
fi
