# SPDX-License-Identifier: BSD-3-Clause
"""strix from Python beside the same work in C++ (issue 20).

For each input: strix.suffix_array(text) in Python against the library call the tool makes
(`strix sa INPUT --stats`: its copy_to_device + suffix_array stages, the same libstrix call on
the same backend), alternating, median of --runs after a warm-up; then libdivsufsort through
ctypes on the same NumPy arrays (pydivsufsort's interface is not in Debian); then the overhead
of one small call (the GIL released and taken again, the lock, the dispatch). Prints RESULT lines.

    PYTHONPATH=build/openmp/python python3 bench/python_bench.py --strix build/openmp/strix INPUT...
"""
import argparse
import ctypes
import ctypes.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np

import strix


def median_seconds(runs, f):
    f()
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def tool_seconds(tool, path, backend):
    # The library's share of `strix sa`: copying the text in, and the suffix array.
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([tool, "sa", path, "-o", os.path.join(d, "sa"), "--stats", "--quiet", "--backend", backend],
                             check=True, capture_output=True, text=True).stdout
    stages = json.loads(out)["stages_seconds"]
    return stages.get("copy_to_device", 0.0) + stages["suffix_array"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("inputs", nargs="+")
    ap.add_argument("--strix", required=True, help="the strix tool of the same build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--backend", default=strix.backends()[0])
    a = ap.parse_args()
    print(f"# {time.strftime('%Y-%m-%d', time.gmtime())} {os.uname().nodename} {os.cpu_count()} cores, "
          f"backend {a.backend}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', 'unset')}")
    lib = ctypes.CDLL(ctypes.util.find_library("divsufsort") or "libdivsufsort.so.3")
    lib.divsufsort.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int32]
    for path in a.inputs:
        name = os.path.basename(path).replace(".", "_")
        text = np.fromfile(path, dtype=np.uint8)
        py_times, tool_times = [], []
        strix.suffix_array(text, backend=a.backend)  # warm-up
        tool_seconds(a.strix, path, a.backend)
        for _ in range(a.runs):  # alternating
            t0 = time.perf_counter()
            strix.suffix_array(text, backend=a.backend)
            py_times.append(time.perf_counter() - t0)
            tool_times.append(tool_seconds(a.strix, path, a.backend))
        py, tool = statistics.median(py_times), statistics.median(tool_times)
        print(f"RESULT python_{name}_suffix_array {py:.4g} s")
        print(f"RESULT cxx_{name}_suffix_array {tool:.4g} s")
        print(f"RESULT python_{name}_overhead {100 * (py - tool) / tool:.3g} %")
        if len(text) < 2**31:
            sa = np.empty(len(text), dtype=np.int32)
            t = median_seconds(a.runs, lambda: lib.divsufsort(text.ctypes.data, sa.ctypes.data, len(text)))
            print(f"RESULT libdivsufsort_ctypes_{name}_suffix_array {t:.4g} s")
    small = b"mississippi"
    calls = 2000
    t = median_seconds(3, lambda: [strix.suffix_array(small, backend=a.backend) for _ in range(calls)])
    print(f"RESULT python_small_call {1e6 * t / calls:.3g} us")
    return 0


if __name__ == "__main__":
    sys.exit(main())
