#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# End-to-end tests of `strix search` (approximate search, Hamming and edit distance) on indexes
# of `strix index --approximate`: answers against brute-force matchers (Python), a reference of
# many sequences (no match across them), --max-occ, --scheme, --both-strands, SAM/BAM out (checked
# by replaying each record, and by samtools where it is installed), and every error path.
# Usage: cli_search_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

# Brute force: for each line of READS, every p with TEXT[p, p + m) within K substitutions (no
# newline inside when SEP is set), as "read_no<TAB>p<TAB>distance"; the empty read at 0..n.
brute_search() {
  python3 - "$1" "$2" "$3" "${4:-}" <<'PY'
import sys
text = open(sys.argv[1], 'rb').read()
reads = open(sys.argv[2], 'rb').read().split(b'\n')
if reads and reads[-1] == b'' and open(sys.argv[2], 'rb').read().endswith(b'\n'):
    reads.pop()
k, sep = int(sys.argv[3]), sys.argv[4] == 'sep'
out = []
for q, r in enumerate(reads):
    m = len(r)
    if m == 0:
        out += [f"{q}\t{p}\t0" for p in range(len(text) + 1)]
        continue
    for p in range(len(text) - m + 1):
        w = text[p:p + m]
        if sep and b'\n' in w:
            continue
        d = sum(a != b for a, b in zip(w, r))
        if d <= k:
            out.append(f"{q}\t{p}\t{d}")
sys.stdout.write(''.join(line + '\n' for line in out))
PY
}

# Brute force, edit distance: for each read, every p (0..n) where some TEXT[p, e) is within
# edit distance K (the smallest such distance), no newline inside when SEP is set.
brute_edit() {
  python3 - "$1" "$2" "$3" "${4:-}" <<'PY'
import sys
text = open(sys.argv[1], 'rb').read()
data = open(sys.argv[2], 'rb').read()
reads = data.split(b'\n')
if reads and reads[-1] == b'' and data.endswith(b'\n'):
    reads.pop()
k, sep = int(sys.argv[3]), sys.argv[4] == 'sep'
out = []
for q, r in enumerate(reads):
    m = len(r)
    for p in range(len(text) + 1):
        col = list(range(m + 1))
        best = col[m]
        e = p
        while e < len(text) and not (sep and text[e] == 10) and min(col) <= k:
            nxt = [col[0] + 1]
            for j in range(1, m + 1):
                nxt.append(min(col[j - 1] + (text[e] != r[j - 1]), col[j] + 1, nxt[j - 1] + 1))
            col = nxt
            best = min(best, col[m])
            e += 1
        if best <= k:
            out.append(f"{q}\t{p}\t{best}")
sys.stdout.write(''.join(line + '\n' for line in out))
PY
}

python3 -c "
import random
random.seed(3)
t = ''.join(random.choice('ACGT') for _ in range(4000))
open('dna.txt', 'w').write(t)
reads = []
for i in range(40):
    m = random.randint(1, 24)
    p = random.randint(0, len(t) - m)
    r = list(t[p:p + m])
    for _ in range(random.randint(0, 3)):
        r[random.randrange(m)] = random.choice('ACGT')
    reads.append(''.join(r))
reads += ['', 'ACGTNACGT', t[:30], 'Z' * 5]
open('dna.reads', 'w').write('\n'.join(reads) + '\n')
"

"$STRIX" index dna.txt -o dna.idx --approximate && ok || bad "index --approximate"
for k in 0 1 2 3; do
  "$STRIX" search dna.idx dna.reads -k "$k" -o dna.$k.out && ok || bad "search -k $k"
  brute_search dna.txt dna.reads "$k" > dna.$k.want
  cmp -s dna.$k.out dna.$k.want && ok || bad "search -k $k: not brute force's answer ($(diff dna.$k.out dna.$k.want | head -3 | tr '\n' ' '))"
