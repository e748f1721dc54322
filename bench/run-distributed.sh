#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Distributed suffix arrays side by side (issue 17): `strix sa --distributed` under mpirun
# with each rank count in RANKS, alternating the rank counts in every round after one
# warm-up each; prints one RESULT line per (input, ranks): median seconds of the whole run
# (mpirun included), median seconds of rank 0's stages (read, build, write), bytes sent
# between ranks (sum) and the largest rank's peak resident memory. One rank per GPU on CUDA
# builds (`--backend cuda`); THREADS host threads per rank otherwise.
#   bench/run-distributed.sh STRIX "1 2" RUNS INPUT...   (env: BACKEND, THREADS, WIDTH, MPIRUN)
set -euo pipefail
strix="$1" ranks="$2" runs="$3"
shift 3
backend="${BACKEND:-default}" threads="${THREADS:-1}" width="${WIDTH:-0}" mpirun="${MPIRUN:-mpirun}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_pcompress_base_silence_warning=1 OMP_NUM_THREADS="$threads" OMP_PROC_BIND=false
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
echo "# $(date -u '+%F %T') $(hostname) $(nproc --all) cores; $strix; backend $backend, $threads threads/rank, ranks: $ranks, $runs runs"
widthopt=()
[ "$width" != 0 ] && widthopt=(--width "$width")
one_run() {  # ranks input json
  local t0 t1
  t0=$(date +%s.%N)
  "$mpirun" -q -np "$1" "$strix" sa "$2" -o "$out/sa" --distributed --backend "$backend" "${widthopt[@]}" --stats --quiet >"$3"
  t1=$(date +%s.%N)
  python3 -c "import json,sys; j=json.load(open('$3')); j['wall']=$t1-$t0; json.dump(j, open('$3','w'))"
}
for input in "$@"; do
  for np in $ranks; do one_run "$np" "$input" "$out/warm.json"; done
  for r in $(seq "$runs"); do
    for np in $ranks; do one_run "$np" "$input" "$out/$np.$r.json"; done
  done
  for np in $ranks; do
    python3 - "$input" "$np" "$out"/"$np".*.json <<'PY'
import json, statistics, sys
name, np, files = sys.argv[1], sys.argv[2], sys.argv[3:]
js = [json.load(open(f)) for f in files]
wall = statistics.median(j['wall'] for j in js)
stages = statistics.median(j['total_seconds'] for j in js)
build = statistics.median(j['stages_seconds'].get('suffix_array', 0) for j in js)
sent = js[0].get('ranks_bytes_sent', [0])
rss = js[0].get('ranks_max_rss_bytes', [0])
n = js[0]['n']
print(f"RESULT input={name} n={n} ranks={np} backend={js[0]['backend']} wall_s={wall:.3f} stages_s={stages:.3f} "
      f"build_s={build:.3f} bytes_sent={sum(sent)} bytes_sent_per_char={sum(sent)/max(n,1):.2f} "
      f"max_rank_rss_MB={max(rss)/2**20:.0f} rounds={js[0]['counters'].get('distributed_rounds', 0)}")
PY
  done
done
