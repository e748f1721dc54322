#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of the FM-index commands `strix index`, `count`, `locate` and `extract`:
# answers against grep-style brute force (a Python-free awk/shell oracle), references of many
# sequences, formats, and every error path.
# Usage: cli_index_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

# Brute force: the start positions of each line of PATTERNS in TEXT (overlaps count), as
# "pattern_no<TAB>position" lines; the empty pattern at 0..n.
brute_locate() {
  awk -v RS='\n' 'NR == FNR { text = text (FNR > 1 ? "\n" : "") $0; next }
    { p = $0; n = length(text); m = length(p)
      for (i = 1; i <= n - m + 1; i++) if (substr(text, i, m) == p) print (FNR - 1) "\t" (i - 1) }' "$1" "$2"
}

head -c 2000000 /dev/urandom | tr -dc 'ACGT' | head -c 30000 > dna.txt
printf 'mississippi' > miss.txt
printf '' > empty.txt
# Patterns: substrings of the text, absent ones, one longer than the text (no trailing newline).
{ for i in 1 7 100 2500 29000; do head -c $((i + 12)) dna.txt | tail -c 12; echo; done
  head -c 5 dna.txt; echo; echo ACGTNACGT; echo; printf 'T'; } > dna.pat
printf 'ssi\ni\nmississippi\nmississippix\nx\n\nissi' > miss.pat

# --- a raw text --------------------------------------------------------------------
"$STRIX" index dna.txt -o dna.idx && ok || bad "index dna"
"$STRIX" count dna.idx dna.pat -o dna.count && ok || bad "count dna"
"$STRIX" locate dna.idx dna.pat -o dna.loc && ok || bad "locate dna"
brute_locate dna.txt dna.pat > dna.want
cmp -s dna.loc dna.want && ok || bad "locate dna differs from brute force"
# Counts: the number of lines per pattern in the brute-force answer.
awk -F'\t' -v m="$(awk 'END { print NR }' dna.pat)" '{ c[$1]++ } END { for (q = 0; q < m; q++) print c[q] + 0 }' dna.want > dna.count.want
cmp -s dna.count dna.count.want && ok || bad "count dna differs from brute force"
"$STRIX" index miss.txt -o miss.idx --sample-rate 1 && "$STRIX" count miss.idx miss.pat > miss.count \
  && [ "$(xargs < miss.count)" = "2 4 1 0 0 12 2" ] && ok || bad "count mississippi: $(xargs < miss.count)"
"$STRIX" locate miss.idx miss.pat > miss.loc && brute_locate miss.txt miss.pat | cmp -s - miss.loc && ok \
  || bad "locate mississippi"
printf 'ssi\n' | "$STRIX" count miss.idx - | grep -qx 2 && ok || bad "patterns from standard input"
"$STRIX" locate miss.idx miss.pat --max-occ 2 > capped.loc 2> capped.err \
  && [ "$(grep -c '^1	' capped.loc)" = 2 ] && grep -q "capped" capped.err && ok || bad "locate --max-occ"
for rate in 2 1000; do
  "$STRIX" index dna.txt -o "dna.$rate.idx" --sample-rate "$rate" && "$STRIX" locate "dna.$rate.idx" dna.pat \
    | cmp -s - dna.want && ok || bad "locate at sample rate $rate"
done
"$STRIX" extract miss.idx --range 2-6 | grep -qx 'ssis' && ok || bad "extract 2-6"
"$STRIX" extract dna.idx --range 0-30000 | cmp -s - dna.txt && ok || bad "extract the whole text"
"$STRIX" extract dna.idx --range 12345-12345 -o none.txt && [ ! -s none.txt ] && ok || bad "extract an empty range"
"$STRIX" index empty.txt -o empty.idx && [ "$(printf 'a\n\n' | "$STRIX" count empty.idx - | xargs)" = "0 1" ] \
  && ok || bad "index of an empty text"
"$STRIX" index dna.txt -o dna64.idx --width 64 && "$STRIX" locate dna64.idx dna.pat | cmp -s - dna.want && ok \
  || bad "64-bit index"