done
grep -q $'\t2$' dna.2.out && ok || bad "search -k 2 found nothing at distance 2 (the test needs some)"
# The default is one error; standard output; the same as -o.
"$STRIX" search dna.idx dna.reads | cmp -s - dna.1.want && ok || bad "search to standard output, default k = 1"
"$STRIX" search dna.idx dna.reads -o - | cmp -s - dna.1.want && ok || bad "search -o -"
# count and locate still read an --approximate index.
"$STRIX" index dna.txt -o plain.idx
printf 'ACGT\nGGA\n' > two.pat
cmp -s <("$STRIX" count dna.idx two.pat) <("$STRIX" count plain.idx two.pat) && ok || bad "count on an --approximate index"
[ "$(stat -c %s dna.idx)" -gt "$(stat -c %s plain.idx)" ] && ok || bad "--approximate adds the reverse part"

# --max-occ: the first N positions of a read, and a note.
"$STRIX" search dna.idx dna.reads -k 1 --max-occ 2 -o capped.out 2>capped.err && ok || bad "search --max-occ"
awk -F'\t' '{ c[$1]++ } END { for (q in c) if (c[q] > 2) exit 1 }' capped.out && ok || bad "--max-occ 2: a read has more lines"
grep -q 'reads had more than 2 positions (capped)' capped.err && ok || bad "--max-occ: the note on stderr"
awk -F'\t' '{ if (++c[$1] <= 2) print }' dna.1.want | cmp -s - capped.out && ok || bad "--max-occ 2: not the first two"

# A reference: positions as sequence<TAB>offset, none across two sequences.
printf '>s1\nACGTACGTTA\n>s2\nACG\n>s3\nTTACGTAAC\n>s4\nGGGGACGTT\n' > ref.fa
printf 'ACGT\nTAAC\nGTTAAC\nCGTT\n' > ref.reads
"$STRIX" index ref.fa -o ref.idx --approximate && ok || bad "index a reference --approximate"
"$STRIX" search ref.idx ref.reads -k 1 -o ref.out && ok || bad "search a reference"
python3 - ref.out <<'PY' && ok || bad "search a reference: not brute force's answer"
import sys
seqs = [('s1', 'ACGTACGTTA'), ('s2', 'ACG'), ('s3', 'TTACGTAAC'), ('s4', 'GGGGACGTT')]
reads = ['ACGT', 'TAAC', 'GTTAAC', 'CGTT']
want = []
for q, r in enumerate(reads):
    for name, s in seqs:
        for p in range(len(s) - len(r) + 1):
            d = sum(a != b for a, b in zip(s[p:p + len(r)], r))
            if d <= 1:
                want.append((q, name, p, d))
got = [tuple(l.split('\t')) for l in open(sys.argv[1]).read().splitlines()]
got = [(int(q), n, int(p), int(d)) for q, n, p, d in got]
sys.exit(0 if sorted(got) == sorted(want) and got == sorted(got, key=lambda x: (x[0],)) else 1)
PY

# Edit distance: reads with substitutions, insertions and deletions, against brute force.
python3 -c "
import random
random.seed(5)
t = ''.join(random.choice('ACGT') for _ in range(1200))
open('edit.txt', 'w').write(t)
reads = []
for i in range(24):
    m = random.randint(1, 22)
    p = random.randint(0, len(t) - m)
    r = list(t[p:p + m])
    for _ in range(random.randint(0, 3)):
        at = random.randrange(len(r))
        kind = random.randrange(3)
        if kind == 0: r[at] = random.choice('ACGT')
        elif kind == 1: r.insert(at, random.choice('ACGT'))
        elif len(r) > 1: del r[at]
    reads.append(''.join(r))
reads += ['', t[100:130], 'ACGTNACGT']
open('edit.reads', 'w').write('\n'.join(reads) + '\n')
"
"$STRIX" index edit.txt -o edit.idx --approximate && ok || bad "index --approximate (edit)"
for k in 0 1 2 3; do
  "$STRIX" search edit.idx edit.reads -k "$k" --distance edit -o edit.$k.out && ok || bad "search --distance edit -k $k"
  brute_edit edit.txt edit.reads "$k" > edit.$k.want
  cmp -s edit.$k.out edit.$k.want && ok || bad "search --distance edit -k $k: not brute force's answer ($(diff edit.$k.out edit.$k.want | head -3 | tr '\n' ' '))"
