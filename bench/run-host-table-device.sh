#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 51's table on the device machine's 16-core host, from scripts/device-check.sh's pack
# (carry [".carry/check"], plus ".carry/data/linux.tar.xz" for linux.tar): the OpenMP strix
# (the pack's strix-host) against libsais (host/strix_bench_libsais) through bench/run-host-sa.sh,
# then the index load of the tool at 1, 4 and 16 threads.
#   bench/run-host-table-device.sh sa|extra|load INPUT...   (RESULT lines; logs under $OUT)
#   sa     COMMANDS (default "sa bwt lcp unbwt") at 1 2 4 8 16 threads: sais and divsufsort at
#          every count, auto at 16 only (below 16 it runs sais: bench/NOTES, issue 51); LEAN=1
#          (linux.tar in one call): 16 threads first, libdivsufsort at 1 and 16 only
#   extra  COMMANDS (default "gsa sa64") at THREADS (default "1 4 16")
#   sa-at  COMMANDS (default "sa bwt lcp unbwt") with sais and libsais at THREADS only (e.g. "4 2":
#          the counts a call ran out of time before), ROUNDS alternated rounds (default 1)
#   load   an index of each input (16 threads), then `count` of two patterns at 1, 4, 16 threads,
#          three runs each after a warm-up: the load stage's seconds and its GB/s of index file
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
what="$1"; shift
w=/tmp/strix-host-table hb=/tmp/strix-host-build in=/tmp/strix-in out="${OUT:-/tmp/strix-host-out}"
mkdir -p "$w" "$hb/bench" "$in" "$out"
[ -x "$w/bin/strix-host" ] || tar -xJf "$root/.carry/check/check.tar.xz" -C "$w"
export LD_LIBRARY_PATH="$w/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
ln -sf "$w/bin/strix-host" "$hb/strix"
[ -x "$w/host/strix_bench_libsais" ] && ln -sf "$w/host/strix_bench_libsais" "$hb/bench/strix_bench_libsais"
inputs=()
for name in "$@"; do
  for f in "$root"/.carry/check*/data/"$name.xz" "$root/.carry/data/$name.xz"; do
    [ -f "$in/$name" ] || { [ -e "$f" ] && xz -T0 -dc "$f" > "$in/$name"; }
  done
  [ -f "$in/$name" ] && inputs+=("$in/$name") || echo "# $name: not carried" >&2
done
echo "# host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%FT%TZ)"

case "$what" in
  sa)
    export COMMANDS="${COMMANDS:-sa bwt lcp unbwt}"
    if [ -n "${LEAN:-}" ]; then  # a large input in one call: libdivsufsort at 1 and 16 threads only
      ALGORITHMS="sais divsufsort auto" bash "$root/bench/run-host-sa.sh" "$hb" "16" 1 "${inputs[@]}"
      ALGORITHMS="sais divsufsort" bash "$root/bench/run-host-sa.sh" "$hb" "1" 1 "${inputs[@]}"
      ALGORITHMS="sais" bash "$root/bench/run-host-sa.sh" "$hb" "8 4 2" 1 "${inputs[@]}"
    else
      ALGORITHMS="sais divsufsort" bash "$root/bench/run-host-sa.sh" "$hb" "1 2 4 8" 1 "${inputs[@]}"
      ALGORITHMS="sais divsufsort auto" bash "$root/bench/run-host-sa.sh" "$hb" "16" 1 "${inputs[@]}"
    fi ;;
  sa-at)
    COMMANDS="${COMMANDS:-sa bwt lcp unbwt}" ALGORITHMS="sais" bash "$root/bench/run-host-sa.sh" "$hb" "$THREADS" "${ROUNDS:-1}" "${inputs[@]}" ;;
  extra)
    COMMANDS="${COMMANDS:-gsa sa64}" ALGORITHMS="sais" bash "$root/bench/run-host-sa.sh" "$hb" "${THREADS:-1 4 16}" 1 "${inputs[@]}" ;;
  load)
    for input in "${inputs[@]}"; do
      name="${input##*/}" idx="/tmp/$name.idx"
      "$hb/strix" --threads 16 index "$input" -o "$idx" --quiet || continue
      head -c 64 "$input" | tail -c 20 > /tmp/p.txt; printf '\n' >> /tmp/p.txt; head -c 40 "$input" | tail -c 12 >> /tmp/p.txt; printf '\n' >> /tmp/p.txt
      bytes="$(stat -c %s "$idx")"
      for t in 1 4 16; do
        "$hb/strix" --threads "$t" count "$idx" /tmp/p.txt -o /tmp/c.txt --stats > /dev/null  # warm-up
        for r in 1 2 3; do
          "$hb/strix" --threads "$t" count "$idx" /tmp/p.txt -o /tmp/c.txt --stats > "$out/load.$name.$t.$r.json"
        done
        python3 - "$out" "$name" "$t" "$bytes" <<'PY'
import json, statistics, sys
out, name, t, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = [json.load(open(f"{out}/load.{name}.{t}.{r}.json"))["stages_seconds"]["load"] for r in (1, 2, 3)]
m = statistics.median(s)
print(f"RESULT command=load input={name} threads={t} index_bytes={n} seconds={m:.4f} GB_per_s={n / m / 1e9:.2f}")
PY
      done
    done ;;
  *) sed -n 3,13p "$0"; exit 2 ;;
esac
