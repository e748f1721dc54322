#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# strix sa|bwt|check --distributed under mpirun on 1 to 4 ranks (oversubscribed, host
# backend, one thread each): the same suffix arrays (32- and 64-bit) and BWTs as one
# process, on hard inputs, with ranks holding empty slices (n < P); check finds a broken
# array; a failure on one rank (no output folder, one rank out of memory) ends every rank
# with one "strix: error:" line, the documented status, and no output or temporary left.
# Skipped (77) when this strix has no MPI or mpirun is missing.
# Usage: cli_distributed_test.sh PATH/TO/strix
set -u
source "$(dirname "${BASH_SOURCE[0]}")/cli_common.sh" "$1"
"$STRIX" --version | grep -q 'MPI' || { echo "skipped: this strix is built without MPI"; exit 77; }
command -v mpirun >/dev/null || { echo "skipped: no mpirun"; exit 77; }
# Root in containers and CI; more ranks than cores; one host thread per rank.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1 PMIX_MCA_pcompress_base_silence_warning=1
# OpenMPI's ob1 messaging instead of UCX (strix stages messages through host memory): UCX's
# start-up doubled each run's.
export OMPI_MCA_pml="${OMPI_MCA_pml:-ob1}"
# A quicker start (0.27-0.30 -> 0.20-0.22 s a run of two ranks on the 2-core machine; the script
# starts about 85): PMIx keeps the job's data in its hash store, not a shared-memory segment it
# zero-fills, and hwloc skips the PCI devices (strix's ranks exchange through host memory).
export PMIX_MCA_gds=hash HWLOC_COMPONENTS=-linuxio,-pci
# Waiting ranks yield the core (OpenMPI polls otherwise), which matters beside other tests (ctest -j).
export OMPI_MCA_mpi_yield_when_idle=1
# Under AddressSanitizer without leak detection: OpenMPI keeps what MPI_Init allocated until
# the process ends (memory errors are still checked).
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
# STRIX_TEST_TRACE=FILE: each run appended to FILE as it starts (a run cut off says where it was).
run() {
  local np="$1"; shift
  [ -n "${STRIX_TEST_TRACE:-}" ] && echo "$(date +%T) mpirun -np $np strix $*" >> "$STRIX_TEST_TRACE"
  mpirun -q -np "$np" "$STRIX" "$@"
}

printf '' > empty.txt
printf 'z' > one.txt
printf 'abc' > three.txt
printf 'mississippi' > miss.txt
head -c 5000 /dev/zero > zeros.bin
head -c 4097 /dev/zero | tr '\0' '\377' > ff.bin
python3 -c "
import sys, random
a, b = b'a', b'b'
while len(b) < 30011: a, b = b, b + a
open('fib.txt', 'wb').write(b[:30011])
open('abab.txt', 'wb').write(b'ab' * 20000 + b'a')
random.seed(5)
open('dna.txt', 'wb').write(bytes(random.choice(b'ACGT') for _ in range(200003)))
open('runs.bin', 'wb').write(b''.join(bytes([random.choice((0, 255, 65))]) * random.randint(1, 3000) for _ in range(80)))"
head -c 65536 /dev/urandom > random.bin
inputs="empty.txt one.txt three.txt miss.txt zeros.bin ff.bin fib.txt abab.txt dna.txt runs.bin random.bin"

for f in $inputs; do "$STRIX" sa "$f" -o "$f.sa" && "$STRIX" sa "$f" -o "$f.sa64" --width 64 && "$STRIX" bwt "$f" -o "$f.bwt" >"$f.primary" || bad "one-process reference of $f"; done

# Suffix arrays on 1-4 ranks (three.txt and one.txt: ranks with empty slices).
for np in 1 2 3 4; do
  for f in $inputs; do
    if run "$np" sa "$f" -o d.sa --distributed && cmp -s d.sa "$f.sa"; then ok; else bad "sa --distributed -np $np $f"; fi
  done
done
for np in 2 3; do
  for f in one.txt miss.txt fib.txt dna.txt; do
    if run "$np" sa "$f" -o d.sa64 --distributed --width 64 && cmp -s d.sa64 "$f.sa64"; then ok; else bad "sa --distributed --width 64 -np $np $f"; fi
  done
done
# BWTs, with the primary index on standard output and in --primary-out.
for np in 2 4; do
  for f in one.txt miss.txt zeros.bin abab.txt random.bin runs.bin; do
    if run "$np" bwt "$f" -o d.bwt --distributed --primary-out d.primary >d.stdout && cmp -s d.bwt "$f.bwt" &&
       cmp -s d.stdout "$f.primary" && [ "primary index: $(cat d.primary)" = "$(cat d.stdout)" ]; then ok
    else bad "bwt --distributed -np $np $f"; fi
  done
done
# The check: right arrays pass; a swapped pair and a repeated value fail with status 1.
for np in 1 3; do
  for f in miss.txt dna.txt; do
    if run "$np" check "$f" "$f.sa" --distributed | grep -q '^ok: correct 32-bit'; then ok; else bad "check --distributed -np $np $f"; fi
    if run "$np" check "$f" "$f.sa64" --distributed | grep -q '^ok: correct 64-bit'; then ok; else bad "check --distributed 64-bit -np $np $f"; fi
  done
  python3 -c "
