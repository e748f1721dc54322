#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Device-side profile helpers (needs .carry/bin and .carry/data like run-device.sh):
#   bench/run-profile.sh rounds INPUT      per-round phase times of one construction
#   bench/run-profile.sh ncu INPUT KERNEL_REGEX [COUNT]   Nsight Compute sections of kernels
#   bench/run-profile.sh kernels INPUT sa|bwt [ANCHOR]   every kernel of one `strix sa|bwt` run
#                                          under Nsight Compute, summed by kernel (time, DRAM bytes,
#                                          DRAM/SM throughput, L2 hits: bench/ncu_kernels.py); ANCHOR
#                                          (e.g. v1.6.3): libcubwt's harness on the same input too
#   bench/run-profile.sh maxn BYTES...     the largest 32-bit suffix array that fits: builds
#                                          the SA of a period-1000 text of each size, stops at
#                                          the first that runs out of device memory
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# PROFILE_CARRY: the pack folder whose data/ holds the inputs (default .carry); PROFILE_BIN: another
# folder of binaries, e.g. /tmp/strix-check/bin from the device check's
# pack (its libraries beside it in ../lib).
carry="$root/${PROFILE_CARRY:-.carry}"; bin="${PROFILE_BIN:-$carry/bin}"; in=/tmp/strix-in
export LD_LIBRARY_PATH="$carry/lib:$bin/../lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
what="$1"; shift
find_ncu() { command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1; }
case "$what" in
  rounds)
    inputs="$1"; source "$root/bench/device-inputs.sh"
    "$bin/strix" sa "$in/$1" -o /tmp/strix.sa >/dev/null 2>&1   # warm-up
    "$bin/strix" sa "$in/$1" -o /tmp/strix.sa --progress --stats 2>&1 | grep -v '^ ' | grep -v '^[{}]'
    ;;
  ncu)
    inputs="$1"; source "$root/bench/device-inputs.sh"
    ncu=$(find_ncu)
    "$ncu" -k "regex:$2" -c "${3:-3}" --section SpeedOfLight --section Occupancy \
      --section LaunchStats --section MemoryWorkloadAnalysis \
      "$bin/strix" sa "$in/$1" -o /tmp/strix.sa 2>&1 |
      grep -E '^  [a-zA-Z]|Duration|Throughput|Registers|Achieved Occupancy|Theoretical Occupancy|Block Limit|Grid Size|Mem Busy|Max Bandwidth|L2 Hit|L1/TEX Hit' | head -80
    ;;
  kernels)
    inputs="$1"; source "$root/bench/device-inputs.sh"
    ncu=$(find_ncu)
    out="${OUT:-/tmp/strix-profile}"; mkdir -p "$out"
    metrics=gpu__time_duration.sum,dram__bytes.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
    metrics+=,sm__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_sector_hit_rate.pct
    # Clocks as the runs have them (ncu locks them to base otherwise); caches flushed a pass.
    profile() {  # name runs command...
      local name="$1" runs="$2"; shift 2
      timeout "${NCU_TIMEOUT:-400}" "$ncu" --csv --print-kernel-base demangled --clock-control none --metrics "$metrics" "$@" \
        > "$out/ncu-$name.csv" 2> "$out/ncu-$name.err" || { echo "ncu $name failed:"; tail -3 "$out/ncu-$name.err"; }
      echo "### $name"
      python3 "$root/bench/ncu_kernels.py" "$out/ncu-$name.csv" --runs "$runs" --top "${KERNELS_TOP:-25}"
    }
    "$bin/strix" "$2" "$in/$1" -o /tmp/strix.out --quiet  # a warm-up outside the profile
    profile "strix-$2-$1" 1 "$bin/strix" "$2" "$in/$1" -o /tmp/strix.out --quiet
    if [ -n "${3:-}" ]; then  # the harness's warm-up and one timed run: halved
      profile "cubwt-$3-$2-$1" 2 "$root/.carry/anchors/strix_bench_cubwt-$3" "$2" "$in/$1" /tmp/cubwt.out 1
    fi
    ;;
  maxn)
    nvidia-smi --query-gpu=name,memory.total,memory.free --format=csv,noheader
    for bytes in "$@"; do
      "$bin/strix_bench_gen" periodic "$bytes" /tmp/maxn.txt 1000
      if "$bin/strix" sa /tmp/maxn.txt -o /tmp/maxn.sa --stats > /tmp/maxn.json 2> /tmp/maxn.err; then
        python3 -c "import json;d=json.load(open('/tmp/maxn.json'));print('n=%d ok: %.2f s total, peak %.1f GB (%.1f B/n)'%(d['n'],d['total_seconds'],d['peak_bytes']/1e9,d['peak_bytes_per_input_byte']))"
        "$bin/strix" check /tmp/maxn.txt /tmp/maxn.sa
      else
        echo "n=$bytes failed: $(tail -1 /tmp/maxn.err)"; break
      fi
      rm -f /tmp/maxn.sa
    done
    ;;
esac
