#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Host constructions side by side (issues 24, 51): strix (its stage seconds from --stats, its
# peak bytes per input byte, the process' peak resident set) against libsais when the bench
# build has strix_bench_libsais (-DLIBSAIS_ROOT=...; the call's seconds, median of one run
# after a warm-up, and its process' peak resident set), alternating per round, at each thread
# count; every libsais output is compared with strix's (same=yes|no). COMMANDS (default "sa"):
#   sa     strix sa (sais, divsufsort, auto)              libsais_omp
#   sa64   strix sa --width 64 (sais, auto)                libsais64_omp
#   gsa    strix sa --generalized (sais, auto) of the      libsais_gsa_omp
#          input's lines as 0x00-ended strings (empty lines dropped: libsais refuses them)
#   bwt    strix bwt (sais, divsufsort, auto): SA + BWT    libsais_bwt_omp
#   lcp    strix lcp (sais, auto): SA + LCP                libsais_omp + plcp + lcp
#   unbwt  strix unbwt of strix's BWT, wall seconds        libsais_unbwt_omp, wall seconds (one call)
# ALGORITHMS overrides strix's algorithms (divsufsort only runs for sa and bwt). RESULT lines on stdout.
#   [COMMANDS="sa bwt lcp unbwt gsa sa64"] bench/run-host-sa.sh BUILD_DIR "THREADS..." ROUNDS INPUT...
set -euo pipefail
build="$1" threads="$2" rounds="$3"
shift 3
strix="$build/strix"
libsais="$build/bench/strix_bench_libsais"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
echo "# $(date -u +%FT%TZ) $(hostname) $(nproc) cores; $("$strix" --version | head -1)"

# strix_run COMMAND INPUT THREADS ALGORITHM -> runs strix, leaves its output in $tmp/out and
# prints "seconds=... peak_bytes_per_byte=... rss_bytes_per_byte=..." and what auto ran.
strix_run() {
  local command="$1" input="$2" t="$3" alg="$4" args=()
  case "$command" in
    sa) args=(sa "$input") ;;
    sa64) args=(sa "$input" --width 64) ;;
    gsa) args=(sa "$input" --generalized) ;;
    bwt) args=(bwt "$input") ;;
    lcp) args=(lcp "$input") ;;
  esac
  /usr/bin/time -f "%M" -o "$tmp/rss" "$strix" --threads "$t" "${args[@]}" -o "$tmp/out" --algorithm "$alg" \
    --stats > "$tmp/stats.json"
  python3 - "$tmp/stats.json" "$tmp/rss" <<'PY'
import json, sys
s = json.load(open(sys.argv[1])); rss_kb = int(open(sys.argv[2]).read().split()[-1])
n, stages = max(s["n"], 1), s["stages_seconds"]
seconds = sum(stages.get(k, 0) for k in ("suffix_array", "generalized_suffix_array", "bwt", "lcp"))
print(f"ran={s['algorithm']} seconds={seconds:.3f} peak_bytes_per_byte={s['peak_bytes'] / n:.2f}"
      f" rss_bytes_per_byte={rss_kb * 1024 / n:.2f}")
PY
}

# libsais_run MODE INPUT THREADS [PRIMARY] -> its seconds (wall for unbwt) and peak resident set.
libsais_run() {
  local mode="$1" input="$2" t="$3" primary="${4:-}" n rss out runs=1
  n="$(stat -c %s "$input")"
  [ "$mode" = unbwt ] && runs=0
  local start=$EPOCHREALTIME
  out="$(/usr/bin/time -f "%M" -o "$tmp/rss" "$libsais" "$input" "$tmp/ls.out" "$runs" "$t" "$mode" $primary)"
  local wall; wall="$(python3 -c "print(f'{$EPOCHREALTIME - $start:.3f}')")"
  rss="$(python3 -c "print(f'{int(open(\"$tmp/rss\").read().split()[-1]) * 1024 / max($n, 1):.2f}')")"
  [ "$mode" = unbwt ] && out="seconds=$wall"
  echo "$out rss_bytes_per_byte=$rss"
}

for input in "$@"; do
  name="${input##*/}"
  gsa_input="$tmp/$name.strings"
  case " ${COMMANDS:-sa} " in *" gsa "*)
    # Lines as 0x00-ended strings, none empty, the last ended too.
    tr -s '\n' < "$input" | tr '\n' '\0' | sed -z '/^$/d' > "$gsa_input"
    [ "$(tail -c 1 "$gsa_input" | od -An -tx1 | tr -d ' ')" = "00" ] || printf '\0' >> "$gsa_input";;
  esac
  case " ${COMMANDS:-sa} " in *" unbwt "*)
    primary_of_input="$("$strix" bwt "$input" -o "$tmp/$name.bwt" --quiet | grep -o '[0-9]*$')";;
  esac
  for t in $threads; do
    for round in $(seq "$rounds"); do
      for command in ${COMMANDS:-sa}; do
        source_input="$input"
        [ "$command" = gsa ] && source_input="$gsa_input"
        if [ "$command" = unbwt ]; then
          start=$EPOCHREALTIME
          /usr/bin/time -f "%M" -o "$tmp/rss" "$strix" --threads "$t" unbwt "$tmp/$name.bwt" --primary "$primary_of_input" -o "$tmp/out"
          wall="$(python3 -c "print(f'{$EPOCHREALTIME - $start:.3f}')")"
          cmp -s "$tmp/out" "$input" || echo "# strix unbwt of $name: not the input" >&2
          echo "RESULT command=unbwt input=$name threads=$t round=$round algorithm=strix seconds=$wall" \
            "rss_bytes_per_byte=$(python3 -c "print(f'{int(open(\"$tmp/rss\").read().split()[-1]) * 1024 / max($(stat -c %s "$input"), 1):.2f}')")"
        else
          algorithms="${ALGORITHMS:-sais auto}"
          case "$command" in sa|bwt) algorithms="${ALGORITHMS:-sais divsufsort auto}" ;;
            *) algorithms="${algorithms//divsufsort/}" ;; esac
          for alg in $algorithms; do
            echo "RESULT command=$command input=$name threads=$t round=$round algorithm=$alg $(strix_run "$command" "$source_input" "$t" "$alg")"
          done
        fi
        if [ -x "$libsais" ]; then
          mode="$command"
          line="$(libsais_run "$mode" "$([ "$command" = unbwt ] && echo "$tmp/$name.bwt" || echo "$source_input")" "$t" \
            "$([ "$command" = unbwt ] && echo "$primary_of_input")")"
          reference="$tmp/out"
          [ "$command" = unbwt ] && reference="$input"
          same=no; cmp -s "$tmp/ls.out" "$reference" && same=yes
          echo "RESULT command=$command input=$name threads=$t round=$round algorithm=libsais $line same=$same"
        fi
      done
    done
  done
done