import struct
a = list(struct.unpack('<%dI' % (200003), open('dna.txt.sa', 'rb').read()))
a[1000], a[1001] = a[1001], a[1000]
open('swapped.sa', 'wb').write(struct.pack('<%dI' % len(a), *a))
a[1000] = a[5]
open('repeated.sa', 'wb').write(struct.pack('<%dI' % len(a), *a))"
  for broken in swapped.sa repeated.sa; do
    run "$np" check dna.txt "$broken" --distributed >out.txt 2>err.txt; rc=$?
    if [ $rc -eq 1 ] && grep -q '^strix: suffix array is wrong: ' err.txt && [ "$(wc -l <err.txt)" -eq 1 ] && [ ! -s out.txt ]; then ok
    else bad "check --distributed -np $np finds $broken (status $rc: $(cat err.txt))"; fi
  done
done
# --stats: one JSON object, from rank 0, with the transport and every rank's messages, bytes,
# device peak and phases (rank 0's the same as its own phases_seconds).
if run 3 sa dna.txt -o d.sa --distributed --stats > stats.json &&
   python3 -c "
import json; j = json.load(open('stats.json'))
assert j['ranks'] == 3 and j['n'] == 200003
assert j['transport'] in ('host memory', 'nccl', 'cuda-aware mpi', 'host staged')
assert len(j['ranks_messages']) == 3 and min(j['ranks_messages']) > 0 and min(j['ranks_bytes_sent']) > 0
assert len(j['ranks_device_peak_bytes']) == 3 and len(j['ranks_mpi_transfer_seconds']) == 3
phases = j['ranks_phases_seconds']
assert len(phases) == 3 and all(p and min(p.values()) >= 0 for p in phases)
assert phases[0] == j['phases_seconds']"; then ok
else bad "sa --distributed --stats: $(cat stats.json)"; fi
# Every transport that can be asked for gives the same arrays (host ranks read host memory
# whatever is asked; a GPU build stages or takes NCCL; NCCL refuses two ranks on one GPU).
for t in auto staged nccl mpi; do
  for f in fib.txt runs.bin; do
    if STRIX_DISTRIBUTED_TRANSPORT=$t run 2 sa "$f" -o d.sa --distributed 2>err.txt && cmp -s d.sa "$f.sa"; then ok
    elif grep -qE "without NCCL|share a GPU|does not report CUDA support" err.txt; then ok
    else bad "sa --distributed -np 2 $f with STRIX_DISTRIBUTED_TRANSPORT=$t: $(cat err.txt)"; fi
  done
done
# Every construction (the difference cover: the default on GPUs; replicated and shared ranks:
# where it does not fit; partitioned: the default on host ranks), on ranks of uneven group sizes.
for a in shared replicated partitioned cover; do
  for np in 2 3; do
    for f in miss.txt zeros.bin fib.txt dna.txt runs.bin; do
      if STRIX_DISTRIBUTED_ALGORITHM=$a run "$np" sa "$f" -o d.sa --distributed && cmp -s d.sa "$f.sa"; then ok
      else bad "sa --distributed -np $np $f with STRIX_DISTRIBUTED_ALGORITHM=$a"; fi
    done
  done
  if STRIX_DISTRIBUTED_ALGORITHM=$a run 2 sa dna.txt -o d.sa64 --distributed --width 64 && cmp -s d.sa64 dna.txt.sa64; then ok
  else bad "sa --distributed --width 64 with STRIX_DISTRIBUTED_ALGORITHM=$a"; fi
done
EXPECT_STATUS=2 expect_error "an unknown construction" d2.sa env STRIX_DISTRIBUTED_ALGORITHM=quick mpirun -q -np 2 "$STRIX" sa dna.txt -o d2.sa --distributed
EXPECT_STATUS=2 expect_error "an unknown transport" d2.sa env STRIX_DISTRIBUTED_TRANSPORT=pigeon mpirun -q -np 2 "$STRIX" sa dna.txt -o d2.sa --distributed

# Failures: one line from the lowest failing rank, every rank's status, nothing written.
EXPECT_STATUS=3 expect_error "no output folder" nowhere/out.sa run 3 sa dna.txt -o nowhere/out.sa --distributed
EXPECT_STATUS=3 expect_error "missing input" out.sa run 3 sa missing.txt -o out.sa --distributed
EXPECT_STATUS=3 expect_error "input is a folder" out.sa run 2 sa . -o out.sa --distributed
EXPECT_STATUS=2 expect_error "output is the input" "" run 2 sa dna.txt -o dna.txt --distributed
cmp -s dna.txt <(python3 -c "
import random, sys
random.seed(5)
sys.stdout.buffer.write(bytes(random.choice(b'ACGT') for _ in range(200003)))") && ok || bad "the input was changed"
# One rank out of memory: rank 1 may use 1 GB of address space and must stage a 1 GiB slice
# of a sparse 3 GiB text; ranks 0 and 2 read theirs. The output that was there stays.
# (Not under AddressSanitizer, nor on a CUDA build: its shadow memory and a CUDA context need
# the address space ulimit takes away.)
if ! under_address_sanitizer && ! "$STRIX" --version | grep -qi 'cuda'; then
  truncate -s 3G sparse.bin
  printf 'keep' > kept.sa
  mpirun -q -np 3 bash -c 'if [ "$OMPI_COMM_WORLD_RANK" = 1 ]; then ulimit -v 1000000; fi; exec "$0" "$@"' \
    "$STRIX" sa sparse.bin -o kept.sa --distributed --width 64 >stdout.txt 2>stderr.txt; rc=$?
  if [ $rc -eq 4 ] && [ "$(wc -l <stderr.txt)" -eq 1 ] && grep -q '^strix: error: .*(rank 1)$' stderr.txt &&
     [ "$(cat kept.sa)" = keep ] && ! ls -a | grep -q '^\.strix-'; then ok
  else bad "one rank out of memory: status $rc, stderr: $(cat stderr.txt)"; fi
  rm -f sparse.bin
fi

echo "cli_distributed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
