#!/usr/bin/env bash
# One-off (not committed): single-GPU A/B of the cover algorithms, base pack vs new, alternating.
S=/tmp/strix-dist/bin/strix B=/tmp/strix-dist/base/bin/strix
export LD_LIBRARY_PATH=/tmp/strix-dist/lib:$LD_LIBRARY_PATH
for f in english.txt chrX.dna; do for a in dc7 dc21; do for r in 0 1 2 3; do for side in base new; do
  x=$S; [ $side = base ] && x=$B
  $x sa /tmp/strix-in/$f -o /dev/shm/ab.sa --algorithm $a --stats --quiet > /tmp/ab.json 2>/tmp/ab.err || { echo "FAIL $f $a $side: $(tail -1 /tmp/ab.err)"; continue; }
  [ $side = base ] && cp /dev/shm/ab.sa /dev/shm/ab.base.sa || { cmp -s /dev/shm/ab.sa /dev/shm/ab.base.sa && s=same || s=DIFFERS; }
  python3 -c "import json; j=json.load(open('/tmp/ab.json')); p=j['phases_seconds']; print('AB $f $a r$r $side total_ms=%.2f sa_ms=%.2f merge_ms=%.2f peak=%.1fn $s' % (1e3*j['total_seconds'], 1e3*j['stages_seconds'].get('suffix_array',0), 1e3*p.get('merge',0), j['peak_bytes_per_input_byte']))"
done; done; done; done
rm -f /dev/shm/ab*.sa
