#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Prepares the benchmark inputs from Debian packages (needs apt; run on a machine
# with the package registry) and packs them xz-compressed for the device:
#   english.txt  gcide.dict.dz uncompressed                (dict-gcide)       ~40 MB
#   chrX.dna     hs37chrXtrunc.fa: no headers/newlines, upper-cased, N runs kept
#                                                          (smalt-examples)   ~70 MB
#   linux.tar    first 256 MiB of the Linux 6.1 source tar (linux-source-6.1)
#   contigs.fa   a multi-FASTA reference of 11,239 contigs (smalt-examples)   ~119 MB
# Usage: bench/prepare-inputs.sh [OUT_DIR]   (default .carry/data, ignored by git)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$here/.carry/data}"
cache="${STRIX_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/strix}/bench-debs"
mkdir -p "$out" "$cache"
cd "$cache"
for pkg in dict-gcide smalt-examples linux-source-6.1; do
  ls "$pkg"_*.deb >/dev/null 2>&1 || apt-get download -qq "$pkg"
  [ -d "x-$pkg" ] || { mkdir -p "x-$pkg" && dpkg-deb -x "$pkg"_*.deb "x-$pkg"; }
done
pack() { xz -6 -T0 -c > "$out/$1.xz"; echo "$1: $(xz -l --robot "$out/$1.xz" | awk '/^totals/{print $5" bytes, packed "$4}')"; }
[ -f "$out/english.txt.xz" ] || zcat "x-dict-gcide/usr/share/dictd/gcide.dict.dz" | pack english.txt
if [ ! -f "$out/chrX.dna.xz" ]; then
  fa="$(find x-smalt-examples -name 'hs37chrXtrunc.fa*' | head -1)"
  { case "$fa" in *.gz) zcat "$fa" ;; *) cat "$fa" ;; esac; } | grep -v '^>' | tr -d '\n\r' | tr 'acgtn' 'ACGTN' | pack chrX.dna
fi
[ -f "$out/contigs.fa.xz" ] || zcat "$(find x-smalt-examples -name 'contigs.fa.gz' | head -1)" | pack contigs.fa
if [ ! -f "$out/linux.tar.xz" ]; then
  src="$(find x-linux-source-6.1 -name 'linux-source-6.1.tar.*' | head -1)"
  xz -dc "$src" | head -c $((256 << 20)) | pack linux.tar || true
fi
ls -la "$out"
