#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The device check: every suite of a CUDA build on a GPU machine, in one call of the device
# tool, with a summary table last. Every session that changes code a CUDA build compiles runs
# it before calling that work done, and quotes its summary line.
#
# On the 2-core development machine (no GPU; nvcc compiles):
#   scripts/device-check.sh headers-command   prints the command that brings the device's
#                                             Python 3.12 headers back (once per cache; run it
#                                             through the device tool, then unpack its
#                                             python-headers.tar.xz with `headers-unpack FILE`)
#   scripts/device-check.sh pack              builds build/openmp (host fallback and host benches)
#                                             and build/cuda-check (tests, bench, Python module),
#                                             strips and xz-packs what the run needs into
#                                             .carry/check/ (git-ignored; 14 MB of binaries and
#                                             libraries, 24 MB of inputs: bench/prepare-inputs.sh's
#                                             english.txt and chrX.dna). Needs nvcc (CUDA 13.0)
#                                             and about 25 minutes on 2 cores from scratch.
#                                             LIBSAIS_ROOT=DIR (a libsais build outside the
#                                             repository) adds host/strix_bench_libsais, the
#                                             anchor of bench/run-host-sa.sh on the device host.
#                                             Another Kokkos (issue 52): STRIX_CHECK_KOKKOS_CUDA and
#                                             STRIX_CHECK_KOKKOS_HOST name the CUDA and host Kokkos
#                                             prefixes, STRIX_CHECK_BUILD a suffix for the two build
#                                             folders, STRIX_CHECK_CARRY the pack folder (also
#                                             given to `run` on the device).
# Through the device tool (64 MiB at most a call):
#   run: scripts/device-check.sh run [suites|sanitize|multi]   carry: [".carry/check"]
#     suites (default): the doctest suite, every CLI script, pytest on the CUDA module and a
#              smoke bench (about 6 minutes on an H100: one call)
#     sanitize: compute-sanitizer memcheck and racecheck on the FM-index suites (a call of its own)
#     multi:   the distributed suites on 2 GPUs (and 4 where the machine has them), one rank a
#              GPU, by every transport the build has (NCCL and host staging) and every
#              construction (shared ranks by peer mappings, replicated, partitioned): the library's
#              tests against libdivsufsort and tests/cli/cli_distributed_test.sh (a machine of
#              several GPUs: nvidia-h100-x2 or -x4); STRIX_CHECK_CARRY=.carry/dist runs it from
#              bench/run-distributed.sh's pack (carry [".carry/dist"])
# Logs come back as $OUT/device-check-logs.tar.xz; the summary table is printed last.
# Kept for the next session: ~/.cache/strix/device-python (the headers) and the Kokkos builds.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# STRIX_CHECK_CARRY: another pack folder (a check against another Kokkos keeps the usual one).
carry="${STRIX_CHECK_CARRY:-$root/.carry/check}"
cache="${STRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strix}"
headers="$cache/device-python"
what="${1:-}"

