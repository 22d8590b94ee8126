#!/usr/bin/env python3
"""The linked collection at scale: what one local change costs when 100,000 reminders are linked.

Each store is linked to a collection folder (config.toml's `collection`). Measured, for a store of 10 reminders
(the baseline, same run) and one of COUNT: the first publish (every reminder's item in
the folder, from the daemon's start) and, while it runs, how late a firing is and how long Status takes; the
daemon's CPU time per `Log` call (each log is published as an item of its own; a publish used
to read and re-render every reminder), the wall time of a `Log` call, and resident memory after the first
publish.

With ALL=1: the issue's whole load at one start (COUNT reminders linked, 30,000 log items from another device,
a calendar of 20,000 events): seconds to every log applied and every reminder published, firings and Status
meanwhile, peak memory (see `everything`). STACKS=FILE samples the daemon's threads with gdb meanwhile.

With FIRST_READ=30000: a collection of that many log items another device wrote, read at the first start
(against 100 in the same run): seconds to every log applied, a firing and Status meanwhile, peak memory.

With FOREIGN=100000: a collection holding that many tasks of another client (a task app's, no remindd item),
read at the first start (against 100 in the same run): seconds to every item read, and Status every 0.5 s
meanwhile (the slowest, and how many took over 1 s). Before, each such task listed and read every zone file, and
the read held an event loop: Status waited 30 s at a time.

Usage: collection_scale.py BIN_DIR [COUNT]
"""
import json
import os
import random
import sqlite3
import statistics
import sys
import tempfile
import threading
import time

from daemon_process import cpu_seconds, rss_mb, start, stop, varlink
from daemon_scale import firing_lateness

BIN = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000
LOGS = 20


def items(folder):
    return sum(1 for entry in os.scandir(folder) if entry.name.endswith(".ics"))


def reminder_items(folder):
    """The items that are not another device's log items (`write_log_items`) or archives: old logs are folded into
    their quarter's archive, so the log items do not all stay."""
    return sum(1 for entry in os.scandir(folder)
               if entry.name.endswith(".ics") and not entry.name.startswith("bench-log-") and "-archive-" not in entry.name)


def fill(root, count):
    """Adds `count` daily reminders to a stopped daemon's store, due 1 to 23 hours from now (none fires)."""
    db = sqlite3.connect(f"{root}/state/remindd/remindd.sqlite")
    now = int(time.time())
    rng = random.Random(1)
    rows = []
    for i in range(count):
        t = time.gmtime(now + rng.randint(3600, 23 * 3600))
        rows.append((f"bench-{i}", json.dumps({"daily": True, "at": f"{t.tm_hour:02d}:{t.tm_min:02d}"}), None, 1, now, now))
    db.executemany("INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()


def measure(count, linked=True):
    root = tempfile.mkdtemp(prefix="remindd-collection-bench-")
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    os.makedirs(f"{root}/run", mode=0o700)
    os.makedirs(f"{root}/config/remindd")
    folder = f"{root}/collection"
    socket_path = f"{root}/run/remindd/control.sock"
    process, _ = start(BIN, root, env)  # creates the schema
    stop(process)
    fill(root, count)
    os.makedirs(folder)
    if linked:
        with open(f"{root}/config/remindd/config.toml", "w") as config:
            config.write(f'collection = "{folder}"\n')

    began = time.monotonic()
    process, ready = start(BIN, root, env)
    # While the first publish runs: how late a firing reaches a Watch client, and how long Status takes.
    late = firing_lateness(socket_path, "during-publish", lambda: None)
    status = [varlink(socket_path, "io.remindd.Reminders.Status", {})[0] for _ in range(5)]
    publishing_still = linked and items(folder) < count
    log_applied = log_during_publish(root, folder) if publishing_still else None
    while linked and items(folder) < count:
        time.sleep(0.2)
    first_publish = time.monotonic() - began
    # Settled: the watcher's reading of what the publish wrote ends; then less than 2% of a core for a second.
    while True:
        used = cpu_seconds(process.pid)
        time.sleep(1)
        if cpu_seconds(process.pid) - used < 0.02:
            break
    settled = time.monotonic() - began
    rss = rss_mb(process.pid)
    before_items = items(folder)
    cpu, calls = [], []
    for i in range(LOGS):
        used = cpu_seconds(process.pid)
        elapsed, _ = varlink(socket_path, "io.remindd.Reminders.Log", {"reminder": f"bench-{i % count}"})
        time.sleep(0.5)
        cpu.append(cpu_seconds(process.pid) - used)
        calls.append(elapsed)
    assert items(folder) == before_items + (LOGS if linked else 0), "every log is an item in the folder"
    stop(process)
    return first_publish, statistics.median(cpu), statistics.median(calls), rss, ready, late, max(status), publishing_still, settled, log_applied


def log_during_publish(root, folder):
    """Another device's log of bench-0 written while the first publish runs: seconds until it is applied (it
    waited for the whole publish: 108.7 s with 100,000 reminders)."""
    db = sqlite3.connect(f"file:{root}/state/remindd/remindd.sqlite?mode=ro", uri=True)
    uid = None
    while uid is None:  # bench-0 (id 1) is in the first page published
        row = db.execute("SELECT uid FROM collectionItem WHERE kind = 'reminder' AND localId = 1").fetchone()
        uid = row[0] if row else None
        time.sleep(0.05)
    at = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(time.time() - 60))
    with open(os.path.join(folder, ".during-publish.tmp"), "w") as item:
        item.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VJOURNAL\r\n"
                   f"UID:during-publish@other-device\r\nDTSTAMP:{at}\r\nDTSTART:{at}\r\nSUMMARY:Taken: bench-0\r\n"
                   f"RELATED-TO;RELTYPE=PARENT:{uid}\r\nX-REMINDD-RECORD:TAKEN\r\nX-REMINDD-TZ:UTC\r\n"
                   "END:VJOURNAL\r\nEND:VCALENDAR\r\n")
    written = time.monotonic()
    os.rename(os.path.join(folder, ".during-publish.tmp"), os.path.join(folder, "during-publish@other-device.ics"))
    while db.execute("SELECT count(*) FROM intake").fetchone()[0] < 1:
        if time.monotonic() - written > 600:
            raise SystemExit("another device's log was not applied within 600 s")
        time.sleep(0.05)
    db.close()
    return time.monotonic() - written


