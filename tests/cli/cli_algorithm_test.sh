#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# --algorithm on every subcommand that builds a suffix array: every algorithm, on every
# backend this strix has (CUDA only when a GPU is usable), gives libdivsufsort's suffix
# array (checked by `strix check` and against `--algorithm divsufsort` on the host), the
# same BWT, LCP and repeats; --stats names the algorithm (auto: the one it picked); unknown
# names and unsupported periods are one-line errors.
# Usage: cli_algorithm_test.sh PATH/TO/strix   (STRIX_TEST_ALGORITHMS, STRIX_TEST_BACKENDS: subsets;
# STRIX_TEST_TRACE=FILE: each suffix-array run appended to FILE with its start time, so that a run
# cut off by a timeout, or a slow one, says where it was)
set -u
[ -n "${STRIX_TEST_TRACE:-}" ] && STRIX_TEST_TRACE="$(realpath -m "$STRIX_TEST_TRACE")"  # (before the harness's cd)
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"
algorithms="${STRIX_TEST_ALGORITHMS:-auto prefix-doubling larsson-sadakane skew hybrid dc7 dc13 dc21 divsufsort sais}"

printf 'mississippi' > miss.txt
head -c 300000 /dev/urandom > random.bin
python3 -c "
import sys
a, b = b'a', b'b'
while len(b) < 70000: a, b = b, b + a
sys.stdout.buffer.write(b[:70000])" > fib.txt
python3 -c "import sys; sys.stdout.buffer.write((bytes(range(256)) * 3 + b'\x00' * 40 + b'\xff' * 40)[:937] * 97)" > periodic.bin
printf 'z' > one.txt
printf '' > empty.txt
head -c 100000 /dev/zero > zeros.bin
inputs="miss.txt random.bin fib.txt periodic.bin one.txt empty.txt zeros.bin"

backends=""
for b in ${STRIX_TEST_BACKENDS:-serial openmp cuda}; do
  "$STRIX" --version | grep -qi "$b" && backends="$backends $b"
done
case "$backends" in *cuda*) "$STRIX" sa miss.txt -o probe.sa --backend cuda 2>/dev/null || backends="${backends/cuda/}";; esac
host=openmp; case "$backends" in *openmp*) ;; *) host=serial;; esac

for input in $inputs; do
  "$STRIX" sa "$input" -o "$input.ref" --backend "$host" --algorithm divsufsort 2>err.txt || bad "divsufsort $input: $(cat err.txt)"
done
for b in $backends; do
  for alg in $algorithms; do
    [ "$b" = cuda ] && { [ "$alg" = divsufsort ] || [ "$alg" = sais ]; } && continue  # host backends only (checked below)
    for input in $inputs; do
      for width in 32 64; do
        [ -n "${STRIX_TEST_TRACE:-}" ] && echo "$(date +%s.%N) $b $alg $input $width" >> "$STRIX_TEST_TRACE"
        "$STRIX" sa "$input" -o "$input.$alg.sa" --backend "$b" --algorithm "$alg" --width "$width" 2>err.txt \
          || { bad "$b $alg $input $width: $(cat err.txt)"; continue; }
        if [ "$width" = 32 ]; then cmp -s "$input.$alg.sa" "$input.ref" && ok || bad "$b $alg $input: not libdivsufsort's SA"
        # (checked on the same backend: a host run's check on the GPU would start CUDA each time)
        else "$STRIX" check "$input" "$input.$alg.sa" --backend "$b" >/dev/null && ok || bad "$b $alg $input: 64-bit SA fails check"; fi
      done
    done
    "$STRIX" sa random.bin -o s.sa --backend "$b" --algorithm "$alg" --stats > stats.json \
      && python3 -c "
import json, sys
picked = json.load(open('stats.json'))['algorithm']
want = sys.argv[1]
sys.exit(0 if (picked == want if want != 'auto' else picked not in ('', 'auto')) else 1)" "$alg" \
      && ok || bad "$b $alg: --stats does not name the algorithm: $(grep algorithm stats.json)"
    "$STRIX" bwt fib.txt -o "fib.$alg.bwt" --backend "$b" --algorithm "$alg" > "fib.$alg.primary" \
      && "$STRIX" lcp fib.txt -o "fib.$alg.lcp" --backend "$b" --algorithm "$alg" \
      && "$STRIX" repeats fib.txt -o "fib.$alg.rep" --backend "$b" --algorithm "$alg" || bad "$b $alg: bwt/lcp/repeats failed"
    for kind in bwt primary lcp rep; do
      [ -f "fib.auto.$kind" ] || cp "fib.$alg.$kind" "fib.auto.$kind"
      cmp -s "fib.$alg.$kind" "fib.auto.$kind" && ok || bad "$b $alg: $kind differs from auto's"
    done
  done
done

# auto on host threads: sais from 1 MiB at every thread count (also under a memory cap); the same
# suffix array.
case "$backends" in *openmp*)
  python3 -c "
import random, sys
random.seed(5)
sys.stdout.buffer.write(bytes(random.choice(b'ACGT') for _ in range(1200000)))" > dna.txt
  "$STRIX" sa dna.txt -o dna.ref --backend openmp --algorithm divsufsort 2>err.txt || bad "divsufsort dna.txt: $(cat err.txt)"
  for case in "1 " "4 " "16 " "16 20000000"; do
    threads="${case% *}" limit="${case#* }"
    want=sais
    STRIX_HOST_MEMORY_BYTES="$limit" "$STRIX" --threads "$threads" sa dna.txt -o dna.sa --backend openmp --stats > stats.json 2>/dev/null \
      && grep -q "\"algorithm\": \"$want\"" stats.json && ok || bad "auto on $threads threads, memory limit '$limit': not $want: $(grep algorithm stats.json)"
    cmp -s dna.sa dna.ref && ok || bad "auto on $threads threads, memory limit '$limit': not libdivsufsort's SA"
  done;;
esac

expect_error "unknown algorithm" bad.sa "$STRIX" sa miss.txt -o bad.sa --algorithm quicksort
grep -q "known: auto" stderr.txt && ok || bad "unknown algorithm: the message lists the known ones"
expect_error "unsupported difference cover" bad.sa "$STRIX" sa miss.txt -o bad.sa --algorithm dc4
case "$backends" in *cuda*)
  expect_error "divsufsort on the GPU" bad.sa "$STRIX" sa miss.txt -o bad.sa --backend cuda --algorithm divsufsort
  expect_error "sais on the GPU" bad.sa "$STRIX" sa miss.txt -o bad.sa --backend cuda --algorithm sais;;
esac

echo "cli_algorithm_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
