#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host suffix arrays side by side (issue 24): strix sa with --algorithm sais, divsufsort and
# auto (the construction's own seconds from --stats, its peak bytes per input byte, and the
# process' peak resident set), and libsais when the bench build has strix_bench_libsais
# (-DLIBSAIS_ROOT=...), alternating per round, at each thread count. COMMANDS (default "sa")
# also runs `strix bwt` / `strix lcp`, timed as the suffix array plus that stage (sais and
# divsufsort make the BWT without a suffix array: its stage alone). RESULT
# lines on stdout.
#   [COMMANDS="sa bwt lcp"] bench/run-host-sa.sh BUILD_DIR "THREADS..." ROUNDS INPUT...
set -euo pipefail
build="$1" threads="$2" rounds="$3"
shift 3
strix="$build/strix"
libsais="$build/bench/strix_bench_libsais"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%FT%TZ) $(hostname) $(nproc) cores; $("$strix" --version | head -1)"
for input in "$@"; do
  for t in $threads; do
    for round in $(seq "$rounds"); do
      for command in ${COMMANDS:-sa}; do
        for alg in sais divsufsort auto; do
          /usr/bin/time -f "%M" -o "$tmp/rss" "$strix" --threads "$t" "$command" "$input" -o "$tmp/out" \
            --algorithm "$alg" --stats > "$tmp/stats.json"
          python3 - "$tmp/stats.json" "$tmp/rss" "$input" "$t" "$round" "$alg" "$command" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); rss_kb = int(open(sys.argv[2]).read().split()[-1])
n, stages = max(s["n"], 1), s["stages_seconds"]
seconds = stages.get("suffix_array", 0) + stages.get("bwt", 0) + stages.get("lcp", 0)
print(f"RESULT command={sys.argv[7]} input={sys.argv[3].split('/')[-1]} threads={sys.argv[4]} round={sys.argv[5]}"
      f" algorithm={sys.argv[6]}({s['algorithm']}) seconds={seconds:.3f}"
      f" peak_bytes_per_byte={s['peak_bytes'] / n:.2f} rss_bytes_per_byte={rss_kb * 1024 / n:.2f}")
PY
        done
      done
      if [ -x "$libsais" ]; then
        echo "RESULT input=${input##*/} threads=$t round=$round algorithm=libsais $("$libsais" "$input" "$tmp/ls.sa" 1 "$t")"
      fi
    done
  done
done