def peak_mb(pid):
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))


def linked_metformin(extra_config=""):
    """A stopped daemon's state linked to a collection folder, with one reminder, Metformin: returns the root,
    the environment, the folder, the socket's path and Metformin's UID."""
    root = tempfile.mkdtemp(prefix="remindd-collection-bench-")
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    os.makedirs(f"{root}/run", mode=0o700)
    os.makedirs(f"{root}/config/remindd")
    folder = f"{root}/collection"
    os.makedirs(folder)
    socket_path = f"{root}/run/remindd/control.sock"
    with open(f"{root}/config/remindd/config.toml", "w") as config:
        config.write(f'collection = "{folder}"\n' + extra_config)
    process, _ = start(BIN, root, env)
    varlink(socket_path, "io.remindd.Reminders.Add", {"name": "Metformin", "rule": {"daily": True, "at": "08:00"}, "timeZone": "UTC"})

    def metformin_uid():  # published once the folders were read (the calendars first)
        return next((line.split(":", 1)[1].strip() for name in os.listdir(folder) if name.endswith(".ics")
                     for line in open(os.path.join(folder, name)) if line.startswith("UID:") and "Metformin" in open(os.path.join(folder, name)).read()), None)
    deadline = time.monotonic() + 120
    while (uid := metformin_uid()) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    stop(process)
    assert uid, "Metformin was never published"
    return root, env, folder, socket_path, uid


def write_log_items(folder, uid, logs):
    """`logs` doses of the reminder `uid` as another device writes them, spread over three years."""
    now = int(time.time())
    for i in range(logs):
        at = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now - 3600 - i * (3 * 365 * 86400 // logs)))
        item_uid = f"bench-log-{i}@other-device"
        with open(os.path.join(folder, item_uid + ".ics"), "w") as item:
            item.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VJOURNAL\r\n"
                       f"UID:{item_uid}\r\nDTSTAMP:{at}\r\nDTSTART:{at}\r\nSUMMARY:Taken: Metformin\r\n"
                       f"RELATED-TO;RELTYPE=PARENT:{uid}\r\nX-REMINDD-RECORD:TAKEN\r\nX-REMINDD-TZ:UTC\r\n"
                       "END:VJOURNAL\r\nEND:VCALENDAR\r\n")