# --- on the development machine -------------------------------------------------------------
headers_command() {
  cat <<'EOF'
inc=$(python3 -c 'import sysconfig;print(sysconfig.get_paths()["include"])'); cfg=$(ls -d /usr/include/*/$(basename $inc) 2>/dev/null); pb=$(python3 -c 'import pybind11;print(pybind11.get_include())'); python3 -c 'import sysconfig;print(sysconfig.get_config_var("EXT_SUFFIX"))' > $OUT/ext_suffix; tar -cJf $OUT/python-headers.tar.xz -C / --transform 's,^,device-python/,' ${inc#/} ${cfg#/} ${pb#/} && ls -la $OUT
EOF
}

headers_unpack() {
  local tarball="$1" suffix_file
  suffix_file="$(dirname "$tarball")/ext_suffix"
  rm -rf "$headers" && mkdir -p "$cache"
  tar -xJf "$tarball" -C "$cache"
  cp "$suffix_file" "$headers/ext_suffix"
  echo "$headers"
}

pack() {
  [ -f "$headers/ext_suffix" ] || { echo "device-check: no device Python headers in $headers (see headers-command)" >&2; exit 1; }
  local py_inc pb_inc suffix
  py_inc="$(find "$headers" -name Python.h -printf '%h\n' | head -1)"
  # Debian and Ubuntu keep pyconfig.h under the multiarch folder, included as <TRIPLET/pythonX.Y/...>.
  py_inc="$py_inc;$(dirname "$py_inc")"
  pb_inc="$(find "$headers" -path '*pybind11/pybind11.h' -printf '%h\n' | head -1)"
  pb_inc="$(dirname "$pb_inc")"
  suffix="$(cat "$headers/ext_suffix")"
  # The host build first: its strix becomes the CUDA build's strix-host.
  # (LIBSAIS_ROOT, a libsais build outside the repository, adds the host anchor strix_bench_libsais.)
  local c="$root/build/cuda-check${STRIX_CHECK_BUILD:-}" h="$root/build/openmp${STRIX_CHECK_BUILD:-}"
  Kokkos_ROOT="${STRIX_CHECK_KOKKOS_HOST:-}" "$root/scripts/build.sh" openmp "$h" -DSTRIX_ENABLE_BENCH=ON \
    ${LIBSAIS_ROOT:+-DLIBSAIS_ROOT="$LIBSAIS_ROOT"} >/dev/null || exit 1
  Kokkos_ROOT="${STRIX_CHECK_KOKKOS_CUDA:-}" STRIX_HOST_FALLBACK_EXE="$h/strix" "$root/scripts/build.sh" cuda "$c" \
    -DSTRIX_ENABLE_TESTS=ON -DSTRIX_ENABLE_BENCH=ON -DSTRIX_ENABLE_PYTHON=ON \
    -DSTRIX_PYTHON_FOREIGN_INCLUDE_DIRS="$py_inc;$pb_inc" -DSTRIX_PYTHON_EXT_SUFFIX="$suffix" >/dev/null || exit 1
  local stage; stage="$(mktemp -d)"
  mkdir -p "$stage/bin" "$stage/host" "$stage/lib" "$stage/python"
  cp "$c/strix" "$c/strix-host" "$c/tests/strix_tests" "$stage/bin/" || exit 1
  [ -x "$c/tests/strix_distributed_tests" ] && cp "$c/tests/strix_distributed_tests" "$stage/bin/"
  for b in strix_bench_fm strix_bench_sa strix_bench_gen strix_bench_divsufsort; do
    [ -x "$c/bench/$b" ] && cp "$c/bench/$b" "$stage/bin/"
  done
  for b in strix_bench_fm strix_bench_sdsl_fm strix_bench_seqan3_fm strix_bench_libsais strix_bench_simulate; do
    [ -x "$h/bench/$b" ] && cp "$h/bench/$b" "$stage/host/"
  done
  cp "$c"/python/strix*.so "$c/python/strix.pyi" "$stage/python/" || exit 1
  strip "$stage"/bin/* "$stage"/host/* "$stage"/python/*.so 2>/dev/null
  # The shared libraries the binaries take from Debian, which the device image lacks.
  for f in "$stage"/bin/* "$stage"/host/* "$stage"/python/*.so; do
    ldd "$f" 2>/dev/null | awk '/=> \// { print $3 }'
  done | sort -u | grep -Ev '/(libc|libm|libdl|libpthread|librt|libstdc\+\+|libgcc_s|ld-linux[^/]*|libcuda|libnvidia[^/]*|libnccl)\.so' |
    while read -r lib; do cp -L "$lib" "$stage/lib/"; done
  mkdir -p "$carry"
  tar -cf - -C "$stage" . | xz -6 -T0 > "$carry/check.tar.xz"
  git -C "$root" rev-parse --short HEAD > "$carry/commit"
  git -C "$root" status --porcelain --untracked-files=no | grep -q . && echo "+local changes" >> "$carry/commit"
  rm -rf "$stage"
  # Debian's OpenMPI for mpirun there (the multi mode; scripts/device-mpi-env.sh unpacks it).
  # NCCL is not carried (218 MB): the image's Python package nvidia-nccl has libnccl.so.2.
  mkdir -p "$carry/mpi"
  ls "$carry/mpi"/openmpi-bin_*.deb >/dev/null 2>&1 || (cd "$carry/mpi" && apt-get download -qq "${mpi_debs[@]}") || exit 1
  [ -f "$root/.carry/data/english.txt.xz" ] && [ -f "$root/.carry/data/chrX.dna.xz" ] ||
    "$root/bench/prepare-inputs.sh" >/dev/null
  # Only the two inputs the smoke bench reads travel (the call's 64 MiB).
  mkdir -p "$carry/data"
  ln -f "$root/.carry/data/english.txt.xz" "$root/.carry/data/chrX.dna.xz" "$carry/data/"
  echo "packed: $(du -h "$carry/check.tar.xz" | cut -f1) of binaries ($(cat "$carry/commit" | xargs))"
}

# The OpenMPI packages mpirun needs on the GPU machines (issue 17's list).
mpi_debs=(libopenmpi3 openmpi-bin openmpi-common libpmix2 libhwloc15 libevent-core-2.1-7 libevent-pthreads-2.1-7
          libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 libnuma1 libpsm-infinipath1 libpsm2-2
          libmunge2 libpciaccess0 libatomic1 ibverbs-providers libbsd0 libmd0)

# --- on the GPU machine ---------------------------------------------------------------------
summary_rows=()
# Each row is also written to $OUT/progress.md as it is made, with the seconds the check had
# run by then: a call cut off by its limit still says what passed and what took the time.
row() {
  summary_rows+=("| $1 | $2 | $3 |")
  if [ -n "${OUT:-}" ]; then echo "| $1 | $2 | $3 | ${SECONDS} s |" >> "$OUT/progress.md"; fi
}

run_check() {
  # Logs gather in $logs and travel back as one archive (the tool returns at most 8 files).
  local mode="${1:-suites}" out=/tmp/strix-check-logs w=/tmp/strix-check
  # multi's logs go straight to $OUT (a handful of files): what ran comes back even when the
  # call is cut off.
  [ "$mode" = multi ] && [ -n "${OUT:-}" ] && out="$OUT/multi"
  rm -rf "$out" && mkdir -p "$out" "$w"
  # (multi also runs from bench/run-distributed.sh's pack: STRIX_CHECK_CARRY=.carry/dist.)
  local binaries="$carry/check.tar.xz"
  [ "$mode" = multi ] && [ ! -f "$binaries" ] && binaries="$carry/dist.tar.xz"
  tar -xJf "$binaries" -C "$w"
  # The pack's folders come as mktemp made them (0700): cli_test runs strix as nobody too, and
  # the loader must reach the carried libraries (libhts) then.
  chmod -R a+rX "$w"
  export LD_LIBRARY_PATH="$w/lib:${LD_LIBRARY_PATH:-}" OMP_PROC_BIND=false STRIX_TEST_DATA_DIR="$root/tests"
  local bin="$w/bin" gpu
  gpu="$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
  echo "device check: $gpu; host $(nproc) cores; commit $(cat "$carry/commit" | xargs); $(date -u +%FT%TZ)"
  echo "strix: $("$bin/strix" --version)"

  [ "$mode" = sanitize ] && { sanitize "$bin" "$out"; finish "$gpu" "$out"; return; }
  [ "$mode" = multi ] && { multi_gpu "$bin" "$out"; finish "$gpu" "$out"; return; }
  # 1. The doctest suite (every case runs on CUDA, 32- and 64-bit).
  timeout 300 "$bin/strix_tests" > "$out/tests.log" 2>&1
  local rc=$? cases
  cases="$(grep 'test cases:' "$out/tests.log" | tail -1 | sed 's/\[doctest\] //; s/  */ /g')"
  row "strix_tests (CUDA)" "$([ $rc -eq 0 ] && echo pass || echo "FAIL (exit $rc)")" "$cases"
  [ $rc -eq 0 ] || grep -B2 -A6 'ERROR:' "$out/tests.log" | head -40

  # 2. Every CLI script against the CUDA strix (strix-host beside it serves --backend openmp|serial).
  local s name last
  for s in cli_test cli_lcp_repeats_test cli_wt_test cli_index_test cli_algorithm_test cli_determinism_test cli_hardening_test cli_stdout_test cli_search_test; do
    STRIX_TEST_TRACE="$out/${s}_runs.log" timeout 200 bash "$root/tests/cli/$s.sh" "$bin/strix" > "$out/$s.log" 2>&1
    rc=$?
    last="$(grep -E '[0-9]+ passed|passed|failed' "$out/$s.log" | tail -1)"
    row "$s" "$([ $rc -eq 0 ] && echo pass || echo "FAIL (exit $rc)")" "${last:-no summary}"
    [ $rc -eq 0 ] || grep -iE 'FAIL|differs|error' "$out/$s.log" | head -10
  done

  # 3. The Python module of the CUDA build, on the device's interpreter.
  if python3 -c 'import numpy, pytest' 2>/dev/null; then
    PYTHONPATH="$w/python" timeout 200 python3 -m pytest -q -p no:cacheprovider "$root/tests/python" > "$out/python.log" 2>&1
    rc=$?
    row "pytest (CUDA module)" "$([ $rc -eq 0 ] && echo pass || echo "FAIL (exit $rc)")" "$(tail -1 "$out/python.log")"
    [ $rc -eq 0 ] || grep -E 'FAILED|Error' "$out/python.log" | head -10
  else
    row "pytest (CUDA module)" "not run" "no numpy/pytest for python3"
  fi

  # 4. Smoke bench: the SA of english.txt and FM count of chrX.dna, beside RESULTS.md's figures
  # (H200, 2026-11-26, c4b2520: 28.6 ms total; 743 M 32-mers/s on device views).
  local in=/tmp/strix-in inputs="english.txt chrX.dna" f
  source "$root/bench/device-inputs.sh"
  f="$in/english.txt"
  if [ -f "$f" ]; then
    "$bin/strix" sa "$f" -o /tmp/check.sa --stats > /dev/null 2>&1  # warm-up
    local r
    for r in 1 2 3 4 5; do "$bin/strix" sa "$f" -o /tmp/check.sa --stats > "$out/sa-english.$r.json" 2>/dev/null; done
    local ms; ms="$(python3 - "$out" <<'PY'
import json, statistics, sys
t = [json.load(open(f"{sys.argv[1]}/sa-english.{r}.json"))["total_seconds"] for r in range(1, 6)]
print(f"{statistics.median(t) * 1e3:.1f}")
PY
)"
    "$bin/strix" check "$f" /tmp/check.sa > /dev/null 2>&1 && local ok=correct || local ok=WRONG
    row "smoke: strix sa english.txt" "$ok" "median of 5: $ms ms total (H200 c4b2520: 28.6 ms)"
  else
    row "smoke: strix sa english.txt" "not run" "english.txt not carried"
  fi
  f="$in/chrX.dna"
  if [ -f "$f" ] && [ -x "$bin/strix_bench_fm" ]; then
    timeout 120 "$bin/strix_bench_fm" "$f" --patterns 1000000 --runs 3 > "$out/fm-chrX.log" 2>&1
    local c32 loc
    c32="$(awk '$2 ~ /_s32_count32_device$/ { print $3 }' "$out/fm-chrX.log")"
    loc="$(awk '$2 ~ /_s32_locate20_device$/ { print $3 }' "$out/fm-chrX.log")"
    row "smoke: FM chrX.dna, 10^6 32-mers" "${c32:+ran}" "count ${c32:-?} M/s on device views (H200 c4b2520, 10^7: 743); locate ${loc:-?} M occ/s"
  else
    row "smoke: FM chrX.dna" "not run" "chrX.dna or strix_bench_fm not carried"
  fi

  finish "$gpu" "$out"
}

