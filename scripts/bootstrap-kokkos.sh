#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Builds Kokkos + Kokkos Kernels 3.4.01 from Debian's trilinos source package,
# patched for CUDA 13 and Hopper, into a cache outside the repository.
#
#   scripts/bootstrap-kokkos.sh openmp   -> $STRIX_CACHE/kokkos-openmp  (OpenMP + Serial)
#   scripts/bootstrap-kokkos.sh cuda     -> $STRIX_CACHE/kokkos-cuda    (CUDA sm_90 + OpenMP)
#   scripts/bootstrap-kokkos.sh serial   -> $STRIX_CACHE/kokkos-serial  (Serial only)
#
# Prints the install prefix on its last line. Reuses an existing install.
set -euo pipefail
variant="${1:-openmp}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cache="${STRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strix}"
prefix="$cache/kokkos-$variant"
jobs="${STRIX_JOBS:-$(nproc)}"
# The stamp covers the patches that change this variant's build: those named *-cuda-only-*
# touch CUDA sources alone, so a new one rebuilds the CUDA Kokkos only.
variant_patches=()
for p in "$here"/cmake/kokkos-patches/*.patch; do
  [ "$variant" != cuda ] && [[ "$(basename "$p")" == *-cuda-only-* ]] && continue
  variant_patches+=("$p")
done
stamp="$prefix/.strix-bootstrap-$(cat "${variant_patches[@]}" | sha1sum | cut -c1-12)"

if [ -f "$stamp" ]; then echo "$prefix"; exit 0; fi
log() { echo "strix-bootstrap: $*" >&2; }

"$here/scripts/install-deps.sh"

# 1. Source: apt-get source with a private deb-src list derived from this
#    machine's own Debian sources (no system configuration is changed).
src="$cache/src/kokkos-3.4.01"
if [ ! -d "$src/kokkos" ] || [ ! -d "$src/kokkos-kernels" ]; then
  aptdir="$cache/apt"; mkdir -p "$aptdir/lists/partial" "$aptdir/dl"
  sys_sources=""
  for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
    [ -f "$f" ] && grep -q 'debian' "$f" && { sys_sources="$f"; break; }
  done
  [ -n "$sys_sources" ] || { echo "strix-bootstrap: no Debian apt sources found" >&2; exit 1; }
  if [[ "$sys_sources" == *.sources ]]; then
    sed -e 's/^Types:.*/Types: deb-src/' "$sys_sources" > "$aptdir/strix-src.sources"
    srclist="$aptdir/strix-src.sources"
  else
    grep -E '^deb .*debian' "$sys_sources" | sed -e 's/^deb /deb-src /' > "$aptdir/strix-src.list"
    srclist="$aptdir/strix-src.list"
  fi
  aptopts=(-o "Dir::Etc::SourceList=$srclist" -o "Dir::Etc::SourceParts=/nonexistent"
           -o "Dir::State::Lists=$aptdir/lists" -o "APT::Sandbox::User=root")
  log "fetching the trilinos source package (deb-src from $sys_sources)"
  apt-get "${aptopts[@]}" update -qq
  (cd "$aptdir/dl" && apt-get "${aptopts[@]}" source --download-only -qq trilinos)
  orig="$(ls "$aptdir"/dl/trilinos_*.orig.tar.* | head -1)"
  log "extracting kokkos and kokkos-kernels from $(basename "$orig")"
  rm -rf "$cache/src/extract" && mkdir -p "$cache/src/extract"
  tar -xf "$orig" -C "$cache/src/extract" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  top="$(ls "$cache/src/extract")"
  rm -rf "$src" && mkdir -p "$src"
  mv "$cache/src/extract/$top/packages/kokkos" "$cache/src/extract/$top/packages/kokkos-kernels" "$src/"
  rm -rf "$cache/src/extract"
fi
# Patches the source does not have yet (one added since it was extracted, too): a patch that
# reverses cleanly is in already.
for p in "$here"/cmake/kokkos-patches/*.patch; do
  patch -d "$src" -p1 -R --dry-run -s -f < "$p" >/dev/null 2>&1 && continue
  log "applying $(basename "$p")"
  patch -d "$src" -p1 --forward -s < "$p"
done

# 2. Configure, build and install one variant.
common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DCMAKE_CXX_STANDARD=17
        -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON)
case "$variant" in
  openmp) kopts=(-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON) ;;
  serial) kopts=(-DKokkos_ENABLE_SERIAL=ON) ;;
  cuda)
    command -v nvcc >/dev/null || export PATH="/usr/local/cuda/bin:$PATH"
    command -v nvcc >/dev/null || { echo "strix-bootstrap: nvcc not found" >&2; exit 1; }
    export NVCC_WRAPPER_DEFAULT_ARCH=sm_90
    kopts=(-DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON -DKokkos_ENABLE_CUDA=ON
           -DKokkos_ENABLE_CUDA_LAMBDA=ON -DKokkos_ARCH_HOPPER90=ON
           -DCMAKE_CXX_COMPILER="$src/kokkos/bin/nvcc_wrapper") ;;
  *) echo "strix-bootstrap: unknown variant '$variant' (openmp|serial|cuda)" >&2; exit 2 ;;
esac
build="$cache/build/kokkos-$variant"
rm -rf "$build" "$prefix"; mkdir -p "$build"
log "building Kokkos 3.4.01 ($variant) into $prefix"
cmake -S "$src/kokkos" -B "$build/kokkos" "${common[@]}" "${kopts[@]}" >"$build.kokkos.log" 2>&1 \
  || { tail -30 "$build.kokkos.log" >&2; exit 1; }
cmake --build "$build/kokkos" -j "$jobs" >>"$build.kokkos.log" 2>&1 || { tail -30 "$build.kokkos.log" >&2; exit 1; }
cmake --install "$build/kokkos" >>"$build.kokkos.log" 2>&1
log "building Kokkos Kernels 3.4.01 ($variant, no explicit instantiations)"
kk_cxx=()
[ "$variant" = cuda ] && kk_cxx=(-DCMAKE_CXX_COMPILER="$prefix/bin/nvcc_wrapper")
cmake -S "$src/kokkos-kernels" -B "$build/kernels" "${common[@]}" "${kk_cxx[@]}" -DKokkos_ROOT="$prefix" \
  -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
  -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
  -DKokkosKernels_INST_OFFSET_INT=OFF -DKokkosKernels_INST_OFFSET_SIZE_T=OFF \
  -DKokkosKernels_INST_LAYOUTLEFT=OFF -DKokkosKernels_INST_LAYOUTRIGHT=OFF \
  -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
  -DKokkosKernels_ENABLE_TPL_BLAS=OFF -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF \
  -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF >"$build.kernels.log" 2>&1 \
  || { tail -30 "$build.kernels.log" >&2; exit 1; }
cmake --build "$build/kernels" -j "$jobs" >>"$build.kernels.log" 2>&1 || { tail -30 "$build.kernels.log" >&2; exit 1; }
cmake --install "$build/kernels" >>"$build.kernels.log" 2>&1
rm -rf "$build"
touch "$stamp"
log "done: $prefix"
echo "$prefix"
