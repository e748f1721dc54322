#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host inverse BWT (issue 24): `strix unbwt` wall seconds and peak resident bytes per input
# byte, for one strix or several side by side (alternating per round), at each thread count.
# The BWT is made once per input by the first strix; every output is compared with the input.
# RESULT lines on stdout.
#   bench/run-host-unbwt.sh "STRIX..." "THREADS..." ROUNDS INPUT...
set -euo pipefail
binaries="$1" threads="$2" rounds="$3"
shift 3
first="${binaries%% *}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%FT%TZ) $(hostname) $(nproc) cores"
for input in "$@"; do
  primary="$("$first" bwt "$input" -o "$tmp/in.bwt" | awk '{ print $NF }')"
  n="$(stat -c %s "$input")"
  for t in $threads; do
    for round in $(seq "$rounds"); do
      for strix in $binaries; do
        /usr/bin/time -f "%e %M" -o "$tmp/time" "$strix" --threads "$t" unbwt "$tmp/in.bwt" -o "$tmp/out" --primary "$primary"
        read -r seconds rss_kb < "$tmp/time"
        cmp -s "$tmp/out" "$input" && same=yes || same=NO
        echo "RESULT input=${input##*/} threads=$t round=$round strix=$strix seconds=$seconds" \
          "rss_bytes_per_byte=$(awk -v r="$rss_kb" -v n="$n" 'BEGIN { printf "%.2f", r * 1024 / n }') text_back=$same"
      done
    done
  done
done