# compute-sanitizer's memcheck (32- and 64-bit cases) and racecheck (32-bit: the same kernels,
# and racecheck is slow) on the FM-index suites' CUDA cases; the large-text case is left out
# (minutes under the tools, and the same kernels).
sanitize() {
  local bin="$1" out="$2" tool rc cases
  for tool in memcheck racecheck; do
    cases='*<Cuda*'; [ "$tool" = racecheck ] && cases='*<Cuda/32>*'
    timeout 270 compute-sanitizer --tool "$tool" --error-exitcode 9 "$bin/strix_tests" --test-suite='fm_index*' \
      --test-case="$cases" --test-case-exclude='*large*' > "$out/sanitizer-$tool.log" 2>&1
    rc=$?
    grep -q 'Race reported\|Hazard' "$out/sanitizer-$tool.log" && [ $rc -eq 0 ] && rc=8  # warnings count too
    row "compute-sanitizer $tool (fm_index, $cases)" "$([ $rc -eq 0 ] && echo clean || echo "FAIL (exit $rc)")" \
      "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases:' "$out/sanitizer-$tool.log" | tail -2 | tr '\n' ' ')"
    [ $rc -eq 0 ] || grep -m3 -E 'Race reported|Invalid|Error' "$out/sanitizer-$tool.log" | cut -c1-240
  done
}

