#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 51's profile on the device machine's host: where strix's SA-IS and libsais spend their
# time, side by side, by perf's software clock (the device image has no perf and no hardware
# events: perf and its libraries travel in .carry/perf/perf-carry.tar.xz, packed from Debian's
# linux-perf; unstripped builds of strix and strix_bench_libsais in .carry/perf/bins.tar.xz).
# Carry [".carry/check", ".carry/perf"].
#   [COMMAND=sa|lcp|bwt] bench/profile-host-device.sh "THREADS" INPUT...   e.g. "1 16" english.txt chrX.dna
# For each input and thread count: strix COMMAND --algorithm sais, then libsais' same command
# (lcp: libsais_omp + libsais_plcp_omp + libsais_lcp_omp), each under `perf record -e cpu-clock`;
# prints each one's seconds and its functions above 1 % of samples.
# COMMAND=load: an index of each input (16 threads), then ten `strix count` runs of two patterns
# at each thread count under one perf record (the load is tens of milliseconds); strix only.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
threads="$1"; shift
command="${COMMAND:-sa}"
w=/tmp/strix-profile in=/tmp/strix-in out="${OUT:-/tmp/strix-profile-out}"
mkdir -p "$w" "$in" "$out"
tar -xJf "$root/.carry/perf/perf-carry.tar.xz" -C "$w"
tar -xJf "$root/.carry/perf/bins.tar.xz" -C "$w"
[ -d "$w/pack" ] || { mkdir -p "$w/pack" && tar -xJf "$root/.carry/check/check.tar.xz" -C "$w/pack"; }
export LD_LIBRARY_PATH="$w/pack/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
perf() { LD_LIBRARY_PATH="$w/lib:$LD_LIBRARY_PATH" "$w/perf" "$@"; }
echo "# host: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%FT%TZ);" \
  "perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null)"
for name in "$@"; do
  [ -f "$in/$name" ] || xz -T0 -dc "$root"/.carry/check/data/"$name.xz" > "$in/$name" || { echo "# $name: not carried"; continue; }
  for t in $threads; do
    sides="strix libsais"
    if [ "$command" = load ]; then
      sides=strix
      [ -f "/tmp/$name.idx" ] || "$w/strix" --threads 16 index "$in/$name" -o "/tmp/$name.idx" --quiet
      head -c 64 "$in/$name" | tail -c 20 > /tmp/profile.p; printf '\n' >> /tmp/profile.p
      head -c 40 "$in/$name" | tail -c 12 >> /tmp/profile.p; printf '\n' >> /tmp/profile.p
    fi
    for side in $sides; do
      case "$side" in
        strix) [ "$command" = load ] &&
          cmd=(sh -c "for r in 1 2 3 4 5 6 7 8 9 10; do '$w/strix' --threads $t count '/tmp/$name.idx' /tmp/profile.p -o /tmp/profile.out --stats | grep -o '\"load\": [0-9.]*'; done") ||
          cmd=("$w/strix" --threads "$t" "$command" "$in/$name" -o /tmp/profile.out --algorithm sais --stats) ;;
        libsais) cmd=("$w/strix_bench_libsais" "$in/$name" /tmp/profile.out 1 "$t" "$command") ;;
      esac
      "${cmd[@]}" > /dev/null 2>&1  # warm-up (page cache, the binary)
      data="$out/perf.$side.$name.$t.data"
      perf record -e cpu-clock -F 2000 -o "$data" -- "${cmd[@]}" > "$out/run.$side.$name.$t.txt" 2> "$out/record.$side.$name.$t.err" ||
        { echo "# perf record failed:"; tail -3 "$out/record.$side.$name.$t.err"; continue; }
      seconds="$(grep -o 'seconds=[0-9.]*' "$out/run.$side.$name.$t.txt" || grep -oE '"(suffix_array|bwt|lcp|load)": [0-9.]*' "$out/run.$side.$name.$t.txt" | xargs)"
      echo "## $side $command, $name, $t thread(s): $seconds"
      perf report -i "$data" --stdio --no-children --sort symbol --percent-limit 1 2> /dev/null |
        grep -v '^#' | grep -v '^$' | sed -E 's/[[:space:]]+-[[:space:]]+-[[:space:]]*$//' | cut -c1-220 | head -25
      rm -f "$data"
    done
  done
done
