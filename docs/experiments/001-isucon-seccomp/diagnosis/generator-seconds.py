#!/usr/bin/env python3
"""JMeter's CPU second by second in study 001's three login-site series, from their kept metrics files.

For each row: the share of the seconds after the first 10 (each run's warm-up) in which JMeter used 90% or more of its
one core (the per-second rule of GeneratorLoad), JMeter's and CPU 1's averages over those seconds, and how loopback's
packets a second (every request on its own connection: a measure of the request rate) in the last third of those
seconds compare with the first third. Run from the repository's root:
    python3 docs/experiments/001-isucon-seccomp/diagnosis/generator-seconds.py > docs/experiments/001-isucon-seccomp/diagnosis/generator-seconds.txt
"""
import csv
import glob
import gzip
import re
import statistics

WARMUP_ROWS = 10  # one row a second; each series left out its first 10 s
SATURATED_PCT = 90

for series in ["001-isucon", "001-isucon-containers", "001-isucon-seccomp"]:
    print(f"docs/experiments/{series}/metrics/")
    rows = {}
    for f in sorted(glob.glob(f"docs/experiments/{series}/metrics/*-r*.csv.gz")):
        env = re.sub(r"-r\d+\.csv\.gz$", "", f.split("/")[-1])
        with gzip.open(f, "rt") as z:
            r = [row for row in csv.DictReader(z)][WARMUP_ROWS:]
        jmeter = [float(x["process.jmeter.cpu.pct"] or 0) for x in r]
        cpu1 = [float(x["host.cpu1.pct"] or 0) for x in r]
        packets = [float(x["host.net.lo.rx.packetsPerSec"] or 0) for x in r]
        third = len(packets) // 3
        rows.setdefault(env, []).append(
            (
                sum(1 for v in jmeter if v >= SATURATED_PCT) / len(jmeter),
                statistics.mean(jmeter),
                statistics.mean(cpu1),
                statistics.mean(packets[-third:]) / statistics.mean(packets[:third]) - 1,
            )
        )
    print(f"  {'row':22s} {'JMeter >= 90% (share of seconds, each run)':48s} {'pooled':>6s} {'JMeter %':>8s} {'CPU 1 %':>7s}  packets/s, last third vs first")
    for env, runs in rows.items():
        shares = " ".join(f"{s[0]:.2f}" for s in runs)
        print(
            f"  {env:22s} {shares:48s} {statistics.mean(s[0] for s in runs):6.2f} "
            f"{statistics.mean(s[1] for s in runs):8.1f} {statistics.mean(s[2] for s in runs):7.1f}  "
            f"{statistics.median(s[3] for s in runs) * 100:+.1f}% (median of runs)"
        )
    print()