# The distributed suites with one rank a GPU: the library's tests (every hard input, 32 and 64
# bits, even and skewed slices, BWT and check) by each transport, then the CLI's script.
multi_gpu() {
  local bin="$1" out="$2" gpus t rc pids=()
  gpus="$(nvidia-smi --query-gpu=name --format=csv,noheader | wc -l)"
  source "$root/scripts/device-mpi-env.sh" "$carry/mpi"
  # One run of the library's tests: ranks, transport, GPUs (CUDA_VISIBLE_DEVICES), log.
  # Every case is logged as it starts (STRIX_TEST_VERBOSE), so a run cut off by its timeout
  # still says where it was; the timeouts are bounds (the library runs took 25 s in all on 2 H200s,
  # the CLI script more than 170: 2026-11-29); on 2 the library runs go one after the other
  # (200 each at the most, then the CLI's 300): give the CLI script
  # a call of its own there (STRIX_CHECK_LIB=0) or expect the call's limit to cut it.
  lib_tests() {  # ranks transport:algorithm GPUs log seconds
    STRIX_TEST_VERBOSE=1 STRIX_DISTRIBUTED_TRANSPORT=${2%%:*} STRIX_DISTRIBUTED_ALGORITHM=${2#*:} CUDA_VISIBLE_DEVICES=$3 timeout -k 5 "$5" \
      mpirun -q --bind-to none -np "$1" "$bin/strix_distributed_tests" > "$4" 2>&1
  }
  lib_row() {  # ranks transport log exit
    row "strix_distributed_tests, $1 GPUs, transport $2" "$([ "$4" -eq 0 ] && echo pass || echo "FAIL (exit $4)")" \
      "$(grep -E 'passed|failed' "$3" | tail -1)"
    [ "$4" -eq 0 ] || grep -m8 -E 'FAILED|error|Error' "$3" | cut -c1-240
    [ "$4" -eq 0 ] || for r in $(seq 0 $(($1 - 1))); do grep "^rank $r: " "$3" | tail -1 | cut -c1-200; done
  }
  # 2 GPUs by each transport and construction (NCCL with shared ranks by peer mappings, staged
  # with replicated ranks, NCCL partitioned; side by side on a machine of 4: about 100 s each),
  # then 4 by the defaults, then the difference cover on 2.
  # STRIX_CHECK_LIB=0 / STRIX_CHECK_CLI=0 leave the library's or the CLI's tests out (a call for
  # the other alone); STRIX_CHECK_CLI_TIMEOUT: the CLI script's seconds (300).
  for t in auto:shared staged:replicated auto:partitioned; do
    [ "${STRIX_CHECK_LIB:-1}" = 1 ] || break
    if [ "$gpus" -ge 4 ]; then
      [ "$t" = auto:partitioned ] && continue  # (2 x 2 GPUs side by side)
      lib_tests 2 "$t" "$([ "$t" = auto:shared ] && echo 0,1 || echo 2,3)" "$out/distributed-2-${t/:/-}.log" 200 &
      pids+=($!)
    else
      rc=0; lib_tests 2 "$t" 0,1 "$out/distributed-2-${t/:/-}.log" 200 || rc=$?
      lib_row 2 "$t" "$out/distributed-2-${t/:/-}.log" "$rc"
    fi
  done
  if [ "$gpus" -ge 4 ] && [ "${STRIX_CHECK_LIB:-1}" = 1 ]; then
    for t in auto:shared staged:replicated; do
      rc=0; wait "${pids[0]}" || rc=$?
      pids=("${pids[@]:1}")
      lib_row 2 "$t" "$out/distributed-2-${t/:/-}.log" "$rc"
    done
    rc=0; lib_tests 4 auto:auto 0,1,2,3 "$out/distributed-4-auto.log" 150 || rc=$?
    lib_row 4 auto:auto "$out/distributed-4-auto.log" "$rc"
  fi
  # The difference cover (asked for: `auto` takes it only where memory binds) on 2 GPUs, period 7.
  if [ "${STRIX_CHECK_LIB:-1}" = 1 ]; then
    rc=0; lib_tests 2 auto:cover 0,1 "$out/distributed-2-auto-cover.log" 200 || rc=$?
    lib_row 2 auto:cover "$out/distributed-2-auto-cover.log" "$rc"
  fi
  if [ "${STRIX_CHECK_CLI:-1}" = 1 ]; then
    # (With fewer GPUs than ranks, ranks share GPUs round robin.)
    # Host staging: its ~85 mpirun starts would each pay NCCL's set-up (1-2 s on 4 GPUs), and the
    # NCCL paths are the library tests' above; each run is logged as it starts.
    STRIX_DISTRIBUTED_TRANSPORT=staged STRIX_TEST_TRACE="$out/cli_distributed_runs.log" timeout -k 5 "${STRIX_CHECK_CLI_TIMEOUT:-300}" \
      bash "$root/tests/cli/cli_distributed_test.sh" "$bin/strix" > "$out/cli_distributed_test.log" 2>&1
    rc=$?
    row "cli_distributed_test ($gpus GPUs)" "$([ $rc -eq 0 ] && echo pass || echo "FAIL (exit $rc)")" \
      "$(grep -E 'passed' "$out/cli_distributed_test.log" | tail -1)"
    [ $rc -eq 0 ] || grep -iE 'FAIL|differs|error' "$out/cli_distributed_test.log" | head -10
  fi
}

finish() {
  local gpu="$1" out="$2" failed
  echo
  echo "| check | result | detail |"
  echo "|---|---|---|"
  printf '%s\n' "${summary_rows[@]}" | tee "$out/summary.md"
  failed="$(printf '%s\n' "${summary_rows[@]}" | grep -c 'FAIL\|WRONG')"
  echo "summary: $((${#summary_rows[@]} - failed)) of ${#summary_rows[@]} checks passed on $gpu" | tee -a "$out/summary.md"
  [ -n "${OUT:-}" ] && [ "${out#"$OUT"}" = "$out" ] && tar -cJf "$OUT/device-check-logs.tar.xz" -C "$out" .
  [ "$failed" -eq 0 ]
}

case "$what" in
  headers-command) headers_command ;;
  headers-unpack) headers_unpack "$2" ;;
  pack) pack ;;
  run) run_check "${2:-suites}" ;;
  *) sed -n '3,22p' "${BASH_SOURCE[0]}"; exit 2 ;;
esac
