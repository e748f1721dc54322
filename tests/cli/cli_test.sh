#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of the strix tool: normal use and every error path.
# Usage: cli_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

printf 'mississippi' > miss.txt
head -c 200000 /dev/urandom > random.bin
printf '' > empty.txt

# --- normal use ---------------------------------------------------------------
for input in miss.txt random.bin empty.txt; do
  if "$STRIX" sa "$input" -o "$input.sa" 2>err.txt && "$STRIX" check "$input" "$input.sa" >/dev/null; then ok
  else bad "sa+check $input: $(cat err.txt)"; fi
done
[ "$(stat -c %s miss.txt.sa)" -eq 44 ] && ok || bad "32-bit sa of 11 bytes is not 44 bytes"
[ "$(od -An -tu4 -v miss.txt.sa | xargs)" = "10 7 4 1 0 9 8 6 3 5 2" ] && ok \
  || bad "sa of mississippi: $(od -An -tu4 -v miss.txt.sa)"
"$STRIX" sa miss.txt -o miss64.sa --width 64 && [ "$(stat -c %s miss64.sa)" -eq 88 ] \
  && "$STRIX" check miss.txt miss64.sa >/dev/null && ok || bad "64-bit sa"
out="$("$STRIX" bwt miss.txt -o miss.bwt)" && [ "$(cat miss.bwt)" = "ipssmpissii" ] \
  && [ "$out" = "primary index: 5" ] && ok || bad "bwt of mississippi: '$(cat miss.bwt)' '$out'"
primary="$("$STRIX" bwt random.bin -o random.bwt | sed 's/.*: //')"
"$STRIX" unbwt random.bwt -o random.back --primary "$primary" && cmp -s random.bin random.back && ok \
  || bad "bwt/unbwt round trip"
# (On the default backend: the device inverse in a CUDA build.)
"$STRIX" unbwt random.bwt -o random.back2 --primary "$primary" --stats > unbwt.json && cmp -s random.bin random.back2 \
  && grep -q '"inverse_bwt"' unbwt.json && grep -q '"command": "unbwt"' unbwt.json \
  && grep -Eq '"peak_bytes": [1-9]' unbwt.json && ok || bad "unbwt --stats: $(cat unbwt.json)"
"$STRIX" sa random.bin -o r.sa --stats > stats.json && grep -q '"peak_bytes"' stats.json \
  && grep -q '"throughput_MBps"' stats.json && ok || bad "--stats JSON"
"$STRIX" demo --size 100000 --repeats 1 | grep -q 'suffix array is correct' && ok || bad "demo"
"$STRIX" --version | grep -q 'Kokkos backends' && ok || bad "--version"
"$STRIX" --version | grep -Eq 'Kokkos [0-9]+\.[0-9]+\.[0-9]{2}\)' && ok || bad "--version names the Kokkos version: $("$STRIX" --version)"
for b in serial openmp; do
  if "$STRIX" --version | grep -q "$b"; then
    "$STRIX" sa random.bin -o "r.$b.sa" --backend "$b" && cmp -s r.sa "r.$b.sa" && ok || bad "--backend $b"
    "$STRIX" unbwt random.bwt -o "r.$b.back" --primary "$primary" --backend "$b" && cmp -s random.bin "r.$b.back" \
      && ok || bad "unbwt --backend $b"
  fi
done

# The generalized suffix array of strings ended by 0x00: in the separators' order, checked by
# `check --generalized`, refused by the plain check (and a plain one by the generalized check).
printf 'banana\0ban\0banana\0' > strings.txt
"$STRIX" sa strings.txt -o strings.gsa --generalized && [ "$(od -An -tu4 -v strings.gsa | xargs)" = \
  "6 10 17 5 16 8 3 14 1 12 7 0 11 9 4 15 2 13" ] && ok || bad "generalized sa: $(od -An -tu4 -v strings.gsa | xargs)"
"$STRIX" check strings.txt strings.gsa --generalized | grep -q 'generalized suffix array' && ok \
  || bad "check --generalized of a generalized sa"
"$STRIX" check strings.txt strings.gsa 2>err.txt; [ $? -eq 1 ] && ok || bad "plain check of a generalized sa"
"$STRIX" sa strings.txt -o strings.sa && "$STRIX" check strings.txt strings.sa --generalized 2>err.txt
[ $? -eq 1 ] && grep -q 'generalized suffix array is wrong' err.txt && ok || bad "generalized check of a plain sa"
"$STRIX" sa strings.txt -o strings64.gsa --generalized --width 64 --algorithm prefix-doubling \
  && "$STRIX" check strings.txt strings64.gsa --generalized >/dev/null && ok || bad "64-bit generalized sa"
"$STRIX" sa miss.txt -o miss.gsa --generalized && cmp -s miss.gsa miss.txt.sa && ok \
  || bad "generalized sa of a text without 0x00 is its suffix array"

# A wrong suffix array: exit 1 and a message.
cp miss.txt.sa wrong.sa
printf '\x00\x00\x00\x00' | dd of=wrong.sa bs=1 seek=4 conv=notrunc 2>/dev/null
"$STRIX" check miss.txt wrong.sa 2>err.txt; [ $? -eq 1 ] && grep -q 'wrong' err.txt && ok || bad "check of a wrong SA"

# --- errors leave nothing behind ------------------------------------------------
expect_error "missing input" out1.sa "$STRIX" sa does-not-exist.txt -o out1.sa
mkdir adir
expect_error "directory input" out2.sa "$STRIX" sa adir -o out2.sa
expect_error "missing output folder" no/such/dir/out.sa "$STRIX" sa miss.txt -o no/such/dir/out.sa
expect_error "output is a directory" "" "$STRIX" sa miss.txt -o adir
truncate -s 4G huge.bin   # sparse: takes no space, never read
expect_error "width too small" out3.sa "$STRIX" sa huge.bin -o out3.sa --width 32
expect_error "bad width" out4.sa "$STRIX" sa miss.txt -o out4.sa --width 16
expect_error "generalized and distributed" out4g.sa "$STRIX" sa miss.txt -o out4g.sa --generalized --distributed
expect_error "SA file of the wrong size" "" "$STRIX" check miss.txt random.bin
expect_error "bad primary index" out5.txt "$STRIX" unbwt miss.bwt -o out5.txt --primary 99
printf 'aa' > aa.bwt  # with the sentinel in row 1, LF has two cycles
expect_error "BWT inconsistent with its primary index" out5b.txt "$STRIX" unbwt aa.bwt -o out5b.txt --primary 1
expect_error "missing backend" out6.sa "$STRIX" sa miss.txt -o out6.sa --backend nonesuch
if [ "$(id -u)" -eq 0 ]; then
  # root reads everything: drop to nobody for the unreadable-input case.
  cp miss.txt secret.txt && chmod 000 secret.txt && chmod 777 "$work"
  expect_error "unreadable input" out7.sa setpriv --reuid=65534 --regid=65534 --clear-groups \
    "$STRIX" sa secret.txt -o out7.sa
else
  cp miss.txt secret.txt && chmod 000 secret.txt
  expect_error "unreadable input" out7.sa "$STRIX" sa secret.txt -o out7.sa
fi
"$STRIX" sa >/dev/null 2>&1 && bad "usage error exits 0" || ok

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
