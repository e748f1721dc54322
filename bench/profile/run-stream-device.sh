#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Streamed wavelet build after the chunk_bits / copy-overlap rewrite: CUDA succinct tests,
# then the in-memory and streamed builds (2e9 random bytes, pinned), chunks 2^26 and 2^28.
# Carry: DIR/bin/{strix_tests,strix_bench_succinct}.xz (CUDA build), LD_LIBRARY_PATH with libdivsufsort for the tests.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/bin" && for x in *.xz; do xz -df "$x"; done; chmod +x *
echo "device: $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); $(date -u +%Y-%m-%dT%H:%MZ)"
timeout 100 ./strix_tests --test-case="*streamed*,*serializ*,*wavelet*" > /tmp/t.log 2>&1; echo "tests exit $?"; tail -3 /tmp/t.log
timeout 120 ./strix_bench_succinct --what wt,stream --runs 3 --queries 8388608 --stream-chunk 67108864 > /tmp/a.txt 2>&1; echo "bench 2^26 exit $?"
timeout 90 ./strix_bench_succinct --what stream --runs 3 --stream-chunk 268435456 > /tmp/b.txt 2>&1; echo "bench 2^28 exit $?"
echo "== chunk 2^26 (with in-memory builds)"; grep -E "build|phase" /tmp/a.txt | grep -v "_query" 
echo "== chunk 2^28"; grep -E "build|phase" /tmp/b.txt
