#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Installs the Debian packages strix needs to build and test (idempotent; samtools reads the
# SAM/BAM that `strix search` writes, in its tests); extra package
# names given as arguments are installed too (scripts/fuzz.sh: clang and libFuzzer).
set -euo pipefail
pkgs=(build-essential cmake libdivsufsort-dev libopenmpi-dev openmpi-bin doctest-dev libcli11-dev nlohmann-json3-dev libhts-dev zlib1g-dev pkg-config dpkg-dev xz-utils
      python3-dev pybind11-dev python3-numpy python3-pytest samtools)
pkgs+=("$@")
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]})); then
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "strix: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