"$STRIX" index dna.txt -o dna.stats.idx --stats > stats.json && grep -q '"rank_layout": "occurrence_table"' stats.json \
  && grep -q '"bits_per_symbol"' stats.json && ok || bad "index --stats"
"$STRIX" count dna.idx dna.pat -o counted --stats > cstats.json && python3 -c "
import json, sys; s = json.load(open(sys.argv[1]))['stages_seconds']
assert {'load', 'read_input', 'count', 'write_output'} <= set(s), s" cstats.json && ok || bad "count --stats: $(cat cstats.json)"
# Pattern lines: empty ones, a carriage return kept as a byte, a last line without newline, and
# a file of newlines only (each line one pattern, as counted one by one).
printf 'ss\n\nssi\r\nsi\n\n\nissi' > odd.pat
"$STRIX" count miss.idx odd.pat > odd.count && [ "$(xargs < odd.count)" = "2 12 0 2 12 12 2" ] && ok \
  || bad "pattern lines of odd shapes: $(xargs < odd.count)"
printf '\n\n' | "$STRIX" count miss.idx - | xargs | grep -qx "12 12" && ok || bad "patterns of newlines only"
"$STRIX" locate miss.idx odd.pat -o odd.loc --stats > lstats.json && grep -q '"write_output"' lstats.json \
  && [ "$(grep -c . odd.loc)" = 42 ] && ok || bad "locate of odd pattern lines: $(grep -c . odd.loc) lines"
# A text of many bytes gets the Huffman-shaped tree: answers against brute force, the same
# file from every backend.
awk 'BEGIN { srand(3); for (i = 0; i < 3000; i++) printf "%s", substr("the quick brown fox jumps over a lazy dog, ", 1 + int(rand() * 40), 1 + int(rand() * 6)) }' > words.txt
printf 'the
fox
o
 zy
qqq
, 
' > words.pat
"$STRIX" index words.txt -o words.idx --stats > wstats.json && grep -q '"rank_layout": "huffman_tree"' wstats.json \
  && ok || bad "index of a text: the Huffman-shaped tree"
"$STRIX" locate words.idx words.pat | cmp -s - <(brute_locate words.txt words.pat) && ok || bad "locate in words.txt"
"$STRIX" extract words.idx --range "0-$(wc -c < words.txt)" | cmp -s - words.txt && ok || bad "extract words.txt"
for b in serial openmp; do
  if "$STRIX" --version | grep -q "$b"; then
    "$STRIX" index dna.txt -o "dna.$b.idx" --backend "$b" && cmp -s dna.idx "dna.$b.idx" && ok || bad "index --backend $b"
    "$STRIX" locate dna.idx dna.pat --backend "$b" | cmp -s - dna.want && ok || bad "locate --backend $b"
    "$STRIX" index words.txt -o "words.$b.idx" --backend "$b" && cmp -s words.idx "words.$b.idx" && ok \
      || bad "index words.txt --backend $b"
  fi
done

# --- a reference of many sequences ----------------------------------------------------
# Tiny, empty, duplicate-named and lower-case sequences; patterns that only match across a
# boundary must not.
printf '>s1 first\nACGTAC\nGTnn\n>s2\nTTTT\n>empty\n>s1\nacgtRYKM\n' > ref.fa
printf 'ACGT\nGTNN\nNNTT\nTTTT\nTTTTT\nRYKM\nacgt\n' > ref.pat
"$STRIX" index ref.fa -o ref.idx && ok || bad "index a FASTA reference"
printf '0\ts1\t0\n0\ts1\t4\n0\ts1\t0\n1\ts1\t6\n3\ts2\t0\n5\ts1\t4\n6\ts1\t0\n6\ts1\t4\n6\ts1\t0\n' > ref.want
"$STRIX" locate ref.idx ref.pat > ref.loc && cmp -s ref.loc ref.want && ok || bad "locate in a reference: $(cat ref.loc)"
"$STRIX" extract ref.idx --range s2:1-3 | grep -qx 'TT' && ok || bad "extract s2:1-3"
"$STRIX" extract ref.idx --range s1:0-10 | grep -qx 'ACGTACGTNN' && ok || bad "extract a folded sequence"
"$STRIX" index ref.fa -o keep.idx --keep-case && "$STRIX" count keep.idx ref.pat | xargs | grep -qx '2 0 0 1 0 1 1' \
  && ok || bad "--keep-case: $("$STRIX" count keep.idx ref.pat | xargs)"
