#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Issue 53's bench on a GPU machine: `strix search` on the GPU (the pack's CUDA strix) and on
# the host's 16 threads (its OpenMP strix-host) against Columba on the same reads and threads.
# Carry [".carry/check", ".carry/columba"]: scripts/device-check.sh's pack (chrX.dna travels in
# it) and Columba's static binaries (columba, columba_build), built outside the repository and
# packed as .carry/columba/columba-bin.tar.xz (bench/NOTES.md, issue 53, says how).
#
#   bench/run-approximate-device.sh READS "LENGTHS" "KS" "DISTANCES" ["SIDES"]
#     e.g. 100000 "100 150" "1 2 3 4" "hamming edit" "gpu host columba"
#   bench/run-approximate-device.sh profile READS LENGTH "KS" "DISTANCES"
#     Nsight Compute sections of walk 1 (the first approximate_walks kernel) on that many reads
#   bench/run-approximate-device.sh kernels READS LENGTH "KS" "DISTANCES"
#     every kernel's time in the GPU search (Kokkos Tools' space-time-stack, built from
#     kokkos/kokkos-tools outside the repository and carried as .carry/tools/kp_space_time_stack.so;
#     launches made blocking so that each kernel's time is its own)
#
# Reads: bench/simulate_reads.cpp from chrX.dna (1 % substitutions, 0.5 % indels, one strand
# or the other at random). Columba searches both strands of each read; strix searches one, so
# it gets each read and its reverse complement: the same work. Each cell runs once after the
# index loads (GPU cells are seconds; Columba reports its own mapping time too).
# SCHEME=NAME passes --scheme NAME to strix (default: strix's default scheme).
# The side `base` runs an earlier CUDA strix beside the pack's, for an A/B in one call:
# .carry/columba/$BASE_STRIX (default strix-base.xz: an xz of that strix binary; it uses the
# pack's libraries), and its answers are compared with the GPU side's byte for byte.
# Output: RESULT side distance length k reads seconds reads_per_s positions, and per cell a
# comparison line: Hamming, every (read, strand, position) of strix against Columba's; edit,
# the reads mapped and each read's best distance (Columba keeps one start per locus).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
profile="" kernels=""
if [ "$1" = profile ]; then profile=1; shift; fi
if [ "$1" = kernels ]; then kernels=1; shift; fi
reads="$1" lengths="$2" ks="$3" distances="$4" sides="${5:-gpu host columba}"
[ -n "$profile$kernels" ] && sides=gpu
w=/tmp/strix-approx out="${OUT:-/tmp/strix-approx-out}" cutoff="${CELL_TIMEOUT:-150}"
scheme=(--scheme "${SCHEME:-default}")
mkdir -p "$w" "$out" "$w/in" "$w/columba-index"
[ -x "$w/bin/strix" ] || tar -xJf "$root/.carry/check/check.tar.xz" -C "$w"
[ -x "$w/columba" ] || tar -xJf "$root/.carry/columba/columba-bin.tar.xz" -C "$w"
base_strix="$w/${BASE_STRIX:-strix-base.xz}" && base_strix="${base_strix%.xz}"
[[ " $sides " == *" base "* ]] && [ ! -x "$base_strix" ] &&
  { xz -dc "$root/.carry/columba/${BASE_STRIX:-strix-base.xz}" > "$base_strix" && chmod +x "$base_strix"; }
export LD_LIBRARY_PATH="$w/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false
strix="$w/bin/strix" host="$w/bin/strix-host" columba="$w/columba" text="$w/in/chrX.dna"
[ -f "$text" ] || xz -T0 -dc "$root/.carry/check/data/chrX.dna.xz" > "$text"
echo "# $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1); host $(nproc) cores," \
  "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); $(date -u +%FT%TZ); commit $(cat "$root/.carry/check/commit" | xargs)"
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.3f}')" "$@"; }

