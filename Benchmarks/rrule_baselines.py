"""RFC 5545 next instance: remindd's core against python-dateutil's rrule and libical's C iterator, in one run.

Runs NextFireBenchmark (its `RRULE rule ns-1997 ns-recent` lines: remindd's next instance after an instant,
walking forward), then, on the same rules started the day before, times dateutil's `rrule.after()` walking
forward and libical's `icalrecur_iterator_next` (Benchmarks/rrule_libical.c, built by `make bench`), and
prints ns per instance and the ratios. The issue asks at least 100x dateutil, and at least libical's speed
(a ratio of 1 or more).
Usage: python3 Benchmarks/rrule_baselines.py .build/release [--quick]
"""
import datetime as dt
import subprocess
import sys
import time

from dateutil import rrule as du

build = sys.argv[1]
quick = "--quick" in sys.argv
output = subprocess.run([f"{build}/NextFireBenchmark"] + (["--quick"] if quick else []), capture_output=True, text=True, check=True).stdout
remindd = {}
for line in output.splitlines():
    if line.startswith("RRULE "):
        _, rule, _old, recent, *_ = line.split(" ")
        remindd[rule] = float(recent)
iterations = 200 if quick else 2000
libical = {}
for line in subprocess.run([f"{build}/rrule_libical", str(iterations * 10), *remindd], capture_output=True, text=True, check=True).stdout.splitlines():
    _, rule, ns, *_ = line.split(" ")
    libical[rule] = float(ns)
start = dt.datetime(2026, 11, 23, 9, 0)
now = dt.datetime(2026, 11, 24, 0, 0)
print("rule                                               remindd ns   dateutil ns   ratio   libical ns   ratio")
smallest_dateutil = smallest_libical = float("inf")
for rule, ours in remindd.items():
    expansion = du.rrulestr(rule, dtstart=start, cache=False)
    best = float("inf")
    for _ in range(3):
        cursor = now
        began = time.perf_counter()
        for _ in range(iterations):
            cursor = expansion.after(cursor) or now  # back to now past the year 9999, as the Swift side does
        best = min(best, (time.perf_counter() - began) / iterations * 1e9)
    smallest_dateutil = min(smallest_dateutil, best / ours)
    smallest_libical = min(smallest_libical, libical[rule] / ours)
    print(f"{rule:50} {ours:11.1f} {best:13.1f} {best / ours:6.0f}x {libical[rule]:12.1f} {libical[rule] / ours:6.2f}x")
print(f"smallest speed-up over python-dateutil: {smallest_dateutil:.0f}x (the issue asks at least 100x)")
print(f"smallest speed-up over libical: {smallest_libical:.2f}x (the issue asks at least 1x)")