def everything(reminders, logs, events):
    """The issue's whole load at one start: `reminders` reminders linked to a collection that also holds `logs`
    log items another device wrote, and a calendar folder of `events` events with alarms. Until every log is
    applied and every reminder published: firings one after another (how late each reaches a Watch client) and
    Status every 0.2 s (the slowest). Returns seconds to every log applied, to every reminder published, the
    latest firing, the slowest Status, and the daemon's peak memory."""
    import datetime as dt
    from calendar_scale import event
    calendar = tempfile.mkdtemp(prefix="remindd-calendar-bench-")
    now = dt.datetime.now()
    for number in range(events):
        with open(f"{calendar}/event-{number}.ics", "w") as f:
            f.write(event(number, now))
    root, env, folder, socket_path, uid = linked_metformin(f'calendars = ["{calendar}"]\nnotifications = "none"\n')
    fill(root, reminders)
    write_log_items(folder, uid, logs)
    began = time.monotonic()
    process, ready = start(BIN, root, env)
    if os.environ.get("STACKS"):  # the daemon's threads every 5 s of the first 40, for looking into it
        import subprocess
        subprocess.Popen(["sh", "-c", f"for i in 1 2 3 4 5 6 7 8; do sleep 5; echo ==== $i; gdb -p {process.pid} -batch -ex 'thread apply all bt 25' 2>/dev/null | grep -E '^Thread|^#' | cut -c1-250; done > {os.environ['STACKS']}"])
    statuses, done = [], threading.Event()

    def poll_status():
        while not done.is_set():
            statuses.append(varlink(socket_path, "io.remindd.Reminders.Status", {})[0])
            time.sleep(0.2)
    poller = threading.Thread(target=poll_status)
    poller.start()
    db = sqlite3.connect(f"file:{root}/state/remindd/remindd.sqlite?mode=ro", uri=True)
    applied = published = None
    lateness = []
    while applied is None or published is None:
        lateness.append(firing_lateness(socket_path, f"during-load-{len(lateness)}", lambda: None))
        if applied is None and db.execute("SELECT count(*) FROM intake").fetchone()[0] >= logs:
            applied = time.monotonic() - began
        if published is None and reminder_items(folder) >= reminders + 1:
            published = time.monotonic() - began
        if time.monotonic() - began > 900:
            raise SystemExit(f"not done after 900 s: logs applied {applied}, published {published}")
    done.set()
    poller.join()
    db.close()
    peak = peak_mb(process.pid)
    stop(process)
    return ready, applied, published, lateness, max(statuses), peak


def first_read(logs):
    """A collection holding `logs` log items another device wrote (three years of doses), read by a daemon that
    has only their reminder: seconds from start to every log applied, how late a firing is and the slowest
    Status meanwhile, and the daemon's peak memory."""
    root, env, folder, socket_path, uid = linked_metformin()
    write_log_items(folder, uid, logs)
    began = time.monotonic()
    process, ready = start(BIN, root, env)
    late = firing_lateness(socket_path, "during-read", lambda: None)
    status = [varlink(socket_path, "io.remindd.Reminders.Status", {})[0] for _ in range(5)]
    db = sqlite3.connect(f"file:{root}/state/remindd/remindd.sqlite?mode=ro", uri=True)
    while db.execute("SELECT count(*) FROM intake").fetchone()[0] < logs:
        time.sleep(0.5)
    applied = time.monotonic() - began
    db.close()
    peak = peak_mb(process.pid)
    stop(process)
    return applied, late, max(status), peak


def foreign_read(tasks):
    """A collection holding `tasks` tasks of another client, read by a daemon at its first start: seconds to every
    item noted, the slowest Status (every 0.5 s meanwhile) and how many took over 1 s."""
    root, env, folder, socket_path, _ = linked_metformin()
    for number in range(tasks):
        with open(os.path.join(folder, f"other-{number}.ics"), "w") as item:
            item.write("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VTODO\r\n"
                       f"UID:other-{number}\r\nSUMMARY:Task {number}\r\nEND:VTODO\r\nEND:VCALENDAR\r\n")
    began = time.monotonic()
    process, _ = start(BIN, root, env)
    db = sqlite3.connect(f"file:{root}/state/remindd/remindd.sqlite?mode=ro", uri=True)
    statuses = []
    while db.execute("SELECT count(*) FROM collectionItem WHERE kind = 'foreign'").fetchone()[0] < tasks:
        statuses.append(varlink(socket_path, "io.remindd.Reminders.Status", {})[0])
        time.sleep(0.5)
        if time.monotonic() - began > 900:
            raise SystemExit("the tasks were not all read after 900 s")
    read = time.monotonic() - began
    db.close()
    stop(process)
    return read, max(statuses, default=0), sum(1 for s in statuses if s > 1), len(statuses)