# Indexes: strix's (the reversed text's index in the same file), Columba's (both directions).
t0=$(date +%s.%N)
"$strix" index "$text" -o "$w/chrX.idx" --approximate --quiet || { echo "strix index failed"; exit 1; }
echo "# strix index --approximate (GPU): $(seconds "$t0" "$(date +%s.%N)") s, $(stat -c %s "$w/chrX.idx") bytes"
if [[ " $sides " == *" columba "* ]]; then
  { echo ">chrX"; fold -w 80 "$text"; } > "$w/in/chrX.fa"
  t0=$(date +%s.%N)
  "$w/columba_build" -r "$w/columba-index/chrX" -f "$w/in/chrX.fa" > "$out/columba-build.log" 2>&1 ||
    { echo "columba_build failed"; tail -5 "$out/columba-build.log"; }
  echo "# columba_build: $(seconds "$t0" "$(date +%s.%N)") s"
fi

if [ -n "$kernels" ]; then
  prefix="$w/in/kernels$lengths"
  "$w/host/strix_bench_simulate" "$text" "$reads" "$lengths" 0.01 0.005 "$lengths" "$prefix" > /dev/null || exit 1
  for distance in $distances; do
    for k in $ks; do
      echo "## kernels: $distance, k = $k, $reads reads of $lengths (both strands)"
      KOKKOS_PROFILE_LIBRARY="$root/.carry/tools/kp_space_time_stack.so" KOKKOS_TOOLS_LIBS="$root/.carry/tools/kp_space_time_stack.so" \
        CUDA_LAUNCH_BLOCKING=1 timeout "$cutoff" "$strix" search "$w/chrX.idx" "$prefix.both.fa" -k "$k" --distance "$distance" \
        "${scheme[@]}" -o /tmp/kernels.txt > "$out/kernels.$distance.$k.txt" 2>&1
      sed -n '/TOP-DOWN/,/BOTTOM-UP/p' "$out/kernels.$distance.$k.txt" | grep -v 'BOTTOM-UP\|^<\|^===' | head -24
    done
  done
  exit 0
fi

if [ -n "$profile" ]; then
  ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)
  prefix="$w/in/profile$lengths"
  "$w/host/strix_bench_simulate" "$text" "$reads" "$lengths" 0.01 0.005 "$lengths" "$prefix" > /dev/null || exit 1
  for distance in $distances; do
    for k in $ks; do
      echo "## ncu: walk 1, $distance, k = $k, $reads reads of $lengths (both strands)"
      "$ncu" --kernel-name-base demangled -k regex:walk_lanes -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats \
        --section MemoryWorkloadAnalysis --section WarpStateStats --section SchedulerStats --section SourceCounters \
        "$strix" search "$w/chrX.idx" "$prefix.both.fa" -k "$k" --distance "$distance" -o /tmp/profile.txt \
        > "$out/ncu.$distance.$k.txt" 2>&1
      grep -E 'Duration|Throughput|Registers Per|Local Memory|Achieved Occupancy|Theoretical Occupancy|Block Limit Reg|Mem Busy|L1/TEX Hit|L2 Hit|Warp Cycles Per Issued|Avg. Active Threads|Branch Efficiency|Avg. Divergent|No Eligible|Issued Warp|uncoalesced' \
        "$out/ncu.$distance.$k.txt" | head -40
      grep -q 'Duration' "$out/ncu.$distance.$k.txt" || { echo "ncu ($ncu) gave:"; tail -5 "$out/ncu.$distance.$k.txt"; }
    done
  done
  exit 0
fi

for length in $lengths; do
  prefix="$w/in/reads$length"
  "$w/host/strix_bench_simulate" "$text" "$reads" "$length" 0.01 0.005 "$length" "$prefix" > /dev/null || exit 1
  for distance in $distances; do
    for k in $ks; do
      cell="$distance.$length.$k"
      for side in $sides; do
        t0=$(date +%s.%N)
        case "$side" in
          gpu) timeout "$cutoff" "$strix" search "$w/chrX.idx" "$prefix.both.fa" -k "$k" --distance "$distance" "${scheme[@]}" \
                 -o "$out/gpu.$cell.txt" --stats > "$out/gpu.$cell.json" 2> "$out/gpu.$cell.err" ;;
          base) timeout "$cutoff" "$base_strix" search "$w/chrX.idx" "$prefix.both.fa" -k "$k" --distance "$distance" \
                  "${scheme[@]}" -o "$out/base.$cell.txt" --stats > "$out/base.$cell.json" 2> "$out/base.$cell.err" ;;
          host) timeout "$cutoff" "$host" --threads 16 search "$w/chrX.idx" "$prefix.both.fa" -k "$k" \
                  --distance "$distance" "${scheme[@]}" -o "$out/host.$cell.txt" --stats > "$out/host.$cell.json" 2> "$out/host.$cell.err" ;;
          columba) timeout "$cutoff" "$columba" -r "$w/columba-index/chrX" -f "$prefix.fa" -a all -e "$k" -m "$distance" \
                     -t 16 -o "$out/columba.$cell.sam" > "$out/columba.$cell.log" 2>&1 ;;
        esac
        rc=$?
        wall=$(seconds "$t0" "$(date +%s.%N)")
        python3 - "$out" "$side" "$cell" "$reads" "$wall" "$rc" <<'PY'
