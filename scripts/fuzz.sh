#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds strix's libFuzzer targets (clang, AddressSanitizer + UBSan, Kokkos Serial) in
# build/fuzz and runs each for a bounded time, starting from its corpus in
# tests/fuzz/corpus/TARGET (never modified: new inputs go to a scratch folder).
#   scripts/fuzz.sh [SECONDS_PER_TARGET (default 45)] [TARGET ...]
# Targets: command_line, readers, library, run side by side. A finding fails the script, the input
# saved under build/fuzz/findings/. For a long run: scripts/fuzz.sh 3600 library.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-45}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(command_line readers library)

"$here/scripts/install-deps.sh" clang libclang-rt-14-dev
prefix="$("$here/scripts/bootstrap-kokkos.sh" serial | tail -1)"
build="$here/build/fuzz"
flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -gline-tables-only"
cmake -S "$here" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++ \
  -DKokkos_ROOT="$prefix" -DCMAKE_PREFIX_PATH="$prefix" "-DCMAKE_CXX_FLAGS=$flags" \
  -DSTRIX_ENABLE_TESTS=OFF -DSTRIX_ENABLE_BENCH=OFF -DSTRIX_ENABLE_PYTHON=OFF -DSTRIX_ENABLE_MPI=OFF -DSTRIX_ENABLE_FUZZ=ON >/dev/null
cmake --build "$build" -j "${STRIX_JOBS:-$(nproc)}" --target "${targets[@]/#/fuzz_}"

# Longest input per target: texts stay small enough for the naive oracles.
declare -A max_len=([command_line]=512 [readers]=4096 [library]=1024)
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$build/findings"
# The targets run side by side (each for the whole time, sharing the cores): on CI's 2 cores
# three targets take one period instead of three.
run_target() {
  local t="$1"
  mkdir -p "$scratch/$t"
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -max_len="${max_len[$t]}" -timeout=20 \
      -rss_limit_mb=4096 -close_fd_mask=3 -print_final_stats=1 -artifact_prefix="$build/findings/$t-" \
      "$scratch/$t" "$here/tests/fuzz/corpus/$t" 2>"$scratch/$t.log"
}
declare -A pids
for t in "${targets[@]}"; do
  echo "== fuzz_$t: ${seconds} s"
  run_target "$t" &
  pids[$t]=$!
done
failed=0
for t in "${targets[@]}"; do
  if wait "${pids[$t]}"; then
    echo "fuzz_$t: $(grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "$scratch/$t.log" | tr '\n' ' ')corpus: $(ls "$scratch/$t" | wc -l) new inputs"
  else
    tail -40 "$scratch/$t.log" >&2
    echo "strix fuzz: fuzz_$t found a problem (see $build/findings)" >&2
    failed=1
  fi
done
exit "$failed"
