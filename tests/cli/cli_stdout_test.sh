#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# `-o -`: every subcommand that writes an output writes it to standard output, byte for byte
# what it writes into a file; the reports that use standard output otherwise (--stats, the
# BWT's primary index) move to standard error; a closed or full standard output is an error.
# Usage: cli_stdout_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

head -c 30000 /dev/urandom | tr -dc 'ACGT' > dna.txt
printf 'mississippi' > miss.txt
printf 'GAT\nTTAC\nAAAA\n' > patterns.txt

# Standard error without the tool's notes (a CUDA build without a GPU says it runs strix-host).
reports() { grep -v '^strix: note:' "$1"; }

# SUBCOMMAND ARGS...: the file output and the standard-output one agree, and a file named
# '-' is never made.
same_both_ways() {
  local name="$1"; shift
  if ! "$@" -o file.out >/dev/null 2>err.txt; then bad "$name -o FILE: $(cat err.txt)"; return; fi
  if ! "$@" -o - >stdout.out 2>err.txt; then bad "$name -o -: $(cat err.txt)"; return; fi
  if [ -e ./- ]; then bad "$name: a file named '-' was made"; rm -f ./-; return; fi
  cmp -s file.out stdout.out && ok || bad "$name: -o - differs from -o FILE"
}

same_both_ways "sa" "$STRIX" sa dna.txt
same_both_ways "sa --width 64" "$STRIX" sa dna.txt --width 64
same_both_ways "lcp" "$STRIX" lcp dna.txt
same_both_ways "repeats" "$STRIX" repeats dna.txt --format tsv
"$STRIX" bwt dna.txt -o dna.bwt > primary.txt || bad "bwt to a file"
same_both_ways "bwt" "$STRIX" bwt dna.txt
same_both_ways "unbwt" "$STRIX" unbwt dna.bwt --primary "$(sed 's/.*: //' primary.txt)"
same_both_ways "index" "$STRIX" index dna.txt
same_both_ways "wt build" "$STRIX" wt build dna.txt
"$STRIX" index dna.txt -o dna.idx || bad "index to a file"
same_both_ways "count" "$STRIX" count dna.idx patterns.txt
same_both_ways "locate" "$STRIX" locate dna.idx patterns.txt
same_both_ways "extract" "$STRIX" extract dna.idx --range 10-200

# The BWT on standard output, its primary index on standard error; with --stats the JSON
# goes to standard error and standard output stays the data.
"$STRIX" bwt miss.txt -o - >bwt.out 2>err.txt
[ "$(cat bwt.out)" = "ipssmpissii" ] && [ "$(reports err.txt)" = "primary index: 5" ] && ok \
  || bad "bwt -o -: stdout '$(cat bwt.out)', stderr '$(cat err.txt)'"
"$STRIX" sa miss.txt -o - --stats >sa.out 2>stats.json
[ "$(od -An -tu4 -v sa.out | xargs)" = "10 7 4 1 0 9 8 6 3 5 2" ] && grep -q '"total_seconds"' stats.json && ok \
  || bad "sa -o - --stats: $(od -An -tu4 -v sa.out | xargs) / $(head -c 200 stats.json)"
"$STRIX" bwt miss.txt -o - --stats >bwt.out 2>stats.json
[ "$(cat bwt.out)" = "ipssmpissii" ] && grep -q '"primary_index": 5' stats.json && ok || bad "bwt -o - --stats"
"$STRIX" count dna.idx patterns.txt -o - --stats >counts.out 2>stats.json
[ "$(wc -l <counts.out)" -eq 3 ] && grep -q '"total_seconds"' stats.json && ok || bad "count -o - --stats"
# The primary index alone to standard output while the BWT goes to a file (the report line
# then goes to standard error).
"$STRIX" bwt miss.txt -o m.bwt --primary-out - >p.out 2>err.txt
[ "$(cat p.out)" = "5" ] && [ "$(reports err.txt)" = "primary index: 5" ] && [ "$(cat m.bwt)" = "ipssmpissii" ] && ok \
  || bad "bwt --primary-out -: '$(cat p.out)' / '$(cat err.txt)'"

# Failures: a full or closed standard output, two outputs on it, a distributed run.
EXPECT_STATUS=3 expect_error "sa -o - into a full device" "" sh -c "'$STRIX' sa dna.txt -o - >/dev/full"
if [ -n "$(cat stderr.txt)" ] && grep -q 'standard output: No space left' stderr.txt; then ok
else bad "full standard output: $(cat stderr.txt)"; fi
EXPECT_STATUS=3 expect_error "sa -o - with standard output closed" "" sh -c "'$STRIX' sa dna.txt -o - >&-"
EXPECT_STATUS=3 expect_error "index -o - into a full device" "" sh -c "'$STRIX' index dna.txt -o - >/dev/full"
EXPECT_STATUS=3 expect_error "sa -o /dev/null" "" "$STRIX" sa dna.txt -o /dev/null
grep -q 'standard output: -o -' stderr.txt && ok || bad "-o /dev/null does not point to -o -: $(cat stderr.txt)"
expect_error "two outputs to standard output" "" "$STRIX" bwt miss.txt -o - --primary-out -
grep -q 'two outputs to standard output' stderr.txt && ok || bad "two outputs: $(cat stderr.txt)"
if "$STRIX" sa --help 2>/dev/null | grep -q -- '--distributed'; then
  # Without leak detection under AddressSanitizer: the refusal comes after MPI_Init, whose
  # allocations OpenMPI keeps until the process ends (as in cli_distributed_test.sh).
  ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    expect_error "sa --distributed -o -" "" "$STRIX" sa dna.txt --distributed -o -
fi
[ -e ./- ] && bad "a file named '-' was left" || ok

echo "cli_stdout_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