import json, re, sys
out, side, cell, reads, wall, rc = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), float(sys.argv[5]), int(sys.argv[6])
distance, length, k = cell.split('.')
if rc != 0:
    print(f"RESULT {side} {distance} {length} {k} {reads} - - - (exit {rc}{', timed out' if rc == 124 else ''})")
    sys.exit(0)
if side == 'columba':
    log = open(f"{out}/columba.{cell}.log").read()
    m = re.search(r'finished mapping in ([0-9.]+)s', log)
    seconds = float(m.group(1)) if m else wall
    m = re.search(r'Total no\. matches: ([0-9]+)', log)
    positions = int(m.group(1)) if m else -1
else:
    stats = json.load(open(f"{out}/{side}.{cell}.json"))
    seconds = stats["stages_seconds"]["search"]
    positions = stats["positions"]
print(f"RESULT {side} {distance} {length} {k} {reads} {seconds:.3f} {reads / seconds:.0f} {positions} (wall {wall:.1f} s)")
PY
      done
      [ -s "$out/gpu.$cell.txt" ] && [ -s "$out/base.$cell.txt" ] &&
        { cmp -s "$out/gpu.$cell.txt" "$out/base.$cell.txt" && echo "COMPARE base: the same answers" ||
            echo "COMPARE base: the answers DIFFER"; }
      # strix (either side) against Columba.
      strix_out="$out/gpu.$cell.txt"; [ -s "$strix_out" ] || strix_out="$out/host.$cell.txt"
      [ -s "$strix_out" ] && [ -s "$out/columba.$cell.sam" ] && python3 - "$strix_out" "$out/columba.$cell.sam" "$reads" "$distance" "$text" <<'PY'
import sys
strix_file, sam, reads, distance, text_file = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
mine, theirs = set(), set()
best_mine, best_theirs = {}, {}
for line in open(strix_file):
    q, p, d = line.split('\t')
    q, p, d = int(q), int(p), int(d)
    read, strand = (q, '+') if q < reads else (q - reads, '-')
    mine.add((read, strand, p))
    best_mine[read] = min(best_mine.get(read, 99), d)
for line in open(sam):
    if line.startswith('@'):
        continue
    f = line.split('\t')
    if f[2] == '*':
        continue
    read = int(f[0][1:])
    strand = '-' if int(f[1]) & 16 else '+'
    nm = next((int(x[5:]) for x in f[11:] if x.startswith('NM:i:')), 0)
    theirs.add((read, strand, int(f[3]) - 1))
    best_theirs[read] = min(best_theirs.get(read, 99), nm)
if distance == 'hamming':
    print(f"COMPARE {distance}: strix {len(mine)} positions, Columba {len(theirs)}; only strix {len(mine - theirs)},"
          f" only Columba {len(theirs - mine)}")
    text = open(text_file, 'rb').read()
    for read, strand, p in sorted((mine ^ theirs))[:3]:
        window = text[p:p + 200]
        print(f"  differs: read {read}{strand} at {p} (strix has it: {(read, strand, p) in mine}); N in the 200 bases"
              f" there: {window.count(b'N')}")
else:
    differ = sum(1 for r in set(best_mine) | set(best_theirs) if best_mine.get(r) != best_theirs.get(r))
    print(f"COMPARE {distance}: reads mapped strix {len(best_mine)}, Columba {len(best_theirs)}; reads whose best"
          f" distance differs {differ}; start positions strix {len(mine)}, Columba {len(theirs)} (one a locus)")
PY
      rm -f "$out"/*.$cell.txt "$out"/*.$cell.sam  # the answers stay on the machine
    done
  done
done
