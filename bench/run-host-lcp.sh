#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host LCP array (issue 24): the `lcp` stage of `strix lcp INPUT --sa SA --stats` in seconds
# (the suffix array is made once per input by the first strix and read by every run; its
# load and check are not counted), and the run's peak resident bytes per input byte, for one
# strix or several side by side (alternating per round), at each thread count. Every output is
# compared with the first strix's. RESULT lines on stdout.
#   bench/run-host-lcp.sh "STRIX..." "THREADS..." ROUNDS INPUT...
set -euo pipefail
binaries="$1" threads="$2" rounds="$3"
shift 3
first="${binaries%% *}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%FT%TZ) $(hostname) $(nproc) cores"
for input in "$@"; do
  "$first" sa "$input" -o "$tmp/in.sa" --quiet
  n="$(stat -c %s "$input")"
  for t in $threads; do
    for round in $(seq "$rounds"); do
      for strix in $binaries; do
        /usr/bin/time -f "%e %M" -o "$tmp/time" "$strix" --threads "$t" lcp "$input" --sa "$tmp/in.sa" \
          -o "$tmp/out" --stats --quiet > "$tmp/stats.json"
        read -r _ rss_kb < "$tmp/time"
        seconds="$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["stages_seconds"]["lcp"])' "$tmp/stats.json")"
        if [ "$strix" = "$first" ]; then mv "$tmp/out" "$tmp/first.lcp"; same=first
        else cmp -s "$tmp/out" "$tmp/first.lcp" && same=yes || same=NO; fi
        echo "RESULT input=${input##*/} threads=$t round=$round strix=$strix lcp_seconds=$seconds" \
          "rss_bytes_per_byte=$(awk -v r="$rss_kb" -v n="$n" 'BEGIN { printf "%.2f", r * 1024 / n }') same_as_first=$same"
      done
    done
  done
done
