#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Suffix-array algorithms side by side (issue 11): `strix sa --algorithm A` for each
algorithm on one backend, beside libdivsufsort and (given) libsais, on the same inputs.

Runs alternate (one warm-up round, then RUNS rounds, each running every contender once), and
every figure is a median over the rounds (--baseline-once: the baselines run once). Each strix run prints --stats; each process's peak
resident memory comes from wait4. Every suffix array is compared with libdivsufsort's.

  sa_algorithms_bench.py --strix BIN --divsufsort BIN [--libsais BIN] --backend cuda|openmp
      [--threads T] [--runs R] [--algorithms a,b,...] [--timeout S] --out DIR INPUT...

Writes DIR/rows.jsonl (one row per contender and input) and prints a Markdown table.
"""
import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time


def run_measured(cmd, env, timeout):
    """Runs cmd; returns (exit status, wall seconds, peak RSS bytes from wait4, stdout, stderr)."""
    start = time.monotonic()
    with open(os.devnull, "rb") as devnull, open("/tmp/strix-bench.stdout", "wb") as so, \
            open("/tmp/strix-bench.stderr", "wb") as se:
        p = subprocess.Popen(cmd, stdin=devnull, stdout=so, stderr=se, env=env)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                p.kill()
                os.wait4(p.pid, 0)
                return 124, timeout, 0, b"", b"timeout"
            time.sleep(0.002)
    wall = time.monotonic() - start
    code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
    with open("/tmp/strix-bench.stdout", "rb") as f:
        out = f.read()
    with open("/tmp/strix-bench.stderr", "rb") as f:
        err = f.read()
    return code, wall, usage.ru_maxrss * 1024, out, err


def digest(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 24), b""):
            h.update(block)
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--strix", required=True)
    ap.add_argument("--divsufsort", required=True)
    ap.add_argument("--libsais")
    ap.add_argument("--backend", required=True)
    ap.add_argument("--threads", type=int, default=0)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--algorithms", default="auto,prefix-doubling,larsson-sadakane,skew,hybrid,dc7,dc13,dc21")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--baseline-once", action="store_true",
                    help="run libdivsufsort and libsais once per input (first timed round, no warm-up)")
    ap.add_argument("--out", required=True)
    ap.add_argument("inputs", nargs="+")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    env = dict(os.environ)
    if a.threads:
        env["OMP_NUM_THREADS"] = str(a.threads)
    algorithms = [x for x in a.algorithms.split(",") if x]
    rows_path = os.path.join(a.out, "rows.jsonl")
    rows = []
    for path in a.inputs:
        name = os.path.basename(path)
        n = os.path.getsize(path)
        width = "32" if n < (1 << 32) else "64"
        contenders = {}
        for alg in algorithms:
            cmd = [a.strix, "sa", path, "-o", f"/tmp/strix-bench.{alg}.sa", "--backend", a.backend, "--width", width,
                   "--algorithm", alg, "--stats", "--quiet"]
            if a.threads:
                cmd[1:1] = ["--threads", str(a.threads)]
            contenders[alg] = cmd
        contenders["libdivsufsort"] = [a.divsufsort, path, "/tmp/strix-bench.libdivsufsort.sa", "1"]
        if a.libsais:
            contenders["libsais"] = [a.libsais, path, "/tmp/strix-bench.libsais.sa", "1", str(a.threads)]
        results = {k: [] for k in contenders}
        failed = set()
        for r in range(a.runs + 1):  # round 0 is the warm-up
            for key, cmd in contenders.items():
                if key in failed:
                    continue
                if a.baseline_once and key not in algorithms and r != 1:
                    continue
                code, wall, rss, out, err = run_measured(cmd, env, a.timeout)
                if code != 0:
                    failed.add(key)
                    msg = err.decode(errors="replace").strip().splitlines()
                    print(f"{name} {key}: exit {code}: {msg[-1] if msg else ''}", file=sys.stderr)
                    continue
                if r == 0:
                    continue
                rec = {"wall": wall, "rss": rss}
                text = out.decode(errors="replace")
                if key in algorithms:
                    s = json.loads(text)
                    rec.update(construct=s["stages_seconds"].get("suffix_array", 0.0), total=s["total_seconds"],
                               peak=s["peak_bytes"], picked=s.get("algorithm", key),
                               rounds=s["counters"].get("rounds", 0), depth=s["counters"].get("recursion_depth", 0),
                               phases=s["phases_seconds"], device=s["device"])
                else:
                    rec.update(construct=float(text.strip().split("=")[1]), total=wall, peak=0, picked=key)
                results[key].append(rec)
        reference = digest("/tmp/strix-bench.libdivsufsort.sa") if "libdivsufsort" not in failed else None
        for key, recs in results.items():
            if not recs:
                rows.append({"input": name, "n": n, "contender": key, "failed": True})
                continue
            med = lambda f: statistics.median(x[f] for x in recs)
            row = {"input": name, "n": n, "contender": key, "construct": med("construct"), "total": med("total"),
                   "wall": med("wall"), "rss": max(x["rss"] for x in recs), "peak": recs[-1]["peak"],
                   "picked": recs[-1]["picked"], "rounds": recs[-1].get("rounds", 0),
                   "depth": recs[-1].get("depth", 0), "phases": recs[-1].get("phases", {}),
                   "device": recs[-1].get("device", ""), "backend": a.backend, "threads": a.threads,
                   "same_as_divsufsort": reference is not None and digest(f"/tmp/strix-bench.{key}.sa") == reference}
            rows.append(row)
        for key in contenders:
            try:
                os.remove(f"/tmp/strix-bench.{key}.sa")
            except OSError:
                pass
        with open(rows_path, "w") as f:
            for row in rows:
                f.write(json.dumps(row) + "\n")
    print_table(rows, a)


def print_table(rows, a):
    print(f"\nbackend {a.backend}, threads {a.threads or 'all'}, median of {a.runs} alternating runs after a warm-up\n")
    print("| input | contender | construct s | wall s | MB/s (construct) | peak B/n (library) | RSS B/n | rounds / depth "
          "| vs libdivsufsort (wall) | vs prefix-doubling (construct) | SA == divsufsort |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    by = {(r["input"], r["contender"]): r for r in rows}
    for r in rows:
        if r.get("failed"):
            print(f"| {r['input']} | {r['contender']} | failed | | | | | | | | |")
            continue
        n = r["n"]
        dss = by.get((r["input"], "libdivsufsort"), {})
        pd = by.get((r["input"], "prefix-doubling"), {})
        vs_dss = f"{dss['wall'] / r['wall']:.2f}x" if dss.get("wall") else ""
        vs_pd = f"{pd['construct'] / r['construct']:.2f}x" if pd.get("construct") and r["construct"] else ""
        name = r["contender"] if r["picked"] == r["contender"] else f"{r['contender']} → {r['picked']}"
        print(f"| {r['input']} | {name} | {r['construct']:.4f} | {r['wall']:.3f} | {n / max(r['construct'], 1e-9) / 1e6:.0f} | "
              f"{r['peak'] / n:.1f} | {r['rss'] / n:.1f} | {r['rounds']} / {r['depth']} | {vs_dss} | {vs_pd} | "
              f"{'yes' if r['same_as_divsufsort'] else 'NO'} |")


if __name__ == "__main__":
    main()
