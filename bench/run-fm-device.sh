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
#   bench/run-fm-device.sh [tests|bench|python|all] [PATTERNS] [THREADS]
# PYTHON names the interpreter the module was built for (default python3).
# Every step is time-boxed and logged under $OUT (default /tmp/strix-fm-out); RESULT lines
# and the test summaries are printed.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
carry="$root/.carry"
what="${1:-all}"
patterns="${2:-10000000}"
threads="${3:-16}"
out="${OUT:-/tmp/strix-fm-out}"
bin="${STRIX_BIN:-$carry/bin}"
host="$bin/host"
in=/tmp/strix-in
inputs="english.txt chrX.dna"
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
  if [ -d "$carry/python" ] && "$py" -c 'import numpy, pytest' 2>/dev/null; then
    PYTHONPATH="$carry/python" timeout 600 "$py" -m pytest -q -p no:cacheprovider "$root/tests/python" \
      > "$out/python.log" 2>&1
    echo "pytest exit $?"; tail -3 "$out/python.log"
  else
    echo "skipped: no carried module, or no numpy/pytest for $py"
  fi
fi

if [ "$what" = bench ] || [ "$what" = all ]; then
  source "$root/bench/device-inputs.sh"
  for name in $inputs; do
    f="$in/$name"
    [ -f "$f" ] || { echo "$name: not carried"; continue; }
    echo "== $name: strix on the GPU ($patterns patterns a length)"
    timeout 900 "$bin/strix_bench_fm" "$f" --patterns "$patterns" --runs 3 2>&1 | tee "$out/$name.gpu.log" | grep RESULT
    echo "== $name: the host side by side, $threads threads, 10^6 patterns (strix OpenMP / SDSL / SeqAn3)"
    for b in strix_bench_fm strix_bench_sdsl_fm strix_bench_seqan3_fm; do
      [ -x "$host/$b" ] || { echo "$b: not carried"; continue; }
      [ "$b" = strix_bench_seqan3_fm ] && LC_ALL=C grep -q '[^ACGTN]' "$f" && continue
      OMP_NUM_THREADS="$threads" timeout 900 "$host/$b" "$f" --patterns 1000000 --runs 3 2>&1 |
        tee "$out/$name.$b.log" | grep RESULT
    done
  done
fi
