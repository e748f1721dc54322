#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Succinct figures, old (64-thread blocks) and new (>= 128) builds alternating, 3 runs each.
# Carry: DIR/old/strix_bench_succinct.xz and DIR/new/strix_bench_succinct.xz (as above), DIR/../lib.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/../lib:${LD_LIBRARY_PATH:-}"
cd "$here" && for x in old/*.xz new/*.xz; do [ -e "$x" ] && xz -df "$x"; done; chmod +x old/* new/*
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%Y-%m-%dT%H:%MZ)"
for b in old new; do
  timeout 140 $b/strix_bench_succinct --runs 3 --what ${WHAT:-bv,bvbig,wt,stream} --stream-chunk 67108864 > /tmp/$b.txt 2>&1; echo "$b exit $?"
done
join <(grep RESULT /tmp/old.txt | awk '{print $2, $3}' | sort) <(grep RESULT /tmp/new.txt | awk '{print $2, $3}' | sort) \
  | awk '{printf "%-45s %10s %10s\n", $1, $2, $3}'