done
# Any lossless scheme gives the same answer.
"$STRIX" search edit.idx edit.reads -k 3 --distance edit --scheme kianfar | cmp -s - edit.3.want && ok || bad "--scheme kianfar"
"$STRIX" search edit.idx edit.reads -k 2 --distance edit --scheme pigeonhole | cmp -s - edit.2.want && ok || bad "--scheme pigeonhole"
"$STRIX" search dna.idx dna.reads -k 2 --scheme 01*0 | cmp -s - dna.2.want && ok || bad "--scheme 01*0 (Hamming)"
# A reference: no edit alignment across two sequences.
printf 'ACGTTA\nTTACGTAAC\nGACGTTGG\n' > refedit.reads
"$STRIX" search ref.idx refedit.reads -k 2 --distance edit -o refedit.out && ok || bad "search --distance edit a reference"
# brute force on the sequences joined as strix joins them (one newline between two), its
# positions mapped back to (sequence, offset).
printf 'ACGTACGTTA\nACG\nTTACGTAAC\nGGGGACGTT' > ref.joined
brute_edit ref.joined refedit.reads 2 sep > refedit.joined
python3 - refedit.out refedit.joined <<'PY' && ok || bad "search --distance edit a reference: not brute force's answer"
import sys
seqs = [('s1', 10), ('s2', 3), ('s3', 9), ('s4', 9)]
def resolve(p):
    for name, length in seqs:
        if p <= length:
            return name, p
        p -= length + 1
want = []
for line in open(sys.argv[2]).read().splitlines():
    q, p, d = map(int, line.split('\t'))
    want.append((q, *resolve(p), d))
got = [tuple(l.split('\t')) for l in open(sys.argv[1]).read().splitlines()]
got = [(int(q), n, int(p), int(d)) for q, n, p, d in got]
sys.exit(0 if sorted(got) == sorted(want) and len(got) > 0 else 1)
PY

# --both-strands: each read and its reverse complement, merged by position (+ first), each line
# ending in its strand; the same as searching the reverse complements by themselves.
revcomp() {
  python3 -c "
import sys
c = {ord('A'): 'T', ord('C'): 'G', ord('G'): 'C', ord('T'): 'A', ord('N'): 'N'}
lines = open(sys.argv[1]).read().split('\n')[:-1]
print('\n'.join(''.join(c[ord(x)] for x in reversed(l)) for l in lines))" "$1"
}
merge_strands() {  # forward answers, reverse answers: the --both-strands lines
  python3 - "$1" "$2" <<'PY'
import sys
rows = []
for strand, path in enumerate(sys.argv[1:]):
    for line in open(path).read().splitlines():
        f = line.split('\t')
        rows.append((int(f[0]), f[1:-2], int(f[-2]), strand, f))  # (a reference's names sort as its order)
rows.sort(key=lambda r: r[:4])
sys.stdout.write(''.join('\t'.join(f) + '\t' + '+-'[s] + '\n' for *_, s, f in rows))
PY
}
grep -v Z dna.reads > dna.acgt
revcomp dna.acgt > dna.rc
"$STRIX" search dna.idx dna.acgt -k 2 --both-strands -o both.out && ok || bad "search --both-strands"
brute_search dna.txt dna.acgt 2 > both.f
brute_search dna.txt dna.rc 2 > both.r
merge_strands both.f both.r | cmp -s - both.out && ok || bad "--both-strands: not brute force's answer on both strands"
grep -q $'\t-$' both.out && grep -q $'\t+$' both.out && ok || bad "--both-strands found nothing on one strand (the test needs both)"
revcomp edit.reads > edit.rc
"$STRIX" search edit.idx edit.reads -k 2 --distance edit --both-strands -o bothedit.out && ok || bad "search --distance edit --both-strands"
brute_edit edit.txt edit.rc 2 > bothedit.r
merge_strands edit.2.want bothedit.r | cmp -s - bothedit.out && ok || bad "--distance edit --both-strands: not brute force's answer"
"$STRIX" search ref.idx ref.reads -k 1 --both-strands -o bothref.out && ok || bad "search a reference --both-strands"
revcomp ref.reads > ref.rc
"$STRIX" search ref.idx ref.rc -k 1 -o ref.rc.out
merge_strands ref.out ref.rc.out | cmp -s - bothref.out && ok || bad "a reference --both-strands: not its two strands' answers"
"$STRIX" search dna.idx dna.acgt -k 1 --both-strands --max-occ 3 -o bothcap.out 2>/dev/null && \
  awk -F'\t' '{ c[$1]++ } END { for (q in c) if (c[q] > 3) exit 1 }' bothcap.out && ok || bad "--both-strands --max-occ 3"