def main():
    if os.environ.get("FOREIGN"):
        count = int(os.environ["FOREIGN"])
        base, full = foreign_read(100), foreign_read(count)
        print(f"tasks of another client:               {count} (baseline: 100)")
        print(f"start to every task read:              {full[0]:.1f} s (baseline {base[0]:.2f} s)")
        print(f"slowest Status meanwhile (every 0.5 s): {full[1] * 1000:.0f} ms, {full[2]} of {full[3]} over 1 s (baseline {base[1] * 1000:.0f} ms)")
        return
    if os.environ.get("ALL"):
        ready, applied, published, lateness, status, peak = everything(COUNT, 30_000, 20_000)
        print(f"{COUNT} reminders linked, 30,000 log items from another device, a calendar of 20,000 events, at one start:")
        print(f"start to READY=1:                      {ready:.2f} s")
        print(f"start to every log applied:            {applied:.1f} s (target under 60 s)")
        print(f"start to every reminder published:    {published:.1f} s")
        print(f"firings meanwhile:                     {len(lateness)}, latest {max(lateness) * 1000:.0f} ms late (median {statistics.median(lateness) * 1000:.0f} ms)")
        print(f"slowest Status meanwhile (every 0.2 s): {status * 1000:.0f} ms (target under 1 s)")
        print(f"peak resident memory:                  {peak:.1f} MB (target under 150 MB)")
        return
    if os.environ.get("FIRST_READ"):
        count = int(os.environ["FIRST_READ"])
        base, full = first_read(100), first_read(count)
        print(f"log items another device wrote:        {count} (baseline: 100)")
        print(f"start to every log applied:            {full[0]:.1f} s (baseline {base[0]:.2f} s)")
        print(f"a firing during the read:              {full[1] * 1000:.0f} ms late (baseline {base[1] * 1000:.0f} ms)")
        print(f"slowest of 5 Status calls meanwhile:   {full[2] * 1000:.1f} ms (baseline {base[2] * 1000:.1f} ms)")
        print(f"peak resident memory:                  {full[3]:.1f} MB (baseline {base[3]:.1f} MB)")
        return
    if os.environ.get("UNLINKED"):
        print(measure(COUNT, linked=False))
        return
    base = measure(10)
    full = measure(COUNT)
    print(f"reminders linked:                      {COUNT} (baseline: 10)")
    print(f"start to READY=1:                      {full[4]:.2f} s (baseline {base[4]:.2f} s)")
    print(f"start to every item published:         {full[0]:.1f} s (baseline {base[0]:.2f} s)")
    print(f"start to the daemon idle again:        {full[8]:.1f} s (baseline {base[8]:.2f} s)")
    print(f"a firing during the first publish:     {full[5] * 1000:.0f} ms late (baseline, nothing to publish: {base[5] * 1000:.0f} ms)"
          + ("" if full[7] else "  [the publish had ended before it]"))
    print(f"slowest of 5 Status calls meanwhile:   {full[6] * 1000:.1f} ms (baseline {base[6] * 1000:.1f} ms)")
    if full[9] is not None:
        print(f"another device's log during it:        applied after {full[9]:.1f} s")
    print(f"daemon CPU per log (published):        {full[1] * 1000:.0f} ms (baseline {base[1] * 1000:.0f} ms, ratio {full[1] / max(base[1], 0.001):.1f}x)")
    print(f"Log call, wall:                        {full[2] * 1000:.1f} ms (baseline {base[2] * 1000:.1f} ms)")
    print(f"resident memory once idle again:       {full[3]:.1f} MB (baseline {base[3]:.1f} MB)")


if __name__ == "__main__":
    main()
