#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every output byte-identical across the enabled backends and across 1, 2 and 7 OpenMP
# threads: suffix array, BWT (and primary index), LCP, leftmost and all longest repeats.
# Usage: cli_determinism_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

head -c 200000 /dev/urandom > random.bin
yes 'abracadabra' | head -c 150000 > periodic.txt
awk 'BEGIN { a = "a"; b = "ab"; while (length(b) < 100000) { c = b a; a = b; b = c }
             printf "%s", substr(b, 1, 100000) }' > fibonacci.txt
head -c 100000 /dev/zero > zeros.bin

runs=()
for b in serial openmp cuda; do "$STRIX" --version | grep -q "$b" && [ "$b" != openmp ] && runs+=("--backend $b"); done
if "$STRIX" --version | grep -q openmp; then
  for t in 1 2 7; do runs+=("--threads $t --backend openmp"); done
fi

for input in random.bin periodic.txt fibonacci.txt zeros.bin; do
  i=0
  for run in "${runs[@]}"; do
    global="${run%%--backend*}"; backend="--backend ${run##*--backend }"
    # shellcheck disable=SC2086
    { "$STRIX" $global sa "$input" -o "r$i.sa" $backend &&
      "$STRIX" $global bwt "$input" -o "r$i.bwt" --primary-out "r$i.primary" $backend >/dev/null &&
      "$STRIX" $global lcp "$input" -o "r$i.lcp" $backend &&
      "$STRIX" $global repeats "$input" -o "r$i.lr" $backend &&
      "$STRIX" $global repeats "$input" -o "r$i.all" --all $backend; } 2>err.txt \
      || bad "$input with '$run': $(cat err.txt)"
    if [ $i -gt 0 ]; then
      for ext in sa bwt primary lcp lr all; do
        cmp -s "r0.$ext" "r$i.$ext" && ok || bad "$input: .$ext differs between '${runs[0]}' and '$run'"
      done
    fi
    i=$((i + 1))
  done
done
echo "cli_determinism: $pass passed, $fail failed (runs: ${runs[*]})"
[ "$fail" -eq 0 ]