# Errors: one line each, nothing left behind.
expect_error "search an index without --approximate" o1 "$STRIX" search plain.idx dna.reads -o o1
grep -q 'no reverse part' stderr.txt && ok || bad "the missing reverse part is named: $(cat stderr.txt)"
expect_error "search -k 7" o2 "$STRIX" search dna.idx dna.reads -k 7 -o o2
expect_error "search --distance levenshtein" o3 "$STRIX" search dna.idx dna.reads --distance levenshtein -o o3
expect_error "search --scheme kucherov -k 3" o5 "$STRIX" search dna.idx dna.reads -k 3 --scheme kucherov -o o5
grep -q 'kucherov_scheme: published for k = 1 and 2 only' stderr.txt && ok || bad "the scheme's k is named: $(cat stderr.txt)"
expect_error "search a missing index" o4 "$STRIX" search none.idx dna.reads -o o4
expect_error "search -o the index" "" "$STRIX" search dna.idx dna.reads -o dna.idx
[ -s dna.idx ] && "$STRIX" search dna.idx dna.reads -k 0 | cmp -s - dna.0.want && ok || bad "the index survived -o itself"
expect_error "search --stats to standard output" "" "$STRIX" search dna.idx dna.reads --stats
expect_error "--both-strands with a read of other letters" o6 "$STRIX" search dna.idx dna.reads --both-strands -o o6
grep -q 'read 43 holds a byte other than A, C, G, T, N' stderr.txt && ok || bad "the read without a complement is named: $(cat stderr.txt)"
printf 'the quick brown fox jumps over the lazy dog\n' > words.txt
"$STRIX" index words.txt -o words.idx --approximate
printf 'ACGT\n' > acgt.reads
expect_error "--both-strands on a text that is not DNA" o7 "$STRIX" search words.idx acgt.reads --both-strands -o o7
grep -q "holds 0x20, not only DNA letters" stderr.txt && ok || bad "the index's first other byte is named: $(cat stderr.txt)"

# --format sam|bam: a FASTA reference and FASTQ reads on both strands (substitutions, indels,
# one read that maps nowhere). The records against the TSV answers (brute force's, above),
# each CIGAR replayed on the reference against its NM, SEQ/QUAL against the reads.
python3 -c "
import random
random.seed(11)
seqs = [('chrA', 1500), ('chrB', 900)]
ref = {n: ''.join(random.choice('ACGT') for _ in range(l)) for n, l in seqs}
open('sam.fa', 'w').write(''.join(f'>{n} some description\n{ref[n]}\n' for n, _ in seqs))
comp = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A'}
out = []
for i in range(30):
    n = random.choice([n for n, _ in seqs]); t = ref[n]
    m = random.randint(20, 40); p = random.randint(0, len(t) - m)
    r = list(t[p:p + m])
    for _ in range(random.randint(0, 2)):
        at = random.randrange(len(r)); kind = random.randrange(3)
        if kind == 0: r[at] = random.choice('ACGT')
        elif kind == 1: r.insert(at, random.choice('ACGT'))
        else: del r[at]
    r = ''.join(r)
    if i % 2: r = ''.join(comp[c] for c in reversed(r))
    if i == 7: r = 'ACGT' * 9
    if i == 3: r = ''    # occurs everywhere: unmapped, and no alignment queued for it
    if i == 4: r = 'AC'  # at most k symbols: unmapped under edit distance
    out.append(f'@r{i}\n{r}\n+\n' + ''.join(chr(33 + random.randint(0, 40)) for _ in r) + '\n')
