#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Timeline of the streamed build (sigma 4, 2e8 bytes, chunk 2^26): do the chunk copies overlap the kernels?
# Not yet run (the session's device time ran out): the next step of RESULTS §10.
# Carry: DIR/new/strix_bench_succinct.xz, DIR/../lib.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/../lib:${LD_LIBRARY_PATH:-}"
cd "$here/new"; for x in *.xz; do [ -e "$x" ] && xz -df "$x"; done; chmod +x *
N=$(command -v nsys || ls /usr/local/cuda/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -1)
echo "nsys: $N"
timeout 90 $N profile -o /tmp/tl -f true --trace=cuda ./strix_bench_succinct --what stream --runs 1 --text-bytes 400000000 --stream-chunk 67108864 2>&1 | grep RESULT | head -4
timeout 60 $N stats -q --report cuda_gpu_trace --format csv -o /tmp/tr /tmp/tl.nsys-rep >/dev/null 2>&1; ls /tmp/tr* 
python3 - <<'PY'
import csv, glob
f = glob.glob('/tmp/tr*.csv')[0]
rows = list(csv.DictReader(open(f)))
print(list(rows[0].keys()))
# rows in the middle: from the 3rd host-to-device copy of >= 32 MB
big = [i for i, r in enumerate(rows) if 'HtoD' in r.get('Name', '') and float(r.get('Bytes (MB)', r.get('Bytes', 0)) or 0) > 30]
start = big[3] if len(big) > 3 else 0
t0 = int(rows[start]['Start (ns)'])
for r in rows[start:start + 40]:
    name = r['Name'][:40].replace('\n', ' ')
    print(f"{(int(r['Start (ns)']) - t0) / 1e3:9.1f}us dur {int(r['Duration (ns)']) / 1e3:8.1f}us strm {r.get('Strm', r.get('Stream', '?')):>4} {name}")
PY
