#!/usr/bin/env python3
"""The linked collection after years of doses, against the real Radicale and the real vdirsyncer on 127.0.0.1.

A store with YEARS of history (10 reminders, 3 doses a day, every dose logged) is linked to a collection. Measured:
the daemon's start (READY=1) and the seconds until its first publish settles (every item written, old logs folded
into quarterly archives), its resident memory, the number of items, the first upload of a new device (`vdirsyncer
sync` into an empty calendar) and a sync with nothing changed.

Without folding, for the ratio, in the same run: a collection of UNFOLDED items shaped like remindd's own log items
(one VJOURNAL each), uploaded and synced the same way. Three years unfolded (32,850 items) would take hours to
upload on this machine (one year, 11,000 items, took 2,670 s when the issue was filed), so the baseline is the
first UNFOLDED items (default 2,000: three weeks of the same 10 reminders), and the figures per item are compared.

Usage: collection_history.py BIN_DIR [YEARS] [UNFOLDED]
"""
import os
import sqlite3
import sys
import tempfile
import time
import uuid

from caldav_servers import calendar, server, vdirsyncer
from daemon_process import rss_mb, start, start_journald, stop

BIN = sys.argv[1]
YEARS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
UNFOLDED = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
REMINDERS = 10
TIMES = ((8, 0), (13, 0), (20, 0))


def items(folder):
    return sum(1 for entry in os.scandir(folder) if entry.name.endswith(".ics"))


def settled(folder, quiet=3.0, limit=1800):
    """Waits until the folder's items stop changing for `quiet` seconds; returns the seconds it took."""
    began = time.monotonic()
    last, since = None, time.monotonic()
    while time.monotonic() - began < limit:
        now = sorted((e.name, e.stat().st_mtime_ns) for e in os.scandir(folder) if e.name.endswith(".ics"))
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= quiet:
            return since - began
        time.sleep(0.2)
    raise AssertionError("the collection did not settle")


def folded(root, radicale_url):
    """The daemon with YEARS of history, linked: its figures and the collection's."""
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    os.makedirs(f"{root}/run", mode=0o700)
    os.makedirs(f"{root}/config/remindd")
    process, _ = start(BIN, root, env)  # creates the schema
    stop(process)
    now = int(time.time())
    first_day = now // 86400 - YEARS * 365
    db = sqlite3.connect(f"{root}/state/remindd/remindd.sqlite")
    for r in range(REMINDERS):
        cursor = db.execute("INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES (?, ?, 'UTC', 1, ?, ?)",
                            (f"Medication {r}", '{"at":"08:00,13:00,20:00","daily":true}', first_day * 86400, now))
        rows = [(cursor.lastrowid, day * 86400 + h * 3600 + m * 60 + 120 + r, "UTC")
                for day in range(first_day, now // 86400) for h, m in TIMES]
        db.executemany("INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, ?)", rows)
    logs = db.execute("SELECT COUNT(*) FROM intake").fetchone()[0]
    db.commit()
    db.close()
    folder = f"{root}/collection"
    os.makedirs(folder)
    with open(f"{root}/config/remindd/config.toml", "w") as config:
        config.write(f'collection = "{folder}"\n')
    process, ready = start(BIN, root, env)
    publish = settled(folder)
    figures = dict(logs=logs, ready=ready, publish=publish, rss=rss_mb(process.pid), items=items(folder))
    _, sync = vdirsyncer(root, folder, calendar(radicale_url))
    figures["upload"] = sync()
    figures["no_change"] = min(sync() for _ in range(3))
    stop(process)
    # A new device: an empty folder, the same server calendar.
    return figures


def unfolded(root, radicale_url):
    """UNFOLDED items shaped like remindd's log items (one VJOURNAL each): the same measurements."""
    folder = f"{root}/unfolded"
    os.makedirs(folder)
    start_at = int(time.time()) - UNFOLDED * 3600
    for i in range(UNFOLDED):
        uid = f"{uuid.uuid4()}@remindd"
        at = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(start_at + i * 3600))
        with open(f"{folder}/{uid}.ics", "w") as item:
            item.write("\r\n".join([
                "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//remindd//remindd collection//EN", "BEGIN:VJOURNAL", f"UID:{uid}",
                f"DTSTAMP:{at}", f"DTSTART:{at}", f"SUMMARY:Taken: Medication {i % REMINDERS}",
                f"RELATED-TO;RELTYPE=PARENT:medication-{i % REMINDERS}@remindd", "X-REMINDD-RECORD:TAKEN", "X-REMINDD-TZ:UTC",
                "END:VJOURNAL", "END:VCALENDAR"]) + "\r\n")
    _, sync = vdirsyncer(root, folder, calendar(radicale_url))
    upload = sync()
    return dict(items=UNFOLDED, upload=upload, no_change=min(sync() for _ in range(3)))


def main():
    with tempfile.TemporaryDirectory() as root:
        journald = start_journald(root)
        server_process, url = server("radicale", root)
        try:
            base = unfolded(root, url)
            result = folded(f"{root}/folded", url)
        finally:
            server_process.terminate()
            server_process.wait(timeout=10)
            if journald:
                journald.terminate()
    print(f"Linked collection after {YEARS} years ({result['logs']} logs of {REMINDERS} reminders at 3 doses a day), Radicale and vdirsyncer on 127.0.0.1")
    print(f"  daemon: READY after {result['ready']:.2f} s, first publish settled after {result['publish']:.1f} s, {result['rss']:.0f} MB resident")
    print(f"  folded: {result['items']} items (goal < 2,000); first upload {result['upload']:.1f} s (goal < 60 s); "
          f"sync with nothing changed {result['no_change']:.2f} s (goal < 2 s)")
    print(f"  unfolded baseline (same run): {base['items']} log items; first upload {base['upload']:.1f} s; sync with nothing changed {base['no_change']:.2f} s")
    per_item_upload = base["upload"] / base["items"]
    print(f"  three years unfolded would be {result['logs']} items: at the baseline's {per_item_upload * 1000:.1f} ms an item (a lower bound: "
          f"Radicale's cost per request grows with the collection), at least {per_item_upload * result['logs'] / 60:.0f} min to upload; "
          f"folded / unfolded items: {result['items'] / result['logs']:.3f}")


if __name__ == "__main__":
    main()
