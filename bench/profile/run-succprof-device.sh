#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# succprof (RESULTS §8b): ncu counters of the missed issue-10 figures, the random-sector ceiling
# (random_sectors.cu, built with nvcc -O3 -arch=sm_90 and carried as rsec.xz) and the streamed
# wavelet build. Carried in .carry/succprof with strix_bench_succinct.xz; run: bash .carry/succprof/run.sh
set -uo pipefail
c=.carry/succprof; out=${OUT:-/tmp/succprof-out}; mkdir -p "$out"
for x in $c/*.xz; do xz -dkf "$x"; done; chmod +x $c/strix_bench_succinct $c/rsec
B=$c/strix_bench_succinct
log=$out/log.txt
exec > >(tee -a "$log") 2>&1
echo "device: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem --format=csv,noheader); $(date -u +%Y-%m-%dT%H:%M:%SZ)"
command -v ncu >/dev/null || export PATH=$PATH:$(ls -d /opt/nvidia/nsight-compute/*/ 2>/dev/null | tail -1):/usr/local/cuda/bin
ncu --version | tail -1
M=gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,sm__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__throughput.avg.pct_of_peak_sustained_elapsed,lts__throughput.avg.pct_of_peak_sustained_elapsed,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,launch__grid_size,launch__registers_per_thread
NCU="ncu --clock-control none --cache-control none --kernel-name-base mangled --csv --print-units base"
echo "== 1. random-sector ceiling (rsec, no ncu)"
timeout 40 $c/rsec; echo "rsec exit $?"
echo "== 1b. rsec under ncu (metric set check)"
timeout 40 $NCU --metrics $M -k regex:probe -c 4 $c/rsec > $out/rsec.csv 2>&1; r=$?; echo "ncu rsec exit $r"; tail -2 $out/rsec.csv
if [ $r -ne 0 ]; then echo "metric set refused: falling back to sections"; M=""; SEC="--section SpeedOfLight --section MemoryWorkloadAnalysis_Tables --section Occupancy"; else SEC=""; fi
MET=${M:+--metrics $M}
echo "== 2. bit vector 1e9 bits: rank1, rank0, select1, select0 (warm-up + run each), 5e7 queries"
timeout 60 $NCU $MET $SEC -k regex:bit_vector_queries -c 8 $B --what bv --runs 1 --queries 50000000 > $out/bv.csv 2>&1; echo "exit $?"; grep RESULT $out/bv.csv
echo "== 3. bit vector 3.2e10 bits: rank1 (warm-up + run), 5e7 queries"
timeout 70 $NCU $MET $SEC -k regex:bit_vector_queries -c 2 $B --what bvbig --runs 1 --queries 50000000 > $out/big.csv 2>&1; echo "exit $?"; grep RESULT $out/big.csv
echo "== 4. wavelet tree 2e9 bytes sigma 4 and 256: device access/rank/select (+ host-array chunks), 2^23 queries"
timeout 60 $NCU $MET $SEC -k regex:wavelet_queries $B --what wt --runs 1 --queries 8388608 > $out/wt.csv 2>&1; echo "exit $?"; grep RESULT $out/wt.csv | grep -E "build_ms|device_(access|rank)" 
echo "== 5. streamed build timings (no ncu): 2e9 bytes, non-streamed build (median of 3) then one streamed build, chunk 2^26"
timeout 50 $B --what wt,stream --runs 3 --queries 8388608 --stream-chunk 67108864 > $out/stream26.txt 2>&1; echo "exit $?"; grep -E "build_ms|streamed|phase" $out/stream26.txt
echo "== 6. the same, chunk 2^28"
timeout 45 $B --what wt,stream --runs 3 --queries 8388608 --stream-chunk 268435456 > $out/stream28.txt 2>&1; echo "exit $?"; grep -E "build_ms|streamed" $out/stream28.txt
echo "== 7. streamed build kernels under ncu: 2e8 bytes, chunk 2^26 (sigma 4 whole, sigma 256 first levels)"
timeout 40 $NCU --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum -k 'regex:build_wavelet_streamed|[Rr]adix' -c 110 $B --what stream --text-bytes 200000000 --stream-chunk 67108864 > $out/streamk.csv 2>&1; echo "exit $?"; grep RESULT $out/streamk.csv
echo "== done $(date -u +%H:%M:%SZ)"
