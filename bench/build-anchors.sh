#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds the GPU anchors of issue 49 outside the repository, from a git mirror of libcubwt
# (the search tool's `fetch` of IlyaGrebnov/libcubwt gives one): libcubwt 1.0.0, its last
# version with suffix-array output, and 1.6.3 (BWT, inverse BWT), each linked with strix's
# own timing harness bench/cubwt_time.cu into OUT/strix_bench_cubwt-VERSION. None of
# libcubwt's files enter the repository.
#   bench/build-anchors.sh LIBCUBWT_GIT_DIR OUT [ARCH]      (ARCH default sm_90)
# Under CCCL 3 (CUDA 13) the 1.0.0 source's cub::Sum/Max functors are gone: the extracted copy
# takes cuda::std::plus<> and cuda::maximum<> instead (the change the issue names).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mirror="$1"; out="$(realpath -m "$2")"; arch="${3:-sm_90}"
case "$out/" in "$here"/*) echo "build-anchors: OUT must lie outside the repository" >&2; exit 2 ;; esac
mkdir -p "$out"
for version in v1.0.0 v1.6.3; do
  src="$out/libcubwt-$version"
  rm -rf "$src" && mkdir -p "$src"
  git --git-dir="$mirror" archive "$version" | tar -x -C "$src"
  git --git-dir="$mirror" rev-list -n1 "$version" > "$src/COMMIT"
  if [ "$version" = v1.0.0 ]; then
    sed -i -e 's/cub::Sum()/cuda::std::plus<>()/g' -e 's/cub::Max()/cuda::maximum<>()/g' -e 's/cub::Min()/cuda::minimum<>()/g' \
      "$src/libcubwt.cu"
    sed -i '0,/#include/s//#include <cuda\/std\/functional>\n#include <cuda\/functional>\n#include/' "$src/libcubwt.cu"
  fi
  echo "building libcubwt $version ($(cat "$src/COMMIT")) for $arch"
  nvcc -O3 -std=c++17 -arch="$arch" -I"$src" "$here/bench/cubwt_time.cu" "$src/libcubwt.cu" \
    -o "$out/strix_bench_cubwt-$version"
done
ls -la "$out"/strix_bench_cubwt-*
