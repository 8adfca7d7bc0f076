#!/usr/bin/env python3
"""Each run of a run directory, 5 s at a time: requests a second and their mean response time (from the JTL),
JMeter's CPU, the target's CPU (CPU 1, where the tiers and docker-proxy ran) and docker-proxy's (from the metrics
file, % of one core). Usage: per-5s.py RUN_DIR > requests-per-5s.txt"""
import csv, gzip, os, statistics, sys
from collections import defaultdict

run_dir = sys.argv[1]

def opened(path):
    return gzip.open(path + ".gz", "rt") if os.path.exists(path + ".gz") else open(path)

def number(v):
    return float(v) if v not in ("", "null") else None

for run in csv.DictReader(open(os.path.join(run_dir, "runs.csv"))):
    name = f"{run['environment']}-r{run['repetition']}"
    samples = list(csv.DictReader(opened(os.path.join(run_dir, "jtl", name + ".jtl"))))
    t0 = min(int(s["timeStamp"]) for s in samples)
    by5 = defaultdict(list)
    for s in samples:
        by5[(int(s["timeStamp"]) - t0) // 5000].append(int(s["elapsed"]))
    metrics = list(csv.DictReader(opened(os.path.join(run_dir, "metrics", name + ".csv"))))
    m5 = defaultdict(lambda: defaultdict(list))
    for i, row in enumerate(metrics):
        for col, key in (("process.jmeter.cpu.pct", "jmeter"), ("host.cpu1.pct", "cpu1"),
                         ("process.docker-proxy.cpu.pct", "proxy")):
            v = number(row.get(col, ""))
            if v is not None:
                m5[i // 5][key].append(v)
    print(f"{name} ({run['status']}, {run['samples']} samples)")
    print("  from s | requests/s | mean ms | JMeter CPU % | CPU 1 % | docker-proxy %")
    for k in sorted(by5):
        fig = lambda key: f"{statistics.mean(m5[k][key]):.0f}" if m5[k][key] else "-"
        print(f"  {k * 5:6d} | {len(by5[k]) / 5:10.0f} | {statistics.mean(by5[k]):7.1f} | {fig('jmeter'):>12} |"
              f" {fig('cpu1'):>7} | {fig('proxy'):>14}")
