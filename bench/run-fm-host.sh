#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# FM-index side by side on the host (issue 16): strix_bench_fm (the build's default backend)
# and SDSL's csa_wt<wt_huff<>> (strix_bench_sdsl_fm), and on DNA SeqAn3's fm_index
# (strix_bench_seqan3_fm), same patterns, same threads, alternating strix / the baselines /
# strix per input. Results go to stdout as RESULT lines.
#   bench/run-fm-host.sh BUILD_DIR THREADS PATTERNS INPUT...
set -euo pipefail
build="$1" threads="$2" patterns="$3"
shift 3
echo "# $(date -u +%F) $(hostname) $(nproc) cores, OMP_NUM_THREADS=$threads, $patterns patterns"
for input in "$@"; do
  for round in 1 2; do
    echo "# strix, round $round: $input"
    OMP_NUM_THREADS="$threads" OMP_PROC_BIND=false "$build/bench/strix_bench_fm" "$input" --patterns "$patterns" --runs 3
    if [ "$round" = 1 ] && [ -x "$build/bench/strix_bench_sdsl_fm" ]; then
      echo "# SDSL: $input"
      OMP_NUM_THREADS="$threads" "$build/bench/strix_bench_sdsl_fm" "$input" --patterns "$patterns" --runs 3
    fi
    if [ "$round" = 1 ] && [ -x "$build/bench/strix_bench_seqan3_fm" ] && ! LC_ALL=C grep -q '[^ACGTN]' "$input"; then
      echo "# SeqAn3: $input"
      OMP_NUM_THREADS="$threads" "$build/bench/strix_bench_seqan3_fm" "$input" --patterns "$patterns" --runs 3
    fi
  done
done
