#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The main job: build strix (bootstrapping Kokkos on the first run), then construct and
# check the suffix array of a generated English-like text and print the throughput.
#   scripts/demo.sh [strix demo options, e.g. --size 100000000 --stats]
# STRIX_VARIANT=cuda|openmp|serial picks the Kokkos build (default openmp).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
variant="${STRIX_VARIANT:-openmp}"
"$here/scripts/build.sh" "$variant" "$here/build/$variant" >/dev/null
exec "$here/build/$variant/strix" demo "$@"
