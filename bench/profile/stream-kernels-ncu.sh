#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# ncu of the streamed build's kernels (sigma 4 then 256, 2e8 bytes, chunk 2^26): per kernel
# time and DRAM bytes, summarised.
# Carry: DIR/new/strix_bench_succinct.xz, DIR/../lib. (RESULTS §10's first ncu run used the same script on
# the 64-thread build with -c 60.)
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/new"; for x in *.xz; do [ -e "$x" ] && xz -df "$x"; done; chmod +x *
command -v ncu >/dev/null || export PATH=$PATH:$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | tail -1):/usr/local/cuda/bin
timeout 100 ncu --kernel-name-base mangled --clock-control none --cache-control none --csv --print-units base \
  --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
  -k 'regex:build_wavelet_streamed|[Rr]adix|Onesweep|onesweep' -c 30 \
  ./strix_bench_succinct --what stream --runs 1 --text-bytes 200000000 --stream-chunk 67108864 > /tmp/k.csv 2>&1
echo "ncu exit $?"; grep RESULT /tmp/k.csv | head -8
python3 - <<'PY'
import csv, re, collections
rows=[r for r in csv.reader(open('/tmp/k.csv')) if len(r)>14 and r[0].isdigit()]
k=collections.OrderedDict()
for r in rows:
    i=int(r[0]); name=r[4]; m=r[12]; v=float(r[14].replace(',',''))
    d=k.setdefault(i,{'name':name,'block':r[7],'grid':r[8]}); d[m]=v
for i,d in k.items():
    n=d['name']; j=n.find('build_wavelet_streamed'); short=(n[j+22:j+80]+' .. '+n[-50:]) if j>=0 else n[:80]
    print(f"{i:3d} t={d.get('gpu__time_duration.sum',0)/1e3:8.1f}us rd={d.get('dram__bytes_read.sum',0)/1e6:8.1f}MB wr={d.get('dram__bytes_write.sum',0)/1e6:8.1f}MB blk={d['block']} grid={d['grid']}")
PY
