#!/usr/bin/env python3
"""Read-only calendars at scale (issue 29): a vdir of 20,000 events with alarms (a decade of a busy calendar,
half of them weekly with two moved instances each), read by the real daemon at start.

Measured against an empty calendar in the same run: how long the start-up scan takes (the daemon's own figure
in the journal, and from the process start to that entry), the first time the calendar is read (a new store)
and at a restart (the store has its alarms: only items changed meanwhile are read); resident memory once the
daemon settled after the scan (a second later); how long after one event file is changed its alarm is
re-planned (from the rename to the `Get` call answering the new time); and the system calls of the idle daemon
over 10 s (strace -c -f). Targets: under 1 s, under 60 MB, within 50 ms, idle.

With IMPORT=106504: `remindctl import` of one iCalendar file of that many one-off events with alarms (about
20 MB), against 100 events in the same run: a dose due every second for 12 s while it runs (the latest to reach a
Watch client) and Status every 0.2 s meanwhile (the slowest), and the import's own seconds. Before, it parsed, planned and wrote
on an event loop in one go: the dose fired 6.4-6.8 s late and Status took 8.8 s.

Usage: calendar_scale.py BIN_DIR [COUNT]
"""
import datetime as dt
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

import daemon_process
from daemon_process import rss_mb, stop, varlink

BIN = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000


def event(number, now):
    """An event of the decade around now: even numbers recur weekly with two moved instances."""
    start = now - dt.timedelta(days=1800) + dt.timedelta(hours=4 * number)
    start = start.replace(minute=0, second=0, microsecond=0)
    stamp = start.strftime("%Y%m%dT%H%M%S")
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN", "BEGIN:VEVENT", f"UID:event-{number}@bench", f"SUMMARY:Event {number}",
             f"DTSTART;TZID=Europe/Berlin:{stamp}", f"DTEND;TZID=Europe/Berlin:{(start + dt.timedelta(hours=1)).strftime('%Y%m%dT%H%M%S')}"]
    recurring = number % 2 == 0
    if recurring:
        lines.append("RRULE:FREQ=WEEKLY")
    lines += ["BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Event", "TRIGGER:-PT15M", "END:VALARM", "END:VEVENT"]
    if recurring:
        for week in (1, 2):
            moved = start + dt.timedelta(weeks=week)
            lines += ["BEGIN:VEVENT", f"UID:event-{number}@bench", f"SUMMARY:Event {number} (moved)",
                      f"RECURRENCE-ID;TZID=Europe/Berlin:{moved.strftime('%Y%m%dT%H%M%S')}",
                      f"DTSTART;TZID=Europe/Berlin:{(moved + dt.timedelta(hours=2)).strftime('%Y%m%dT%H%M%S')}",
                      "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Event", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT"]
    lines.append("END:VCALENDAR")
    return "\r\n".join(lines) + "\r\n"


def scan_entry(pid, timeout=120):
    """The daemon's "Calendars read" journal entry: its own milliseconds, and when it was written. Followed with one
    `journalctl -f` (woken by the journal's files changing) rather than a `journalctl` started every 50 ms: those
    took a tenth of a core while the daemon read, on the same two cores (perf, session 51)."""
    follower = subprocess.Popen(["journalctl", "--no-pager", "-f", "-o", "export", f"_PID={pid}", "SYSLOG_IDENTIFIER=remindd"],
                                stdout=subprocess.PIPE, text=True)
    found = []

    def follow():
        block = []
        for line in follower.stdout:
            if line.strip():
                block.append(line)
                continue
            text, block = "".join(block), []
            if "MESSAGE=Calendars read" in text:
                found.append((int(re.search(r"\((\d+) ms\)", text).group(1)),
                              int(re.search(r"__REALTIME_TIMESTAMP=(\d+)", text).group(1)) / 1e6))
                return

    reader = threading.Thread(target=follow, daemon=True)
    reader.start()
    reader.join(timeout)
    follower.terminate()
    follower.wait(timeout=10)
    if not found:
        raise SystemExit("the daemon never said it read the calendars")
    return found[0]


def measure(root, folder, label):
    """Starts the daemon on `folder` (with the state of an earlier start of the same label, if any); returns its
    environment, process, seconds to READY, the scan's milliseconds, seconds from exec to the scan's entry, and
    resident MB a second after."""
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state-{label}", XDG_RUNTIME_DIR=f"{root}/run-{label}", XDG_CONFIG_HOME=f"{root}/config-{label}",
               TZ="Europe/Berlin")
    if not os.path.exists(f"{root}/config-{label}"):
        os.makedirs(f"{root}/config-{label}/remindd")
        os.makedirs(f"{root}/run-{label}", mode=0o700)
        with open(f"{root}/config-{label}/remindd/config.toml", "w") as f:
            f.write(f'calendars = ["{folder}"]\nnotifications = "none"\n')
    began = time.time()
    process, ready = daemon_process.start(BIN, root, env)
    ms, written = scan_entry(process.pid)
    time.sleep(1)
    return env, process, ready, ms, written - began, rss_mb(process.pid)