open('sam.fq', 'w').write(''.join(out))
"
"$STRIX" index sam.fa -o sam.idx --approximate >/dev/null && ok || bad "index a reference for SAM"
check_sam() {  # SAM, TSV answers, distance, reads, reference, max-occ
  python3 - "$@" <<'PY'
import sys
sam, tsv, distance, fq, fa, max_occ = sys.argv[1:7]
max_occ = int(max_occ)
ref, order, name = {}, [], None
for line in open(fa):
    line = line.rstrip('\n')
    if line.startswith('>'):
        name = line[1:].split()[0]; ref[name] = ''; order.append(name)
    else:
        ref[name] += line
lines = open(fq).read().split('\n')
reads = [(lines[i][1:], lines[i + 1], lines[i + 3]) for i in range(0, len(lines) - 1, 4)]
comp = {'A': 'T', 'C': 'G', 'G': 'C', 'T': 'A', 'N': 'N'}
rc = lambda s: ''.join(comp[c] for c in reversed(s))
want = {}
for line in open(tsv).read().splitlines():
    q, n, p, d, strand = line.split('\t')
    want.setdefault(reads[int(q)][0], set()).add((n, int(p), int(d), strand))
errors = []
header = [l for l in open(sam).read().splitlines() if l.startswith('@')]
if [l for l in header if l.startswith('@SQ')] != [f'@SQ\tSN:{n}\tLN:{len(ref[n])}' for n in order]:
    errors.append('header @SQ lines')
if not any(l.startswith('@PG\tID:strix') for l in header):
    errors.append('no @PG line')
got = {}
for line in open(sam).read().splitlines():
    if line.startswith('@'):
        continue
    f = line.split('\t')
    qname, flag, rname, pos, mapq, cigar, seq, qual = f[0], int(f[1]), f[2], int(f[3]), int(f[4]), f[5], f[9], f[10]
    tags = dict((t.split(':')[0], t.split(':')[2]) for t in f[11:])
    got.setdefault(qname, []).append((flag, rname, pos, cigar, seq, qual, tags, mapq))
for qname, fwd, qual in reads:
    recs = got.get(qname, [])
    hits = want.get(qname, set())
    if len(fwd) == 0 or (distance == 'edit' and len(fwd) <= 2):
        hits = set()
    if not hits:
        if len(recs) != 1 or recs[0][0] != 4 or recs[0][4] != (fwd or '*') or recs[0][5] != (qual or '*'):
            errors.append(f'{qname}: not one unmapped record')
        continue
    if distance == 'hamming' and len(recs) != (min(len(hits), max_occ) if max_occ else len(hits)):
        errors.append(f'{qname}: {len(recs)} records for {len(hits)} hits')
    if distance == 'edit':
        # Every hit has its record but one whose alignment would start by skipping text: the
        # hit c symbols on, at c fewer edits or better, stands for it.
        shown = {(rname, pos - 1, int(tags['NM']), '-' if flag & 16 else '+') for flag, rname, pos, _, _, _, tags, _ in recs}
        if max_occ and len(recs) > max_occ:
            errors.append(f'{qname}: more than {max_occ} records')
        for n, p, d, strand in ([] if max_occ else hits - shown):
            if not any((n, p + c, e, strand) in hits for c in range(1, d + 1) for e in range(0, d - c + 1)):
                errors.append(f'{qname}: hit {n}:{p} {strand} at {d} has no record and no better hit after it')
        if any(r[3].lstrip('0123456789').startswith('D') for r in recs):
            errors.append(f'{qname}: a CIGAR starts with a deletion')
    if [r[0] & 256 for r in recs].count(0) != 1 or recs[0][0] & 256:
        errors.append(f'{qname}: not one primary record, first')
    best = min(d for _, _, d, _ in hits)
    for flag, rname, pos, cigar, seq, qual_got, tags, mapq in recs:
        strand = '-' if flag & 16 else '+'
        nm = int(tags['NM'])
        if (rname, pos - 1, nm, strand) not in hits:
            errors.append(f'{qname}: {rname}:{pos} NM {nm} {strand} is not an answer')
        if seq != (rc(fwd) if flag & 16 else fwd) or qual_got != (qual[::-1] if flag & 16 else qual):
            errors.append(f'{qname}: SEQ/QUAL not the read on its strand')
        if int(tags['NH']) != len(recs):
            errors.append(f'{qname}: NH')
        if not flag & 256 and nm != best:
            errors.append(f'{qname}: the primary record is not a best hit')
        # The CIGAR replayed: the read's symbols and the reference's from POS, edits = NM.
        i, j, edits, num = 0, pos - 1, 0, ''
        t = ref[rname]
        for c in cigar:
            if c.isdigit():
                num += c; continue
            L = int(num); num = ''
            if c == 'M':
                edits += sum(seq[i + x] != t[j + x] if j + x < len(t) else 1 for x in range(L)); i += L; j += L
            elif c == 'I':
                edits += L; i += L
            elif c == 'D':
                edits += L; j += L
            else:
                errors.append(f'{qname}: CIGAR op {c}')
        if i != len(seq) or j > len(t) or edits != nm or (distance == 'hamming' and cigar != f'{len(seq)}M'):
            errors.append(f'{qname}: CIGAR {cigar} at {rname}:{pos} does not give NM {nm}')
print('\n'.join(errors[:5]), file=sys.stderr)
sys.exit(1 if errors else 0)
PY
}
for d in hamming edit; do
  "$STRIX" search sam.idx sam.fq -k 2 --distance "$d" --both-strands -o "sam.$d.tsv" \
    && "$STRIX" search sam.idx sam.fq -k 2 --distance "$d" --both-strands --format sam -o "sam.$d.sam" \
    && ok || bad "search --format sam --distance $d"
  check_sam "sam.$d.sam" "sam.$d.tsv" "$d" sam.fq sam.fa 0 && ok || bad "SAM records of --distance $d"
