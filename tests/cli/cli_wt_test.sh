#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of `strix wt build` and `strix wt query`: answers against a brute force in
# awk on random and hard texts (trees and matrices, 1- and 2-byte symbols, TSV and binary),
# and every error path (foreign, truncated and corrupt files, bad queries).
# Usage: cli_wt_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

# Symbols of a text as decimal numbers, one per line (BYTES: 1 or 2, little-endian).
symbols() { od -An -v -tu"$2" "$1" | tr -s ' \t' '\n\n' | sed '/^$/d'; }

# brute OP TEXTSYMS QUERIES: the answers, one per line, by scanning the text.
brute() {
  awk -v op="$1" -F '\t' '
    NR == FNR { t[n + 0] = $1; occ[$1, ++cnt[$1]] = n + 0; n++; next }
    op == "access" { print t[$1]; next }
    op == "rank"   { c = $1; i = $2; r = 0; for (j = 0; j < i; j++) if (t[j] == c) r++; print r; next }
    op == "select" { c = $1; k = $2; print ((c, k) in occ) ? occ[c, k] : n }
  ' "$2" "$3"
}

# queries TEXTSYMS SEED: access.tsv, rank.tsv, select.tsv for the text (edges and random).
make_queries() {
  awk -v seed="$2" -v maxsym="$3" '
    { t[n + 0] = $1; n++; cnt[$1]++ }
    END {
      srand(seed)
      for (i = 0; i < n; i++) if (i < 200 || rand() < 0.05) print i > "access.tsv"
      if (n > 0) print n - 1 > "access.tsv"
      for (c in cnt) syms[m++] = c
      syms[m++] = 0; syms[m++] = maxsym; syms[m++] = int(rand() * (maxsym + 1))
      for (s = 0; s < m; s++) {
        c = syms[s]; k = cnt[c] + 0
        printf "%d\t0\n%d\t%d\n", c, c, n > "rank.tsv"
        for (r = 0; r < 4; r++) printf "%d\t%d\n", c, int(rand() * (n + 1)) > "rank.tsv"
        printf "%d\t1\n%d\t%d\n", c, c, k + 1 > "select.tsv"
        if (k > 0) { printf "%d\t%d\n", c, k > "select.tsv"; for (r = 0; r < 3; r++) printf "%d\t%d\n", c, 1 + int(rand() * k) > "select.tsv" }
      }
    }' "$1"
  touch access.tsv
}

# check NAME TEXT BYTES [build options]: build a tree and a matrix, compare every op.
check() {
  local name="$1" text="$2" bytes="$3"; shift 3
  symbols "$text" "$bytes" > syms.txt
  rm -f access.tsv rank.tsv select.tsv
  make_queries syms.txt 7 $(( bytes == 1 ? 255 : 65535 ))
  for shape in "" --matrix; do
    if ! "$STRIX" wt build "$text" -o s.wt --symbol-bytes "$bytes" $shape "$@"; then bad "$name $shape: build failed"; continue; fi
    for op in access rank select; do
      brute "$op" syms.txt "$op.tsv" > want.txt
      "$STRIX" wt query s.wt --op "$op" "$op.tsv" -o got.txt "$@" && cmp -s want.txt got.txt && ok \
        || bad "$name $shape $op: $(diff want.txt got.txt 2>&1 | head -4 | tr '\n' ' ')"
    done
  done
}

printf 'abracadabra' > abra.txt
head -c 60000 /dev/urandom | tr -dc 'acgt' | head -c 20000 > dna.txt
head -c 6000 /dev/urandom > bytes.bin
printf '\000\377\000\000\377' > zero255.bin
head -c 3000 /dev/zero | tr '\000' 'q' > equal.txt
printf 'x' > one.txt
: > empty.txt
head -c 4000 /dev/urandom > wide.bin  # 2000 16-bit symbols

check "abracadabra" abra.txt 1
check "dna" dna.txt 1
check "random bytes" bytes.bin 1
check "only 0 and 255" zero255.bin 1
check "all equal" equal.txt 1
check "one symbol" one.txt 1
check "16-bit symbols" wide.bin 2
check "dna, 64-bit positions" dna.txt 1 --width 64
"$STRIX" wt build empty.txt -o empty.wt && printf '7\t1\n' > s1.tsv && "$STRIX" wt query empty.wt --op select s1.tsv -o e.txt \
  && [ "$(cat e.txt)" = 0 ] && ok || bad "empty text: select"

# Binary queries and answers match TSV.
"$STRIX" wt build dna.txt -o dna.wt
symbols dna.txt 1 > syms.txt; rm -f access.tsv rank.tsv select.tsv; make_queries syms.txt 3 255
"$STRIX" wt query dna.wt --op rank rank.tsv -o rank.txt
awk -F '\t' '{ print $1; print $2 }' rank.tsv | LC_ALL=C awk '{ for (b = 0; b < 8; b++) { printf "%c", $1 % 256; $1 = int($1 / 256) } }' > rank.bin
"$STRIX" wt query dna.wt --op rank rank.bin --format binary -o rank.out.bin \
  && [ "$(od -An -v -tu8 rank.out.bin | tr -s ' ' '\n' | sed '/^$/d')" = "$(cat rank.txt)" ] && ok || bad "binary rank differs from TSV"
