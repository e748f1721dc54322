#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Kokkos 3.4 with blocks of >= 128 threads (patch 05) against 64 (before): the CUDA test
# suite on the new build, then strix sa side by side (old/new alternating, 1 warm-up + 3).
# Carry: DIR/old/{strix}.xz (CUDA build on Kokkos 3.4 without patch 05), DIR/new/{strix,strix_tests}.xz
# (with it), DIR/../lib (libdivsufsort), DIR/../data/{english.txt,chrX.dna}.xz; this script as DIR/run1.sh.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
export LD_LIBRARY_PATH="$here/../lib:${LD_LIBRARY_PATH:-}"
cd "$here" && for x in old/*.xz new/*.xz; do [ -e "$x" ] && xz -df "$x"; done; chmod +x old/* new/*
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%Y-%m-%dT%H:%MZ)"
in=/tmp/in; mkdir -p $in
for f in english.txt chrX.dna; do xz -dc "$here/../data/$f.xz" > $in/$f; done
ls -l $in | tail -2
if [ "${SKIP_TESTS:-0}" != 1 ]; then
  timeout 330 new/strix_tests > /tmp/t.log 2>&1; echo "strix_tests (new, all suites) exit $?"; tail -3 /tmp/t.log
  grep -E "ERROR|FAILED" /tmp/t.log | head -5
fi
python3 - "$in" <<'PY'
import json, subprocess, sys, statistics
inp = sys.argv[1]
res = {}
for f in ["english.txt", "chrX.dna"]:
    for alg in ["prefix-doubling", "skew"]:
        for r in range(4):
            for b in ["old", "new"]:
                p = subprocess.run([f"./{b}/strix", "sa", f"{inp}/{f}", "-o", "/tmp/o.sa", "--backend", "cuda",
                                    "--algorithm", alg, "--stats"], capture_output=True, text=True, timeout=120)
                if p.returncode != 0:
                    print("FAIL", b, f, alg, p.stderr[-300:]); continue
                s = json.loads(p.stdout)
                if r > 0:
                    res.setdefault((f, alg, b), []).append((s["total_seconds"], s["stages_seconds"]["suffix_array"]))
print("input        algorithm        64-thread total / SA ms    128+ total / SA ms    SA speed-up")
for f in ["english.txt", "chrX.dna"]:
    for alg in ["prefix-doubling", "skew"]:
        o = res.get((f, alg, "old")); n = res.get((f, alg, "new"))
        if not o or not n: continue
        mo = [statistics.median(x[i] for x in o) * 1e3 for i in (0, 1)]
        mn = [statistics.median(x[i] for x in n) * 1e3 for i in (0, 1)]
        print(f"{f:12s} {alg:16s} {mo[0]:8.1f} / {mo[1]:8.1f}        {mn[0]:8.1f} / {mn[1]:8.1f}      {mo[1]/mn[1]:5.2f}x")
PY
