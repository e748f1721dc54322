#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# A CUDA build of strix on a machine without a usable GPU (issue 9, class 12): the default
# backend falls back to strix-host and says so; --backend cuda is a one-line error (exit 5).
# Skipped (exit 77) where a GPU is usable. Usage: cli_no_gpu_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"

printf 'mississippi' > miss.txt
if "$STRIX" sa miss.txt -o probe.sa --backend cuda 2>/dev/null; then
  echo "cli_no_gpu: a GPU is usable here; skipped"; exit 77
fi
host="$(dirname "$STRIX")/strix-host"
[ -x "$host" ] && ok || bad "no strix-host beside $STRIX"
"$host" sa miss.txt -o host.sa || bad "strix-host itself"

"$STRIX" sa miss.txt -o default.sa 2>default.err && cmp -s default.sa host.sa && ok || bad "default backend falls back"
[ "$(wc -l <default.err)" -eq 1 ] && grep -q '^strix: note: no usable GPU .*running on the host backend' default.err \
  && ok || bad "the fallback is announced in one line: $(cat default.err)"
"$STRIX" sa miss.txt -o openmp.sa --backend openmp 2>openmp.err && cmp -s openmp.sa host.sa && [ ! -s openmp.err ] \
  && ok || bad "--backend openmp runs on the host without a note"
"$STRIX" bwt miss.txt -o miss.bwt --stats 2>/dev/null >stats.json && grep -q '"backend": "OpenMP"' stats.json \
  && ok || bad "--stats names the host backend"
"$STRIX" unbwt miss.bwt -o back.txt --primary 5 2>/dev/null && cmp -s back.txt miss.txt && ok || bad "unbwt"
EXPECT_STATUS=5 expect_error "--backend cuda" cuda.sa "$STRIX" sa miss.txt -o cuda.sa --backend cuda

# Without strix-host beside it: one line, exit 5.
mkdir alone && cp "$STRIX" alone/strix
EXPECT_STATUS=5 expect_error "no strix-host" alone.sa alone/strix sa miss.txt -o alone.sa
grep -q 'strix-host' stderr.txt && ok || bad "the error names strix-host"

echo "cli_no_gpu: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
