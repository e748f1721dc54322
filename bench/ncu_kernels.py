#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Sums an Nsight Compute CSV (`ncu --csv --print-kernel-base demangled --metrics ...`, one row
a kernel launch and metric) by kernel: launches, time, DRAM bytes, and the time-weighted DRAM
and SM throughput (% of peak) and L2 hit rate. A Kokkos kernel is named by its functor (the
enclosing function of a lambda), a vendor kernel by its own name, templates and parameters
dropped, so that one construction's phases can be read off the table.

  ncu_kernels.py CSV [--runs R] [--top N]   (R: the runs the profile covered; sums divided by R)
"""
import argparse
import collections
import csv
import re
import sys


def functor_of(name):
    """The functor of a Kokkos launch (first template argument of ParallelFor/Reduce/Scan)."""
    m = re.search(r"Parallel(For|Reduce|Scan)(WithTotal)?<", name)
    if not m:
        return name
    depth, start = 0, m.end()
    for i in range(start, len(name)):
        c = name[i]
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == "," and depth == 0:
            return name[start:i]
    return name[start:]


def short(name):
    name = functor_of(name.removeprefix("void "))
    lam = re.findall(r"\{lambda\([^)]*\)#(\d+)\}", name)
    name = re.sub(r"\{lambda\([^)]*\)#\d+\}", "", name)
    prev = None
    while prev != name:  # innermost brackets first: templates and parameter lists
        prev = name
        name = re.sub(r"<[^<>]*>", "", name)
        name = re.sub(r"\([^()]*\)", "", name)
        name = re.sub(r"\[[^\[\]]*\]", "", name)  # "[with T = ...]", "[clone ...]"
    name = re.sub(r"::+$", "", name.strip()).split(" ")[-1]  # a lambda's enclosing function: no return type
    name = re.sub(r"^(cub|thrust)::CUB_\d+_SM_\d+::", r"\1::", name)
    return name + (f"::lambda#{lam[-1]}" if lam else "")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv")
    ap.add_argument("--runs", type=float, default=1)
    ap.add_argument("--top", type=int, default=30)
    a = ap.parse_args()
    launches = collections.defaultdict(dict)  # launch id -> metric -> value
    names = {}
    with open(a.csv, newline="") as f:
        lines = [l for l in f if l.startswith('"')]  # ncu's own messages are not quoted
    for row in csv.DictReader(lines):
        try:
            value = float(row["Metric Value"].replace(",", ""))
        except ValueError:
            continue
        launches[row["ID"]][row["Metric Name"]] = value
        names[row["ID"]] = short(row["Kernel Name"])
    agg = collections.defaultdict(lambda: collections.Counter())
    for lid, m in launches.items():
        t = m.get("gpu__time_duration.sum", 0.0)
        g = agg[names[lid]]
        g["launches"] += 1
        g["ns"] += t
        g["dram"] += m.get("dram__bytes.sum", 0.0)
        g["dram_pct_ns"] += m.get("dram__throughput.avg.pct_of_peak_sustained_elapsed", 0.0) * t
        g["sm_pct_ns"] += m.get("sm__throughput.avg.pct_of_peak_sustained_elapsed", 0.0) * t
        g["l2_hit_ns"] += m.get("lts__t_sector_hit_rate.pct", 0.0) * t
    total_ns = sum(g["ns"] for g in agg.values()) or 1.0
    total_dram = sum(g["dram"] for g in agg.values())
    print(f"{len(launches)} launches, {total_ns / 1e6 / a.runs:.3f} ms of kernels and "
          f"{total_dram / 1e9 / a.runs:.3f} GB of DRAM traffic a run ({a.runs:g} runs profiled)")
    print("| kernel | launches | ms | % of time | DRAM GB | DRAM % peak | SM % peak | L2 hit % |")
    print("|---|---|---|---|---|---|---|---|")
    for name, g in sorted(agg.items(), key=lambda kv: -kv[1]["ns"])[: a.top]:
        ns = g["ns"] or 1.0
        print(f"| {name[:90]} | {g['launches'] / a.runs:g} | {g['ns'] / 1e6 / a.runs:.3f} | "
              f"{100 * g['ns'] / total_ns:.1f} | {g['dram'] / 1e9 / a.runs:.3f} | {g['dram_pct_ns'] / ns:.0f} | "
              f"{g['sm_pct_ns'] / ns:.0f} | {g['l2_hit_ns'] / ns:.0f} |")


if __name__ == "__main__":
    sys.exit(main())
