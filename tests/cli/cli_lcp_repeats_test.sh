#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of `strix lcp` and `strix repeats`: formats, options, every error path.
# Usage: cli_lcp_repeats_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"
u32() { od -An -tu4 -v "$1" | xargs; }
u64() { od -An -tu8 -v "$1" | xargs; }

printf 'mississippi' > miss.txt
printf '' > empty.txt
head -c 100000 /dev/urandom | tr -dc 'acgt' | head -c 20000 > dna.txt

# --- LCP ------------------------------------------------------------------------
"$STRIX" lcp miss.txt -o miss.lcp && [ "$(u32 miss.lcp)" = "0 1 1 4 0 0 1 0 2 1 3" ] && ok \
  || bad "lcp of mississippi: $(u32 miss.lcp 2>/dev/null)"
"$STRIX" lcp miss.txt -o miss64.lcp --width 64 && [ "$(u64 miss64.lcp)" = "0 1 1 4 0 0 1 0 2 1 3" ] \
  && ok || bad "64-bit lcp"
"$STRIX" lcp empty.txt -o empty.lcp && [ "$(stat -c %s empty.lcp)" -eq 0 ] && ok || bad "lcp of empty input"
"$STRIX" sa dna.txt -o dna.sa && "$STRIX" lcp dna.txt -o dna.lcp && "$STRIX" lcp dna.txt --sa dna.sa -o dna2.lcp \
  && cmp -s dna.lcp dna2.lcp && ok || bad "lcp with --sa differs"
"$STRIX" lcp dna.txt -o dna.stats.lcp --stats > stats.json && grep -q '"lcp"' stats.json && ok || bad "lcp --stats"
for b in serial openmp; do
  if "$STRIX" --version | grep -q "$b"; then
    "$STRIX" lcp dna.txt -o "dna.$b.lcp" --backend "$b" && cmp -s dna.lcp "dna.$b.lcp" && ok || bad "lcp --backend $b"
  fi
done

# --- repeats --------------------------------------------------------------------
# Leftmost: (start, length) per position; 'm' is a singleton: (0, 0).
want_left="0 0 1 4 1 4 1 4 1 4 4 4 4 4 4 4 8 1 9 1 10 1"
for m in raw compact; do
  "$STRIX" repeats miss.txt -o "miss.$m.lr" --method "$m" && [ "$(u32 "miss.$m.lr")" = "$want_left" ] && ok \
    || bad "leftmost $m: $(u32 "miss.$m.lr" 2>/dev/null)"
  # All: 12 64-bit offsets, then 12 records (position 4 has two).
  "$STRIX" repeats miss.txt -o "miss.$m.all" --all --method "$m" \
    && [ "$(head -c 96 "miss.$m.all" | od -An -tu8 -v | xargs)" = "0 0 1 2 3 5 6 7 8 9 10 11" ] \
    && [ "$(tail -c +97 "miss.$m.all" | od -An -tu4 -v | xargs)" = "1 4 1 4 1 4 1 4 4 4 4 4 4 4 4 4 8 1 9 1 10 1" ] \
    && ok || bad "all $m"
done
"$STRIX" repeats miss.txt -o miss64.lr --width 64 && [ "$(u64 miss64.lr)" = "$want_left" ] && ok || bad "64-bit leftmost"
"$STRIX" repeats miss.txt -o miss.tsv --format tsv && [ "$(sed -n 1p miss.tsv)" = "$(printf 'position\tstart\tlength')" ] \
  && [ "$(sed -n 2p miss.tsv)" = "$(printf '0\t-\t0')" ] && [ "$(sed -n 6p miss.tsv)" = "$(printf '4\t1\t4')" ] \
  && [ "$(wc -l < miss.tsv)" -eq 12 ] && ok || bad "leftmost tsv: $(cat miss.tsv)"
"$STRIX" repeats miss.txt -o miss.all.tsv --format tsv --all && [ "$(grep -c "^4$(printf '\t')" miss.all.tsv)" -eq 2 ] \
  && [ "$(wc -l < miss.all.tsv)" -eq 13 ] && ok || bad "all tsv: $(cat miss.all.tsv)"
for mode in "" --all; do
  "$STRIX" repeats dna.txt -o dna.raw $mode --method raw && "$STRIX" repeats dna.txt -o dna.compact $mode \
    && cmp -s dna.raw dna.compact && "$STRIX" repeats dna.txt --sa dna.sa -o dna.sa.out $mode \
    && cmp -s dna.compact dna.sa.out && ok || bad "raw, compact and --sa differ ($mode)"
done
"$STRIX" repeats empty.txt -o empty.lr && [ "$(stat -c %s empty.lr)" -eq 0 ] && ok || bad "repeats of empty input"
"$STRIX" repeats empty.txt -o empty.all --all && [ "$(u64 empty.all)" = "0" ] && ok || bad "all of empty input"
"$STRIX" repeats dna.txt -o dna.stats.lr --stats > stats.json && grep -q '"longest_repeats"' stats.json && ok \
  || bad "repeats --stats"

# --- errors leave nothing behind --------------------------------------------------
expect_error "lcp: missing input" o1 "$STRIX" lcp does-not-exist.txt -o o1
expect_error "repeats: missing input" o2 "$STRIX" repeats does-not-exist.txt -o o2
expect_error "repeats: bad method" o3 "$STRIX" repeats miss.txt -o o3 --method fast
expect_error "repeats: bad format" o4 "$STRIX" repeats miss.txt -o o4 --format csv
expect_error "lcp: bad width" o5 "$STRIX" lcp miss.txt -o o5 --width 16
expect_error "lcp: SA file of the wrong size" o6 "$STRIX" lcp miss.txt -o o6 --sa dna.sa
"$STRIX" sa miss.txt -o miss.sa
cp miss.sa wrong.sa && printf '\x00\x00\x00\x00' | dd of=wrong.sa bs=1 seek=4 conv=notrunc 2>/dev/null
expect_error "lcp: wrong suffix array" o7 "$STRIX" lcp miss.txt -o o7 --sa wrong.sa
expect_error "repeats: wrong suffix array" o8 "$STRIX" repeats miss.txt -o o8 --sa wrong.sa
expect_error "repeats: width disagrees with SA file" o9 "$STRIX" repeats miss.txt -o o9 --sa miss.sa --width 64
expect_error "lcp: missing output folder" no/such/dir/o "$STRIX" lcp miss.txt -o no/such/dir/o
expect_error "repeats: missing backend" o10 "$STRIX" repeats miss.txt -o o10 --backend nonesuch
truncate -s 4G huge.bin   # sparse: never read
expect_error "lcp: width too small" o11 "$STRIX" lcp huge.bin -o o11 --width 32

echo "cli_lcp_repeats_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