# Answers on standard output; the backends agree and write the same file.
"$STRIX" wt query dna.wt --op rank rank.tsv > stdout.txt && cmp -s stdout.txt rank.txt && ok || bad "answers on stdout"
for b in serial openmp; do
  if "$STRIX" --version | grep -q "$b"; then
    if ! "$STRIX" wt build dna.txt -o "dna.$b.wt" --backend "$b" 2> "wt.$b.err"; then
      bad "wt build --backend $b failed: $(head -1 "wt.$b.err")"
    elif ! cmp -s dna.wt "dna.$b.wt"; then
      bad "wt build --backend $b differs"
    else ok; fi
    if ! "$STRIX" wt query "dna.$b.wt" --op rank rank.tsv -o "rank.$b.txt" --backend "$b" 2> "wq.$b.err"; then
      bad "wt query --backend $b failed: $(head -1 "wq.$b.err")"
    elif ! cmp -s "rank.$b.txt" rank.txt; then
      bad "wt query --backend $b differs"
    else ok; fi
  fi
done
for shape in "" --matrix; do
  "$STRIX" wt build bytes.bin -o whole.wt $shape && "$STRIX" wt build bytes.bin -o chunked.wt --chunk 1000 $shape \
    && cmp -s whole.wt chunked.wt && ok || bad "wt build --chunk $shape differs from a whole build"
done
"$STRIX" wt build dna.txt -o dna.stats.wt --stats > stats.json && grep -q '"wt build"' stats.json && grep -q '"alphabet_size": 4' stats.json \
  && ok || bad "wt build --stats"
"$STRIX" wt query dna.wt --op access access.tsv -o a.txt --stats > stats.json && grep -q '"wt query"' stats.json && ok || bad "wt query --stats"

# --- errors: one line, the documented status, no output left behind -------------------
head -c 100 dna.wt > truncated.wt
# Byte 200 (level bits) with its low bit flipped: always a change, whatever the random text made it.
cp dna.wt corrupt.wt && byte=$(od -An -tu1 -j200 -N1 dna.wt | tr -d ' ') &&
  printf "\\$(printf '%03o' $((byte ^ 1)))" | dd of=corrupt.wt bs=1 seek=200 conv=notrunc 2>/dev/null
cmp -s dna.wt corrupt.wt && bad "the corrupt file equals the good one" || ok
printf '0\n' > zero.tsv
EXPECT_STATUS=2 expect_error "foreign file" o1 "$STRIX" wt query dna.txt --op access zero.tsv -o o1
EXPECT_STATUS=2 expect_error "truncated file" o2 "$STRIX" wt query truncated.wt --op access zero.tsv -o o2
EXPECT_STATUS=2 expect_error "corrupt file" o3 "$STRIX" wt query corrupt.wt --op access zero.tsv -o o3
printf '20000\n' > past.tsv
EXPECT_STATUS=2 expect_error "access at n" o4 "$STRIX" wt query dna.wt --op access past.tsv -o o4
printf '97\t20001\n' > past.tsv
EXPECT_STATUS=2 expect_error "rank past n" o5 "$STRIX" wt query dna.wt --op rank past.tsv -o o5
printf '97\t0\n' > k0.tsv
EXPECT_STATUS=2 expect_error "select k = 0" o6 "$STRIX" wt query dna.wt --op select k0.tsv -o o6
printf '97 1\n' > malformed.tsv
EXPECT_STATUS=2 expect_error "malformed line" o7 "$STRIX" wt query dna.wt --op rank malformed.tsv -o o7
printf '300\t1\n' > big.tsv
EXPECT_STATUS=2 expect_error "symbol too wide" o8 "$STRIX" wt query dna.wt --op rank big.tsv -o o8
printf 'abc' > odd.txt
EXPECT_STATUS=2 expect_error "odd byte count for 2-byte symbols" o9 "$STRIX" wt build odd.txt -o o9 --symbol-bytes 2
EXPECT_STATUS=3 expect_error "missing text" o10 "$STRIX" wt build does-not-exist.txt -o o10
EXPECT_STATUS=3 expect_error "missing queries" o11 "$STRIX" wt query dna.wt --op rank does-not-exist.tsv -o o11
EXPECT_STATUS=2 expect_error "bad op" o12 "$STRIX" wt query dna.wt --op count zero.tsv -o o12
EXPECT_STATUS=2 expect_error "bad symbol size" o13 "$STRIX" wt build dna.txt -o o13 --symbol-bytes 3

echo "cli_wt_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
