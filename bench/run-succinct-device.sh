#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Runs on the GPU machine (issue 10): the CUDA build's succinct tests and `strix wt` CLI test,
# then strix's bit vector / wavelet tree benchmark beside ECL_wavelet (built outside the
# repository from its `extended` branch), and strix's OpenMP build beside SDSL on the host.
# Expects next to this script (or in $STRIX_SUCCINCT_CARRY): bin/{strix, strix_tests,
# strix_bench_succinct (CUDA), strix_bench_succinct_omp (OpenMP build), strix_bench_sdsl,
# ecl_bench}, lib/ (libdivsufsort*.so*), tests/cli/{cli_common.sh,cli_wt_test.sh}, and the
# inputs english.txt.xz and chrX.dna.xz in $STRIX_DATA (default: ../data).
#   bash run-succinct-device.sh [RUNS]
# STRIX_SUCCINCT_STEPS (default "tests,strix,stream,ecl,host") picks the steps; ECL_WHAT (default
# "bv,bvbig,wt") what ecl_bench measures. Each step is time-boxed; the table comes last.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
carry="${STRIX_SUCCINCT_CARRY:-$here}"
data="${STRIX_DATA:-$here/../data}"
runs="${1:-5}"
out="${OUT:-/tmp/strix-succinct-out}"
mkdir -p "$out"
touch "$out/ecl.txt" "$out/strix.txt" "$out/omp.txt" "$out/sdsl.txt" "$out/stream.txt"
export LD_LIBRARY_PATH="$carry/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
bin="$carry/bin"
for x in "$bin"/*.xz; do [ -e "$x" ] && xz -dkf "$x"; done
chmod +x "$bin"/* 2>/dev/null
device="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
host="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs) ($(nproc) cores)"
echo "device: $device; host: $host; $(date -u +%Y-%m-%dT%H:%MZ)"

steps=",${STRIX_SUCCINCT_STEPS:-tests,strix,stream,ecl,host},"
step() { [[ "$steps" == *",$1,"* ]]; }

if step tests; then
echo "== tests: succinct and primitives suites (CUDA, OpenMP, Serial x 32/64-bit), strix wt CLI"
timeout "${STRIX_TEST_TIMEOUT:-120}" "$bin/strix_tests" --test-suite=succinct,primitives > "$out/tests.log" 2>&1
echo "strix_tests exit $?"; tail -4 "$out/tests.log"
timeout 60 bash "$carry/tests/cli/cli_wt_test.sh" "$bin/strix" > "$out/cli.log" 2>&1
echo "cli_wt_test exit $?"; tail -3 "$out/cli.log"
fi

echo "== inputs"
in=/tmp/strix-in; mkdir -p "$in"
for f in english.txt chrX.dna; do
  [ -f "$in/$f" ] || xz -dc "$data/$f.xz" > "$in/$f" 2>/dev/null || rm -f "$in/$f"
  ls -l "$in/$f" 2>/dev/null | awk '{print $5, $9}'
done
files=(); for f in english.txt chrX.dna; do [ -s "$in/$f" ] && files+=(--file "$in/$f"); done

if step strix; then
echo "== strix (CUDA): strix_bench_succinct --runs $runs"
timeout "${STRIX_BENCH_TIMEOUT:-120}" "$bin/strix_bench_succinct" --runs "$runs" "${files[@]}" > "$out/strix.txt" 2> "$out/strix.err"
echo "exit $?"; tail -2 "$out/strix.err"
fi
if step stream; then
echo "== strix (CUDA): streamed builds (2e8 bytes in chunks of 2^24, then 2e9 in chunks of 2^28), one build each"
timeout "${STRIX_STREAM_SMALL_TIMEOUT:-60}" "$bin/strix_bench_succinct" --what stream --text-bytes 200000000 --stream-chunk 16777216 \
  | sed 's/^RESULT wt_/RESULT small_wt_/' > "$out/stream.txt" 2>> "$out/strix.err"
echo "small exit $?"
timeout "${STRIX_STREAM_TIMEOUT:-90}" "$bin/strix_bench_succinct" --what stream --stream-chunk 268435456 >> "$out/stream.txt" 2>> "$out/strix.err"
echo "large exit $?"; cat "$out/stream.txt" >> "$out/strix.txt"
fi
if step ecl; then
echo "== ECL_wavelet (extended, sm_90): ecl_bench --runs $runs --what ${ECL_WHAT:-bv,bvbig,wt}"
timeout "${STRIX_ECL_TIMEOUT:-100}" "$bin/ecl_bench" --runs "$runs" --what "${ECL_WHAT:-bv,bvbig,wt}" > "$out/ecl.txt" 2> "$out/ecl.err"
echo "exit $?"; tail -2 "$out/ecl.err"
fi
if step host; then
echo "== host: strix OpenMP ($(nproc) threads) and SDSL wt_blcd (OMP_NUM_THREADS=16) on the real texts"
timeout 45 "$bin/strix_bench_succinct_omp" --what files --queries 100000000 --runs 3 "${files[@]}" > "$out/omp.txt" 2> "$out/omp.err"
echo "strix OpenMP exit $?"
for f in english.txt chrX.dna; do
  [ -s "$in/$f" ] && OMP_NUM_THREADS=16 timeout 40 "$bin/strix_bench_sdsl" "$in/$f" --queries 10000000 --runs 3 >> "$out/sdsl.txt" 2>> "$out/sdsl.err"
done
echo "SDSL done"
fi

echo "== raw results"
cat "$out/strix.txt" "$out/ecl.txt" "$out/omp.txt" "$out/sdsl.txt" 2>/dev/null | grep RESULT | sed 's/^RESULT //' | tr '\n' ';'
echo
echo "== table: ECL_wavelet vs strix, $device, median of $runs after a warm-up (issue targets in the last column)"
awk '
  FILENAME ~ /ecl.txt$/  && $1 == "RESULT" { ecl[$2] = $3 }
  FILENAME ~ /strix.txt$/ && $1 == "RESULT" { st[$2] = $3 }
  FILENAME ~ /omp.txt$/  && $1 == "RESULT" { omp[$2] = $3 }
  FILENAME ~ /sdsl.txt$/ && $1 == "RESULT" { sd[$2] = $3 }
  function v(a, k) { return (k in a) ? a[k] : "-" }
  function row(label, k, unit, target) { printf "| %s | %s | %s | %s %s |\n", label, v(ecl, k), v(st, k), target, unit }
  END {
    print "| figure | ECL_wavelet | strix | target |"
    print "|---|---|---|---|"
    row("bv rank1, 1e9 bits, Gq/s", "bv_1e9_rank1", "", ">= 32")
    row("bv rank0, 1e9 bits, Gq/s", "bv_1e9_rank0", "", ">= 31")
    row("bv rank1, 3.2e10 bits, Gq/s", "bv_big_rank1", "", ">= 18")
    row("bv select1, 1e9 bits, Gq/s", "bv_1e9_select1", "", ">= 15")
    row("bv select0, 1e9 bits, Gq/s", "bv_1e9_select0", "", ">= 17")
    row("bv select1, 3.2e10 bits, Gq/s", "bv_big_select1", "", ">= 10")
    row("bv directory, 3.2e10 bits, % of bits", "bv_big_overhead_percent", "", "<= 4")
    for (s = 4; s <= 256; s *= 64) {
      row("wt build 2e9 bytes sigma " s ", pinned host incl. copy, ms", "wt_s" s "_build_ms", "", s == 4 ? "<= 120" : "<= 200")
      row("wt access, host arrays, sigma " s ", Gq/s", "wt_s" s "_host_access", "", s == 4 ? ">= 5.7" : ">= 2.3")
      row("wt rank, host arrays, sigma " s ", Gq/s", "wt_s" s "_host_rank", "", s == 4 ? ">= 3.1" : ">= 1.7")
      row("wt select, host arrays, sigma " s ", Gq/s", "wt_s" s "_host_select", "", s == 4 ? ">= 3.5" : ">= 1.05")
      row("wt access, device, sigma " s ", Gq/s", "wt_s" s "_device_access", "", s == 4 ? ">= 19" : ">= 3.4")
      row("wt rank, device, sigma " s ", Gq/s", "wt_s" s "_device_rank", "", s == 4 ? ">= 15" : ">= 3.0")
      row("wt select, device, sigma " s ", Gq/s", "wt_s" s "_device_select", "", s == 4 ? ">= 5.4" : ">= 1.3")
      row("wt streamed build, 2e9 bytes in chunks of 2^28 symbols, sigma " s ", ms", "wt_s" s "_streamed_build_ms", "", "-")
      row("wt streamed build, 2e8 bytes in chunks of 2^24 symbols, sigma " s ", ms", "small_wt_s" s "_streamed_build_ms", "", "-")
      row("wt rank, device, sorted by symbol, sigma " s ", Gq/s", "wt_s" s "_device_rank_sorted", "", "-")
      row("wt select, device, sorted by symbol, sigma " s ", Gq/s", "wt_s" s "_device_select_sorted", "", "-")
      k = "wt_s" s "_phase_"
      printf "| wt build phases, sigma %s, ms: copy / alphabet / levels / rank_select | - | %s / %s / %s / %s | - |\n", s, v(st, k "copy_to_device_ms"), v(st, k "alphabet_ms"), v(st, k "levels_ms"), v(st, k "rank_select_ms")
      row("wm (matrix) build, sigma " s ", ms", "wm_s" s "_build_ms", "", "-")
      k = "wm_s" s "_device_"
      printf "| wm access / rank / select, device, sigma %s, Gq/s | - | %s / %s / %s | - |\n", s, v(st, k "access"), v(st, k "rank"), v(st, k "select")
    }
    print ""
    print "| text | strix CUDA build ms | strix CUDA access / rank / select (host arrays, Gq/s) | strix OpenMP access / rank / select | SDSL wt_blcd 16 threads access / rank / select | SDSL build ms |"
    print "|---|---|---|---|---|---|"
    n = split("english_txt chrX_dna", t, " ")
    for (i = 1; i <= n; i++) {
      k = "wt_" t[i]
      printf "| %s | %s | %s / %s / %s | %s / %s / %s | %s / %s / %s | %s |\n", t[i], v(st, k "_build_ms"),
        v(st, k "_host_access"), v(st, k "_host_rank"), v(st, k "_host_select"),
        v(omp, k "_host_access"), v(omp, k "_host_rank"), v(omp, k "_host_select"),
        v(sd, "sdsl_" t[i] "_access"), v(sd, "sdsl_" t[i] "_rank"), v(sd, "sdsl_" t[i] "_select"), v(sd, "sdsl_" t[i] "_build_ms")
    }
  }' "$out/ecl.txt" "$out/strix.txt" "$out/omp.txt" "$out/sdsl.txt" 2>/dev/null | tee "$out/table.md"
