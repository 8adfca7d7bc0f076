"""Each run's mean interrupt time per CPU (host.cpuN.irq.pct) and busy time over the measured minute (samples 125-180
of the 1 s metrics, after the 120 s warm-up): python3 irq-by-cpu.py, from this folder."""
import csv, glob, gzip, statistics

for f in sorted(glob.glob("metrics/*.csv.gz")):
    rows = [r for r in csv.DictReader(gzip.open(f, "rt")) if r.get("host.cpu0.irq.pct")][125:180]
    mean = lambda k: statistics.mean(float(r[k]) for r in rows)
    print(f"{f}: cpu0 busy {mean('host.cpu0.pct'):.1f}% irq {mean('host.cpu0.irq.pct'):.1f}%,"
          f" cpu1 busy {mean('host.cpu1.pct'):.1f}% irq {mean('host.cpu1.irq.pct'):.1f}%,"
          f" machine irq {mean('host.cpu.irq.pct'):.1f}%")