def floor(folder, store):
    """What the kernel and SQLite take alone for a first read's own work, in milliseconds: reading every file of
    `folder` (Benchmarks/read_files.c, which `make bench` builds beside the binaries: open, read, close in C),
    and storing the alarms `store` holds (a copy of the daemon's store after its first read) into a new store of
    the same schema, with a trigger per row as the change feed has, in WAL mode without a flush, a transaction
    per 100 items, and reading them back by id (Python's `sqlite3`)."""
    reader = os.path.join(BIN, "read_files")
    if not os.path.exists(reader):
        raise SystemExit(f"{reader} is missing: make bench builds it (cc -O2 -o {reader} Benchmarks/read_files.c)")
    began = time.monotonic()
    subprocess.run([reader, folder], check=True, stdout=subprocess.DEVNULL)
    files_ms = (time.monotonic() - began) * 1000
    source = sqlite3.connect(store)
    schema = [sql for (sql,) in source.execute("SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%'")]
    columns = [row[1] for row in source.execute("PRAGMA table_info(reminder)") if row[1] != "id"]
    alarms = source.execute(f"SELECT {', '.join(columns)} FROM reminder WHERE origin IS NOT NULL ORDER BY id").fetchall()
    items = source.execute("SELECT path, etag FROM calendarItem ORDER BY path").fetchall()
    source.close()
    by_item = {}
    for row in alarms:
        by_item.setdefault(row[columns.index("origin")], []).append(row)
    with tempfile.TemporaryDirectory() as scratch:
        target = sqlite3.connect(f"{scratch}/floor.sqlite", isolation_level=None)
        target.execute("PRAGMA journal_mode = WAL")
        target.execute("PRAGMA synchronous = NORMAL")
        for sql in schema:
            target.execute(sql)
        target.execute("CREATE TEMP TABLE changedPart (reminderId INTEGER NOT NULL, part INTEGER NOT NULL, rowId INTEGER, at INTEGER)")
        target.execute("CREATE TEMP TRIGGER changed AFTER INSERT ON main.reminder BEGIN INSERT INTO changedPart VALUES (NEW.id, 0, NULL, NULL); END")
        insert = f"INSERT INTO reminder ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
        began = time.monotonic()
        for low in range(0, len(items), 100):
            target.execute("BEGIN")
            for path, etag in items[low:low + 100]:
                target.executemany(insert, by_item.get(path, []))
                target.execute("INSERT INTO calendarItem (path, etag) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET etag = excluded.etag", (path, etag))
            ids = [row[0] for row in target.execute("SELECT reminderId FROM changedPart")]
            target.execute("DELETE FROM changedPart")
            target.execute("COMMIT")
            target.execute("SELECT * FROM reminder WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(ids),)).fetchall()
        sqlite_ms = (time.monotonic() - began) * 1000
        target.close()
    return files_ms, sqlite_ms, len(alarms)


def one_off_events(count, now):
    """One iCalendar file of `count` one-off events in the coming year, each with an alarm."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//bench//EN"]
    for number in range(count):
        start = (now + dt.timedelta(days=1, minutes=5 * number)).strftime("%Y%m%dT%H%M00Z")
        lines += ["BEGIN:VEVENT", f"UID:import-{number}@bench", f"SUMMARY:Imported event {number}", f"DTSTART:{start}",
                  "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Event", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT"]
    return "\r\n".join(lines + ["END:VCALENDAR"]) + "\r\n"


def import_while_due(root, count, doses=12):
    """Imports a file of `count` events into a fresh daemon while a dose comes due every second (from 1.5 s after
    the import began): the latest a dose reached a Watch client, the slowest Status meanwhile (every 0.2 s), and
    the import's seconds."""
    label = f"import-{count}"
    path = f"{root}/{label}.ics"
    with open(path, "w") as f:
        f.write(one_off_events(count, dt.datetime.now(dt.timezone.utc)))
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state-{label}", XDG_RUNTIME_DIR=f"{root}/run-{label}", XDG_CONFIG_HOME=f"{root}/config-{label}")
    os.makedirs(f"{root}/config-{label}/remindd")
    os.makedirs(f"{root}/run-{label}", mode=0o700)
    with open(f"{root}/config-{label}/remindd/config.toml", "w") as f:
        f.write('notifications = "none"\n')
    process, _ = daemon_process.start(BIN, root, env)
    socket_path = f"{env['XDG_RUNTIME_DIR']}/remindd/control.sock"
    watch = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    watch.connect(socket_path)
    watch.sendall(json.dumps({"method": "io.remindd.Reminders.Watch", "more": True}).encode() + b"\0")
    first = int(time.time()) + 3
    due = {f"Dose {k}": first + k for k in range(doses)}
    for name, at in due.items():
        varlink(socket_path, "io.remindd.Reminders.Add", {"name": name, "rule": {"daily": True, "at": time.strftime("%H:%M:%S", time.gmtime(at))}, "timeZone": "UTC"})
    statuses, took, done = [], [], threading.Event()

    def importing():
        began = time.monotonic()
        try:
            _, reply = varlink(socket_path, "io.remindd.Backup.ImportCalendar", {"path": path})
            took.append(time.monotonic() - began)
            if "error" in reply:
                took.append(reply)
        finally:
            done.set()

    def polling():
        while not done.is_set():
            statuses.append(varlink(socket_path, "io.remindd.Reminders.Status", {})[0])
            time.sleep(0.2)

    time.sleep(max(0.0, first - 1.5 - time.time()))
    threads = [threading.Thread(target=importing), threading.Thread(target=polling)]
    for thread in threads:
        thread.start()
    arrived, data = {}, b""
    while len(arrived) < doses:
        data += watch.recv(1 << 16)
        *complete, data = data.split(b"\0")
        for message in map(json.loads, complete):
            name = message["parameters"]["entry"]["reminderName"]
            if name in due and name not in arrived:
                arrived[name] = time.time() - due[name]
    for thread in threads:
        thread.join()
    watch.close()
    stop(process)
    if len(took) != 1:
        raise SystemExit(f"the import of {count} events failed: {took[1:]}")
    return max(arrived.values()), max(statuses, default=0), took[0]


def main():
    if os.environ.get("IMPORT"):
        count = int(os.environ["IMPORT"])
        with tempfile.TemporaryDirectory() as root:
            journald = daemon_process.start_journald(root)
            base, full = import_while_due(root, 100), import_while_due(root, count)
            if journald:
                journald.terminate()
        print(f"remindctl import of one file of {count} events (baseline: 100):")
        print(f"  doses due every second meanwhile:   the latest {full[0] * 1000:.0f} ms late (baseline {base[0] * 1000:.0f} ms)")
        print(f"  slowest Status (every 0.2 s):       {full[1] * 1000:.0f} ms (baseline {base[1] * 1000:.0f} ms)")
        print(f"  the import:                         {full[2]:.1f} s (baseline {base[2]:.2f} s; a move of 10,000 rows or more waits"
              " for a lull in the firings: here for the last dose, 12.5 s after the import began)")
        return
    with tempfile.TemporaryDirectory() as root:
        journald = daemon_process.start_journald(root)
        empty, busy = f"{root}/empty", f"{root}/busy"
        os.makedirs(empty)
        os.makedirs(busy)
        now = dt.datetime.now()
        for number in range(COUNT):
            with open(f"{busy}/event-{number}.ics", "w") as f:
                f.write(event(number, now))

        _, baseline, _, baseline_ms, baseline_total, baseline_rss = measure(root, empty, "empty")
        stop(baseline)
        env, process, ready, scan_ms, total, rss = measure(root, busy, "busy")
        live, copy = sqlite3.connect(f"{root}/state-busy/remindd/remindd.sqlite"), sqlite3.connect(f"{root}/first-read.sqlite")
        live.backup(copy)
        live.close()
        copy.close()
        files_ms, sqlite_ms, alarm_count = floor(busy, f"{root}/first-read.sqlite")
        socket_path = f"{env['XDG_RUNTIME_DIR']}/remindd/control.sock"

        # One event moved by another client (a new file renamed over the old, as vdirsyncer writes): from the
        # rename until the daemon answers with its new alarm.
        number = COUNT // 2 - COUNT // 2 % 2  # weekly, started in the past: its next alarm moves
        name = f"Event {number}"
        moved = event(number, now).replace("TRIGGER:-PT15M", "TRIGGER:-PT25M")  # its alarm 10 minutes earlier
        latencies = []
        for attempt in range(5):
            text = moved if attempt % 2 == 0 else event(number, now)
            _, before = varlink(socket_path, "io.remindd.Reminders.Get", {"reminder": name})
            old = before["parameters"]["reminder"]["next"]["utc"]
            with open(f"{busy}/.tmp", "w") as f:
                f.write(text)
            changed_at = time.monotonic()
            os.rename(f"{busy}/.tmp", f"{busy}/event-{number}.ics")
            while True:
                _, reply = varlink(socket_path, "io.remindd.Reminders.Get", {"reminder": name})
                if reply["parameters"]["reminder"]["next"]["utc"] != old:
                    latencies.append((time.monotonic() - changed_at) * 1000)
                    break
                if time.monotonic() - changed_at > 10:
                    raise SystemExit("the changed event was not re-planned within 10 s")
        time.sleep(1)

        tracer = subprocess.Popen(["strace", "-c", "-f", "-o", f"{root}/strace.txt", "-p", str(process.pid)],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(10)
        tracer.terminate()
        tracer.wait(timeout=10)
        summary = open(f"{root}/strace.txt").read()
        total_line = [line for line in summary.splitlines() if line.strip().endswith("total")]
        idle_calls = int(total_line[0].split()[3]) if total_line else 0
        stop(process)
        with open(f"{busy}/event-{number + 2}.ics", "w") as f:  # changed while the daemon was down
            f.write(event(number + 2, now).replace("TRIGGER:-PT15M", "TRIGGER:-PT20M"))
        _, process, restart_ready, restart_ms, restart_total, restart_rss = measure(root, busy, "busy")
        stop(process)
        if journald:
            journald.terminate()

        print(f"calendar of {COUNT} events (half weekly with 2 moved instances), alarms 15 min before:")
        print(f"  start-up scan, restart (the store has the alarms; one item changed meanwhile): {restart_ms} ms by the daemon's count, "
              f"{restart_total:.2f} s from exec (READY after {restart_ready:.2f} s); empty calendar: {baseline_ms} ms, {baseline_total:.2f} s: "
              f"ratio {restart_total / baseline_total:.1f}x")
        print(f"  start-up scan, first read (a new store): {scan_ms} ms by the daemon's count, {total:.2f} s from exec "
              f"(READY after {ready:.2f} s): ratio {total / baseline_total:.1f}x")
        print(f"  the floor of a first read, alone: reading the {COUNT} files {files_ms:.0f} ms (C), storing the {alarm_count} alarms "
              f"and reading them back {sqlite_ms:.0f} ms (SQLite, from Python); remindd's first read {scan_ms / (files_ms + sqlite_ms):.1f}x their sum")
        print(f"  resident memory once settled: restart {restart_rss:.1f} MB, first read {rss:.1f} MB (empty calendar: {baseline_rss:.1f} MB)")
        print(f"  one changed event re-planned: median {sorted(latencies)[len(latencies) // 2]:.0f} ms, max {max(latencies):.0f} ms (rename to answer)")
        print(f"  idle for 10 s: {idle_calls} system calls")


if __name__ == "__main__":
    main()