done
"$STRIX" search sam.idx sam.fq -k 2 --distance edit --both-strands --format sam --max-occ 1 -o sam.one.sam \
  && check_sam sam.one.sam sam.edit.tsv edit sam.fq sam.fa 1 && ok || bad "--format sam --max-occ 1"
"$STRIX" search sam.idx sam.fq -k 2 --distance edit --both-strands --format bam -o sam.bam && ok || bad "search --format bam"
"$STRIX" search sam.idx sam.fq -k 2 --distance edit --both-strands --format bam -o - > sam.stdout.bam && cmp -s sam.bam sam.stdout.bam \
  && ok || bad "--format bam -o -: not the file's bytes"
if command -v samtools >/dev/null; then
  samtools quickcheck sam.bam && samtools view sam.bam | cmp -s - <(grep -v '^@' sam.edit.sam) && ok \
    || bad "samtools view of the BAM is not the SAM's records"
  samtools view -H sam.bam | grep -q '^@SQ	SN:chrB	LN:900' && ok || bad "samtools view -H of the BAM"
  samtools flagstat sam.edit.sam | grep -q '^30 + 0 primary$' && ok || bad "samtools flagstat: not 30 primary records"
else
  echo "note: samtools not installed; the BAM checked by strix's own SAM comparison only"
fi
expect_error "--format sam of a text index" o8 "$STRIX" search dna.idx dna.acgt -k 1 --format sam -o o8
grep -q "index a FASTA file" stderr.txt && ok || bad "--format sam of a text index: $(cat stderr.txt)"

echo "cli_search_test: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
