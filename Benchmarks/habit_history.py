#!/usr/bin/env python3
"""Habit answers after ten years of use, against the same daemon with an almost empty store (the baseline,
measured in the same run).

Two stores with the same 10 daily goals (3 slots each): one new, one with 10 years of history written by
history_store.py (a log and a fired record per slot, rest days, workouts, food). For each, whole remindctl
processes (median of 15): log, streak, calendar, achievements, today, list; start-up to READY=1 (sd_notify,
median of 3) and resident memory after it. Printed as ratios with the targets of issue 13.

Usage: habit_history.py BIN_DIR [YEARS]
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_process  # noqa: E402
import history_store  # noqa: E402
from daemon_process import rss_mb, stop  # noqa: E402

BIN = sys.argv[1]
YEARS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
GOALS = 10
COMMANDS = [
    ("log", ["log", "Goal 1"]),
    ("streak", ["streak"]),
    ("calendar", ["calendar"]),
    ("achievements", ["achievements"]),
    ("today", ["today"]),
    ("list", ["list"]),
]


def environment(root):
    os.makedirs(f"{root}/run", mode=0o700)
    return dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")


def start(root, env):
    return daemon_process.start(BIN, root, env)


def ctl(env, *args):
    subprocess.run([os.path.join(BIN, "remindctl"), *args], env=env, check=True, capture_output=True)


def measure(years):
    """The figures of one store: with `years` of history (0: none)."""
    root = tempfile.mkdtemp(prefix="remindd-habits-")
    env = environment(root)
    process, _ = start(root, env)  # creates the schema
    stop(process)
    if years:
        counts = history_store.fill(f"{root}/state/remindd/remindd.sqlite", goals=GOALS, years=years)
        size = os.path.getsize(f"{root}/state/remindd/remindd.sqlite") / 1e6
        print(f"  {years}-year store: " + ", ".join(f"{n} {table}" for table, n in counts.items()) + f"; {size:.0f} MB")
    else:
        process, _ = start(root, env)
        for goal in range(1, GOALS + 1):
            ctl(env, "add", f"Goal {goal}", "--daily", "--at", "08:00,14:00,20:00", "--tz", "UTC")
        stop(process)
    readies = []
    for _ in range(3):
        process, ready = start(root, env)
        readies.append(ready)
        if len(readies) < 3:
            stop(process)
    figures = {"start-up to READY=1": statistics.median(readies), "resident memory (MB)": rss_mb(process.pid)}
    for name, args in COMMANDS:
        samples = []
        for _ in range(15):
            began = time.monotonic()
            ctl(env, *args)
            samples.append(time.monotonic() - began)
        figures[name] = statistics.median(samples)
    stop(process)
    return figures


def main():
    print(f"Habit answers: {GOALS} goals x 3 logs a day, {YEARS} years of history against none (same run)")
    empty = measure(0)
    full = measure(YEARS)
    print(f"{'':22} {'empty':>10} {f'{YEARS} years':>10} {'ratio':>7}  target")
    for name, _ in COMMANDS:
        ratio = full[name] / empty[name]
        met = ratio <= 3 and full[name] < 0.015
        print(f"{'remindctl ' + name:22} {empty[name] * 1000:8.1f} ms {full[name] * 1000:7.1f} ms {ratio:6.1f}x  "
              f"<= 3x and < 15 ms: {'met' if met else 'NOT MET'}")
    name = "start-up to READY=1"
    print(f"{name:22} {empty[name] * 1000:8.1f} ms {full[name] * 1000:7.1f} ms {full[name] / empty[name]:6.1f}x  "
          f"< 100 ms: {'met' if full[name] < 0.1 else 'NOT MET'}")
    name = "resident memory (MB)"
    print(f"{'resident memory':22} {empty[name]:8.1f} MB {full[name]:7.1f} MB {full[name] / empty[name]:6.1f}x  "
          f"< 60 MB: {'met' if full[name] < 60 else 'NOT MET'}")


if __name__ == "__main__":
    main()