gzip -c ref.fa > ref.fa.gz && "$STRIX" index ref.fa.gz -o gz.idx && "$STRIX" locate gz.idx ref.pat | cmp -s - ref.want \
  && ok || bad "gzip-compressed FASTA"
cp ref.fa ref.data && "$STRIX" index ref.data -o raw.idx && "$STRIX" count raw.idx ref.pat | head -1 | grep -qx 1 \
  && ok || bad "a FASTA file not so named is raw bytes"
"$STRIX" index ref.data --fasta -o forced.idx && "$STRIX" locate forced.idx ref.pat | cmp -s - ref.want && ok \
  || bad "--fasta"
printf '@r1\nACGT\n+\nIIII\n@r2\nTTTT\n+\nIIII\n' > reads.fq
"$STRIX" count ref.idx reads.fq | xargs | grep -qx '3 1' && ok || bad "FASTQ patterns"

# --- errors ------------------------------------------------------------------------
expect_error "count: index missing" "" "$STRIX" count no-such.idx dna.pat
expect_error "count: not an index" "" "$STRIX" count dna.txt dna.pat
head -c 1000 dna.idx > cut.idx
expect_error "count: truncated index" "" "$STRIX" count cut.idx dna.pat
# (Byte 3000 complemented: a fixed value may be what the random text's index holds there.)
byte="$(od -An -tu1 -j3000 -N1 dna.idx | tr -d ' ')"
cp dna.idx flip.idx && printf "\\$(printf '%03o' $((byte ^ 255)))" | dd of=flip.idx bs=1 seek=3000 conv=notrunc 2>/dev/null
cmp -s dna.idx flip.idx && bad "corruption did not change the file" || expect_error "count: corrupt index" "" "$STRIX" count flip.idx dna.pat
expect_error "count: patterns missing" "" "$STRIX" count dna.idx no-such.pat
expect_error "count: --stats without -o" "" "$STRIX" count dna.idx dna.pat --stats
expect_error "index: output is the input" "" "$STRIX" index dna.txt -o dna.txt
# A query's answers never replace the index or the patterns (refused before the index loads).
cp dna.idx keep.idx && cp dna.pat keep.pat
EXPECT_STATUS=2 expect_error "count: output is the index" "" "$STRIX" count keep.idx keep.pat -o keep.idx
EXPECT_STATUS=2 expect_error "count: output is the patterns" "" "$STRIX" count keep.idx keep.pat -o keep.pat
EXPECT_STATUS=2 expect_error "locate: output is the index" "" "$STRIX" locate keep.idx keep.pat -o keep.idx
EXPECT_STATUS=2 expect_error "extract: output is the index" "" "$STRIX" extract keep.idx --range 0-5 -o keep.idx
cmp -s keep.idx dna.idx && cmp -s keep.pat dna.pat && ok || bad "a query's output replaced its index or patterns"
expect_error "index: sample rate 0" o1 "$STRIX" index dna.txt -o o1 --sample-rate 0
expect_error "index: a FASTA file without records" o2 "$STRIX" index dna.txt --fasta -o o2
expect_error "extract: beyond the text" o3 "$STRIX" extract miss.idx --range 5-12 -o o3
expect_error "extract: no such sequence" o4 "$STRIX" extract ref.idx --range chrZ:0-1 -o o4
expect_error "extract: sequence of a plain text" o5 "$STRIX" extract miss.idx --range s:0-1 -o o5
expect_error "extract: bad range" o6 "$STRIX" extract miss.idx --range 5 -o o6
expect_error "extract: without extract samples" o7 sh -c "\"$STRIX\" index miss.txt -o noex.idx --no-extract && \"$STRIX\" extract noex.idx --range 0-2 -o o7"
[ -e dna.txt ] && [ "$(stat -c %s dna.txt)" -eq 30000 ] && ok || bad "an input was changed"

echo "cli_index_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
