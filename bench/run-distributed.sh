#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Distributed suffix arrays side by side (issues 17, 63): `strix sa --distributed` under mpirun
# with each rank count in RANKS (and each variant in VARIANTS), alternating them in every
# round after one warm-up each; prints one RESULT line per (input, ranks, variant): medians
# of the whole run (mpirun included), of rank 0's stages and of the construction; bytes and
# messages sent between ranks; seconds inside MPI transfers (the slowest rank); the largest
# per-rank device peak (GPU ranks; bytes, and bytes per byte of the rank's slice) and host
# peak; rounds; rank 0's phases and every rank's. Every output is compared with the first rank count's
# (cmp), or checked by `strix check --distributed` where that count has no output.
# One rank per GPU on CUDA builds (BACKEND=cuda; rank r takes the node's GPU r); THREADS host
# threads per rank otherwise. One rank runs strix's single-device construction (`auto`).
#   bench/run-distributed.sh STRIX "1 2 4" RUNS INPUT...
# (device mode: SINGLE, one GPU's `strix sa` A/B against the base pack, below; TEST_VARIANTS,
# the library tests' TRANSPORT:ALGORITHM runs; NO_CLI=1 leaves the
# CLI script out; NO_TESTS=1 TESTS_AFTER=1 on machines of 2 GPUs.)
# env: BACKEND, THREADS, WIDTH, MPIRUN, VARIANTS (TRANSPORT:ALGORITHM words, each part one of
#      STRIX_DISTRIBUTED_TRANSPORT's / STRIX_DISTRIBUTED_ALGORITHM's values or auto, and for
#      the difference cover its period as a third part (STRIX_DISTRIBUTED_COVER: auto:cover:21)
#      and its pieces as a fourth (STRIX_DISTRIBUTED_PIECES: auto:cover:7:4); `base+` before a
#      variant runs it with the base pack's strix (device mode: A/B of two commits);
#      default "auto:auto"; "auto:auto staged:auto auto:partitioned" compares NCCL with host
#      staging and the replicated with the partitioned construction), CELL_TIMEOUT (seconds a run,
#      300), OUTDIR (outputs; a RAM disk for large texts), KEEP (a folder for every run's JSON).
#
# On a machine of several GPUs (the device tool; carry [".carry/dist"]):
#   bench/run-distributed.sh device [RUNS] [INPUT...]
# unpacks .carry/dist (`bench/run-distributed.sh pack` here: the CUDA strix, the distributed
# tests, strix_bench_gen, their libraries, Debian's OpenMPI, the inputs), makes dna-<X>G
# (X·10^9 bytes: dna-1G, dna-3.1G, dna-4.2G) from chrX.dna (strix_bench_gen genome), runs
# the distributed tests on 2 GPUs (and 4) by each transport, then the table on 1, 2 and 4 GPUs
# (as many as there are): NCCL on every input, host staging beside it on chrX.dna. Logs come back as $OUT/dist-logs.tar.xz.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
if [ "${1:-}" = pack ]; then
  # CUDA build: build/cuda (targets strix_cli strix_distributed_tests strix_bench_gen).
  c="${2:-$here/build/cuda}" carry="$here/.carry/dist" stage="$(mktemp -d)"
  mkdir -p "$stage/bin" "$stage/lib" "$carry"
  # (EXTRA_BINS: more of the build's programs, paths under it: "tests/strix_tests".)
  cp "$c/strix" "$c/tests/strix_distributed_tests" "$c/bench/strix_bench_gen" "$stage/bin/"
  for b in ${EXTRA_BINS:-}; do cp "$c/$b" "$stage/bin/"; done
  strip "$stage"/bin/*
  for f in "$stage"/bin/*; do ldd "$f" | awk '/=> \// { print $3 }'; done | sort -u |
    grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*|libcuda|libnvidia[^/]*|libnccl)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  # (BASE=1: the previous pack becomes the base; BASE=keep keeps the base there is; else none.)
  case "${BASE:-}" in
    1) [ -f "$carry/dist.tar.xz" ] && mv "$carry/dist.tar.xz" "$carry/base.tar.xz" ;;
    keep) ;;
    *) rm -f "$carry/base.tar.xz" ;;
  esac
  tar -cf - -C "$stage" . | xz -6 -T0 > "$carry/dist.tar.xz"
  rm -rf "$stage"
  mkdir -p "$carry/mpi" "$carry/data"
  ls "$carry/mpi"/openmpi-bin_*.deb >/dev/null 2>&1 || cp "$here/.carry/check/mpi"/*.deb "$carry/mpi/"
  for d in ${DIST_INPUTS:-chrX.dna linux.tar}; do ln -f "$here/.carry/data/$d.xz" "$carry/data/"; done
  git -C "$here" rev-parse --short HEAD > "$carry/commit"
  du -sh "$carry"
  exit 0
fi
if [ "${1:-}" = device ]; then
  runs="${2:-3}"
  shift $(( $# > 2 ? 2 : $# ))
  carry="$here/.carry/dist" w=/tmp/strix-dist in=/tmp/strix-in logs=/tmp/strix-dist-logs
  mkdir -p "$w" "$in" "$logs"
  tar -xJf "$carry/dist.tar.xz" -C "$w"
  # A base build beside it (`pack` with BASE=1 keeps the previous pack as base.tar.xz): the
  # variants `base+T:A...` run the base's strix, alternating with the rest in each round.
  if [ -f "$carry/base.tar.xz" ]; then
    mkdir -p "$w/base" && tar -xJf "$carry/base.tar.xz" -C "$w/base" && export BASE_STRIX="$w/base/bin/strix"
  fi
  export LD_LIBRARY_PATH="$w/lib:${LD_LIBRARY_PATH:-}"
  source "$here/scripts/device-mpi-env.sh" "$carry/mpi"
  gpus="$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)"
  echo "# $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $gpus; commit $(cat "$carry/commit"); $(date -u +%FT%TZ)"
  nvidia-smi topo -m 2>/dev/null | head -6
  for f in "$carry"/data/*.xz; do [ -f "$in/$(basename "$f" .xz)" ] || xz -dc "$f" > "$in/$(basename "$f" .xz)"; done
  wanted="${*:-linux.tar dna-1G chrX.dna dna-3.1G}"
  # dna-<X>G: X·10^9 bytes of simulated genome made from chrX.dna; from 3G on a "big" input, run
  # after the others at BIG_RANKS (4.2G: beyond one H200 at 32 bits, within 4 of them).
  big=""
  for name in $wanted; do
    case "$name" in dna-*G) ;; *) continue;; esac
    g="${name#dna-}"; g="${g%G}"
    [ -f "$in/$name" ] || "$w/bin/strix_bench_gen" genome "$(awk -v g="$g" 'BEGIN { printf "%.0f", g * 1e9 }')" "$in/$name" "$in/chrX.dna"
    awk -v g="$g" 'BEGIN { exit !(g >= 3) }' && big="$big $name"
  done
  # The tests on GPUs 2 and 3 while the table's 1- and 2-GPU runs take 0 and 1; then the 4-GPU runs.
  tests() {  # the GPUs they take (default 2,3: beside the table's 1- and 2-GPU runs)
    local t rc gpus="${1:-2,3}"
    for t in ${TEST_VARIANTS:-auto:shared auto:replicated staged:partitioned}; do
      rc=0
      CUDA_VISIBLE_DEVICES=$gpus STRIX_DISTRIBUTED_TRANSPORT="${t%%:*}" STRIX_DISTRIBUTED_ALGORITHM="${t#*:}" \
        STRIX_TEST_VERBOSE=1 timeout "${TEST_TIMEOUT:-240}" mpirun -q --bind-to none -np 2 \
        "$w/bin/strix_distributed_tests" > "$logs/tests-2-${t/:/-}.log" 2>&1 || rc=$?
      echo "# strix_distributed_tests on 2 GPUs, $t: exit $rc, $(grep -E 'passed' "$logs/tests-2-${t/:/-}.log" | tail -1)" \
        "(last: $(grep 'rank 0:' "$logs/tests-2-${t/:/-}.log" | tail -1 | cut -c1-150))"
      grep -m5 FAILED "$logs/tests-2-${t/:/-}.log" || true
    done
    [ -n "${NO_CLI:-}" ] && return 0
    rc=0
    # (Host staged: each of its ~110 mpirun starts would pay NCCL's set-up; the library's runs cover NCCL.)
    (cd /tmp && CUDA_VISIBLE_DEVICES=$gpus STRIX_DISTRIBUTED_TRANSPORT=staged timeout "${CLI_TIMEOUT:-300}" bash "$here/tests/cli/cli_distributed_test.sh" "$w/bin/strix" \
      > "$logs/cli_distributed_test.log" 2>&1) || rc=$?
    echo "# cli_distributed_test on GPUs $gpus (more ranks than GPUs share them: host staging): exit $rc, $(tail -1 "$logs/cli_distributed_test.log")"
    grep -m5 -E 'FAIL|differs' "$logs/cli_distributed_test.log" || true
  }
  # KERNELS=1: one run a rank count and input under Kokkos Tools' space-time stack (built outside
  # the repository from kokkos/kokkos-tools' profiling/space-time-stack and packed as
  # .carry/dist/tools/kp_space_time_stack.so): every rank's regions (strix's phases) and kernels,
  # where a region's time beyond its kernels is the host's (allocations, MPI, waits).
  if [ -n "${KERNELS:-}" ]; then
    for name in $wanted; do
      for np in ${TABLE_RANKS:-1 2}; do
        echo "## kernels: $name, $np GPUs"
        KOKKOS_PROFILE_LIBRARY="$carry/tools/kp_space_time_stack.so" OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
          CUDA_LAUNCH_BLOCKING=1 NCCL_NVLS_ENABLE=0 timeout 120 mpirun -q --bind-to none -x KOKKOS_PROFILE_LIBRARY -x CUDA_LAUNCH_BLOCKING -np "$np" "$w/bin/strix" sa \
          "$in/$name" -o /dev/shm/kernels.sa --distributed --backend cuda --stats --quiet > "$logs/kernels-$name-$np.txt" 2>&1
        awk '/TOP-DOWN/ { print "# a rank:"; next } /^\|/ { if (match($0, /[0-9.]+e[-+][0-9]+ sec/) && substr($0, RSTART, RLENGTH - 4) + 0 >= 2e-3) print }' \
          "$logs/kernels-$name-$np.txt" | cut -c1-150 | head -120
        rm -f /dev/shm/kernels.sa
      done
    done
    tar -cJf "${OUT:-/tmp}/dist-logs.tar.xz" -C "$logs" .
    exit 0
  fi
  # NO_TESTS=1: the table alone, on every GPU (nothing beside it).
  tests_pid=""
  if [ -z "${NO_TESTS:-}" ]; then
    tests > "$logs/tests-summary.txt" 2>&1 &
    tests_pid=$!
  fi
  table() {  # ranks inputs
    local r="$1" name v; shift
    for name in "$@"; do
      [ -f "$in/$name" ] || continue
      v="auto:auto"
      case "$r $name" in *2*linux.tar|*2*dna-1G|*4*linux.tar|*4*dna-1G) v="auto:auto auto:shared";; *2*chrX.dna) v="auto:auto staged:auto";; esac
      v="${TABLE_VARIANTS:-$v}"
      BACKEND=cuda VARIANTS="$v" OUTDIR=/dev/shm KEEP="$logs/json" CELL_TIMEOUT="${CELL_TIMEOUT:-150}" \
        "$0" "$w/bin/strix" "$r" "$runs" "$in/$name" || true
    done
  }
  small="$(for name in $wanted; do case " $big " in *" $name "*) ;; *) echo "$name";; esac; done)"
  if [ -n "$tests_pid" ]; then
    CUDA_VISIBLE_DEVICES=0,1 table "1 2" $small
    wait $tests_pid || true
    cat "$logs/tests-summary.txt"
    [ "$gpus" -ge 4 ] && table "4" $small
  else
    table "${TABLE_RANKS:-1 2$([ "$gpus" -ge 4 ] && echo " 4")}" $small
  fi
  # SINGLE="INPUT:ALGORITHM ...": one GPU's `strix sa --algorithm` on each, the base pack's strix
  # and this one alternating (SINGLE_RUNS rounds after a warm-up each), outputs compared.
  for cell in ${SINGLE:-}; do
    f="${cell%%:*}" a="${cell#*:}"
    [ -f "$in/$f" ] || continue
    for r in $(seq 0 "${SINGLE_RUNS:-3}"); do
      for side in ${BASE_STRIX:+base} new; do
        bin="$w/bin/strix"; [ "$side" = base ] && bin="$BASE_STRIX"
        "$bin" sa "$in/$f" -o "/dev/shm/single.$side.sa" --algorithm "$a" --stats --quiet > "$logs/single.json" 2>&1 ||
          { echo "# FAILED: $side $f $a: $(tail -1 "$logs/single.json")"; continue; }
        same=""; [ "$side" = new ] && [ -f /dev/shm/single.base.sa ] && { cmp -s /dev/shm/single.base.sa /dev/shm/single.new.sa && same=" same as base" || same=" DIFFERS from base"; }
        [ "$r" = 0 ] && continue  # (the warm-up)
        python3 -c "import json,sys; j=json.load(open(sys.argv[1])); p=j['phases_seconds']; print('SINGLE %s %s %s round=%s total_ms=%.2f sa_ms=%.2f merge_ms=%.2f peak=%.1fn%s' % (sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5], 1e3*j['total_seconds'], 1e3*j['stages_seconds'].get('suffix_array', 0), 1e3*p.get('merge', 0), j['peak_bytes_per_input_byte'], sys.argv[6]))" \
          "$logs/single.json" "$f" "$a" "$side" "$r" "$same"
      done
    done
    rm -f /dev/shm/single.*.sa
  done
  # TESTS_AFTER=1 (with NO_TESTS=1): the tests after the table, on every GPU.
  if [ -n "${TESTS_AFTER:-}" ]; then
    tests "$(seq -s, 0 $((gpus - 1)))"
  fi
  # (Beyond one H100, and beyond two at the partitioned construction's ~60 bytes a byte.)
  # (DEADLINE: seconds after which the largest text is left out, to end within a call.)
  # (BIG_RANKS: its rank counts, default 4; "1 2 4" where one GPU holds it, as an H200 does;
  # run where the machine has as many GPUs as the largest.)
  for name in $big; do
    if [ "$gpus" -ge "$(echo "${BIG_RANKS:-4}" | awk '{ print $NF }')" ] && [ "$SECONDS" -lt "${DEADLINE:-100000}" ]; then
      table "${BIG_RANKS:-4}" "$name"
    else echo "# $name left out at ${SECONDS} s"; fi
  done
  tar -cJf "${OUT:-/tmp}/dist-logs.tar.xz" -C "$logs" .
  exit 0
fi
strix="$1" ranks="$2" runs="$3"
shift 3
backend="${BACKEND:-default}" threads="${THREADS:-1}" width="${WIDTH:-0}" mpirun="${MPIRUN:-mpirun}"
variants="${VARIANTS:-auto:auto}" cell_timeout="${CELL_TIMEOUT:-300}"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export PMIX_MCA_pcompress_base_silence_warning=1 OMP_NUM_THREADS="$threads" OMP_PROC_BIND=false
export NCCL_NVLS_ENABLE=0  # never NVLink multicast (the device machines' rule)
out="$(mktemp -d "${OUTDIR:-${TMPDIR:-/tmp}}/strix-dist.XXXXXX")"
trap 'rm -rf "$out"' EXIT
echo "# $(date -u '+%F %T') $(hostname) $(nproc --all) cores; $strix; backend $backend, $threads threads/rank," \
  "ranks: $ranks, variants: $variants, $runs runs"
widthopt=()
[ "$width" != 0 ] && widthopt=(--width "$width")
one_run() {  # ranks variant input json output
  local bin="$strix"
  case "$2" in base+*) bin="${BASE_STRIX:?a base+ variant wants the base pack}"; set -- "$1" "${2#base+}" "$3" "$4" "$5";; esac
  local t0 t1 rc=0 how="${2#*:}" period="" pieces=""
  [ "${how#*:}" != "$how" ] && period="${how#*:}"
  [ "${period#*:}" != "$period" ] && pieces="${period#*:}" period="${period%%:*}"
  t0=$(date +%s.%N)
  STRIX_DISTRIBUTED_TRANSPORT="${2%%:*}" STRIX_DISTRIBUTED_ALGORITHM="${how%%:*}" \
    STRIX_DISTRIBUTED_COVER="$period" STRIX_DISTRIBUTED_PIECES="$pieces" timeout "$cell_timeout" "$mpirun" -q --bind-to none -np "$1" "$bin" sa "$3" \
    -o "$5" --distributed --backend "$backend" "${widthopt[@]}" --stats --quiet >"$4" 2>"$4.err" || rc=$?
  t1=$(date +%s.%N)
  if [ $rc -ne 0 ]; then
    echo "# FAILED (exit $rc): $1 ranks, $2, $(basename "$3"): $(grep -m1 'strix' "$4.err" || tail -1 "$4.err")"
    rm -f "$4"
    return 0
  fi
  python3 -c "import json,sys; j=json.load(open('$4')); j['wall']=$t1-$t0; json.dump(j, open('$4','w'))"
}
for input in "$@"; do
  name="$(basename "$input")"
  first="" reference=""
  for np in $ranks; do
    for t in $variants; do
      [ "$np" = 1 ] && [ "$t" != "$(echo $variants | cut -d' ' -f1)" ] && continue  # one rank: one construction
      one_run "$np" "$t" "$input" "$out/warm.json" "$out/sa.$np.$t"
      if [ -f "$out/warm.json" ]; then
        if [ -z "$first" ]; then
          first="$np.$t" reference="$out/sa.$np.$t"
        elif cmp -s "$reference" "$out/sa.$np.$t"; then
          echo "# $name: $np ranks ($t): output identical to $first"
        else
          echo "# $name: $np ranks ($t): OUTPUT DIFFERS from $first"
        fi
      fi
    done
  done
  if [ -z "$first" ]; then
    echo "# $name: no run finished"
    continue
  fi
  # Without a one-rank output to compare with (a text one device cannot hold), the largest
  # rank count's output is checked across ranks.
  if [ "${first%%.*}" != 1 ]; then
    last_np="$(echo $ranks | awk '{print $NF}')"
    if timeout "$cell_timeout" "$mpirun" -q --bind-to none -np "$last_np" "$strix" check "$input" "$reference" \
      --distributed --backend "$backend" > "$out/check.txt" 2>&1; then
      echo "# $name: $first's output: $(tail -1 "$out/check.txt")"
    else
      echo "# $name: $first's output FAILS the distributed check: $(tail -2 "$out/check.txt" | tr '\n' ' ')"
    fi
  fi
  for r in $(seq "$runs"); do
    for np in $ranks; do
      for t in $variants; do
        [ "$np" = 1 ] && [ "$t" != "$(echo $variants | cut -d' ' -f1)" ] && continue
        one_run "$np" "$t" "$input" "$out/$np.$t.$r.json" "$out/sa.run"
      done
    done
  done
  rm -f "$out"/sa.*
  [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && for f in "$out"/*.json; do cp "$f" "$KEEP/$name.$(basename "$f")"; done
  for np in $ranks; do
    for t in $variants; do
      ls "$out/$np.$t".*.json >/dev/null 2>&1 || continue
      python3 - "$name" "$np" "$t" "$out/$np.$t".*.json <<'PY'
import json, statistics, sys
name, np, asked, files = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
js = [json.load(open(f)) for f in files]
med = lambda f: statistics.median(f(j) for j in js)
wall = med(lambda j: j['wall'])
total = med(lambda j: j['total_seconds'])
build = med(lambda j: j['stages_seconds'].get('suffix_array', 0))
j = js[0]
n = j['n']
sent = j.get('ranks_bytes_sent', [0])
msgs = j.get('ranks_messages', [0])
mpi_s = med(lambda j: max(j.get('ranks_mpi_transfer_seconds', [0]) or [0]))
peaks = j.get('ranks_device_peak_bytes', [0])
per_slice = j.get('max_rank_device_peak_per_slice_byte', 0)
if max(peaks) == 0:  # one rank: the single-device construction's own peak
    peaks, per_slice = [j.get('peak_bytes', 0)], j.get('peak_bytes_per_input_byte', 0)
rss = j.get('ranks_max_rss_bytes', [0])
phases = {k: med(lambda j, k=k: j['phases_seconds'].get(k, 0)) for k in j['phases_seconds']}
top = ' '.join(f"{k.replace('distributed_', '')}={v:.3f}" for k, v in sorted(phases.items(), key=lambda kv: -kv[1])[:10])
algorithm = {0: 'partitioned', 1: 'replicated', 2: 'shared', 3: 'cover'}.get(j['counters'].get('distributed_replicated'), 'single')
if algorithm == 'cover':
    algorithm += f"{j['counters'].get('distributed_cover', 0)}"
setup = med(lambda j: j['stages_seconds'].get('transport_setup', 0))
print(f"RESULT input={name} n={n} ranks={np} variant={asked} backend={j['backend']} "
      f"transport={j.get('transport', '-').replace(' ', '_')} algorithm={algorithm} setup_s={setup:.3f} "
      f"wall_s={wall:.3f} total_s={total:.3f} build_s={build:.3f} bytes_sent={sum(sent)} "
      f"bytes_sent_per_char={sum(sent)/max(n,1):.2f} messages={sum(msgs)} mpi_transfer_s={mpi_s:.3f} "
      f"max_rank_device_peak_GB={max(peaks)/1e9:.2f} device_peak_per_slice_byte={per_slice:.1f} "
      f"max_rank_rss_MB={max(rss)/2**20:.0f} rounds={j['counters'].get('distributed_rounds', 0)} "
      f"sorted_per_rank={'/'.join(str(round(v / max(n, 1), 2)) for v in j.get('ranks_sorted_suffixes', []))} runs={len(js)}")
print(f"PHASES input={name} ranks={np} variant={asked}: {top}")
# Every rank's phases (median over runs), where the slower rank shows what the others waited for.
for r in range(len(j.get('ranks_phases_seconds', []))):
    ph = {k: med(lambda j, k=k: j['ranks_phases_seconds'][r].get(k, 0)) for k in j['ranks_phases_seconds'][r]}
    print(f"RANK_PHASES input={name} ranks={np} variant={asked} rank={r}: " +
          ' '.join(f"{k.replace('distributed_', '')}={v:.3f}" for k, v in sorted(ph.items(), key=lambda kv: -kv[1])[:12]))
PY
    done
  done
done
