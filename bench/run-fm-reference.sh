#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The FM-index of a multi-FASTA reference through the tool (issue 16): `strix index` on the
# reference (build time, peak, bits per symbol, sequences), then `strix count` and
# `strix locate --max-occ 1000` of reads drawn from within its sequences (one in ten with one
# base changed), each with --stats, twice. Prints the tool's JSON and RESULT lines.
#   bench/run-fm-reference.sh STRIX REFERENCE [READS (default 1000000)] [LENGTH (default 32)]
# REFERENCE: any FASTA the tool reads (plain or .gz), e.g. contigs.fa from
# bench/prepare-inputs.sh (11,239 contigs).
set -euo pipefail
strix="$1" reference="$2" reads="${3:-1000000}" length="${4:-32}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo "# $(date -u +%F) $(hostname) $(nproc) cores, OMP_NUM_THREADS=${OMP_NUM_THREADS:-unset}, $reads reads of $length"
python3 - "$reference" "$reads" "$length" "$work/reads.txt" <<'PY'
import gzip, random, sys
path, m, length, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
opener = gzip.open if path.endswith('.gz') else open
sequences, current = [], []
with opener(path, 'rt') as f:
    for line in f:
        if line.startswith('>'):
            if current: sequences.append(''.join(current).upper())
            current = []
        else:
            current.append(line.strip())
if current: sequences.append(''.join(current).upper())
long_enough = [s for s in sequences if len(s) >= length]
weights = [len(s) - length + 1 for s in long_enough]
rng = random.Random(16)
with open(out, 'w') as o:
    for s in rng.choices(long_enough, weights=weights, k=m):
        at = rng.randrange(len(s) - length + 1)
        read = list(s[at:at + length])
        if rng.random() < 0.1:
            k = rng.randrange(length)
            read[k] = rng.choice([c for c in 'ACGT' if c != read[k]])
        o.write(''.join(read) + '\n')
PY
/usr/bin/time -f "RESULT index_wall %e s\nRESULT index_max_rss %M KB" \
  "$strix" index "$reference" -o "$work/ref.idx" --stats
for round in 1 2; do
  echo "# round $round"
  "$strix" count "$work/ref.idx" "$work/reads.txt" -o "$work/counts.txt" --stats
  "$strix" locate "$work/ref.idx" "$work/reads.txt" -o "$work/locations.txt" --max-occ 1000 --stats
done
