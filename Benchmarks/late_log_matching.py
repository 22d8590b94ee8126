#!/usr/bin/env python3
"""The first start after an upgrade from a remindd whose late logs lack `forScheduledAt` (before 2026-11-26):
remindd matches them once, before READY=1 (a store marked by migration v25). Measured: start to READY=1 with
that matching (COUNT reminders taken daily for three years, one dose in three after its window), against the
next start of the same store (matched: nothing to do) in the same run; and whether every late log was matched.

Usage: late_log_matching.py BIN_DIR [COUNT]
"""
import os
import random
import sqlite3
import sys
import tempfile
import time

from daemon_process import start, stop

BIN = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 50
DAYS = 3 * 365


def fill(root):
    """COUNT daily 08:00 reminders (window 1 h) created three years ago, each with a dose a day: two in three
    on time, one in three two hours late, none with `forScheduledAt` (as an older remindd stored them)."""
    db = sqlite3.connect(f"{root}/state/remindd/remindd.sqlite")
    now = int(time.time())
    first_day = (now // 86400 - DAYS) * 86400
    rng = random.Random(1)
    db.executemany(
        "INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough, windowSeconds) VALUES (?, ?, 'UTC', 1, ?, ?, 3600)",
        [(f"late-{i}", '{"daily":true,"at":"08:00"}', first_day, now) for i in range(COUNT)])
    ids = [row[0] for row in db.execute("SELECT id FROM reminder WHERE name LIKE 'late-%'")]
    logs, late = [], 0
    for reminder in ids:
        for day in range(DAYS):
            due = first_day + day * 86400 + 8 * 3600
            is_late = rng.random() < 1 / 3
            late += is_late
            logs.append((reminder, due + (7200 if is_late else rng.randint(0, 1800)), "UTC"))
    db.executemany("INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, ?)", logs)
    db.execute("UPDATE storeInstance SET lateLogsToMatch = 1")
    db.commit()
    db.close()
    return len(logs), late


def matched(root):
    db = sqlite3.connect(f"file:{root}/state/remindd/remindd.sqlite?mode=ro", uri=True)
    count = db.execute("SELECT count(*) FROM intake WHERE forScheduledAt IS NOT NULL").fetchone()[0]
    db.close()
    return count


def main():
    root = tempfile.mkdtemp(prefix="remindd-late-logs-bench-")
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    os.makedirs(f"{root}/run", mode=0o700)
    process, _ = start(BIN, root, env)  # creates the schema
    stop(process)
    logs, late = fill(root)
    process, first = start(BIN, root, env)
    stop(process)
    process, again = start(BIN, root, env)
    stop(process)
    print(f"reminders, logs (late, unmatched):     {COUNT}, {logs} ({late})")
    print(f"start to READY=1, matching them:       {first * 1000:.0f} ms (next start, nothing to match: {again * 1000:.0f} ms)")
    print(f"late logs matched to their occurrence: {matched(root)} of {late}")


if __name__ == "__main__":
    main()
