#!/usr/bin/env python3
"""remindd at scale: fills a temporary store with 100,000 reminders, starts the real daemon, reports figures.

Measured: start-up to READY=1 (sd_notify) with 100,000 reminders against an empty store (the baseline, same
run), and the CPU time the daemon took to get there; resident memory after READY; `remindctl next` end to end and the Next call alone over the socket;
adding and removing one reminder; List of everything (every page, with `more`) and of one page of 500; the
system calls of the idle daemon over 10 s (strace -c -f); then, on a daemon with WATCHDOG_USEC=2 s: reload
(SIGHUP to READY=1), how late a firing reaches a Watch client while the daemon is idle (the baseline), during
a List of everything, during `remindctl list` and during a reload, and the largest gap between watchdog pings.

Usage: daemon_scale.py BIN_DIR [COUNT]
"""
import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from daemon_process import cpu_seconds, resident_parts_mb, stop, varlink
import daemon_process

BIN = sys.argv[1]
COUNT = int(sys.argv[2]) if len(sys.argv) > 2 else 100_000


def start(root, env, keep_notify=False):
    return daemon_process.start(BIN, root, env, keep_notify)


class WatchdogRecorder(threading.Thread):
    """Reads the notify socket of a running daemon and keeps the largest gap between WATCHDOG=1 pings."""

    def __init__(self, notify):
        super().__init__(daemon=True)
        self.notify, self.last, self.largest_gap, self.ready_at = notify, None, 0.0, []
        self.notify.settimeout(0.2)
        self.running = True

    def run(self):
        while self.running:
            try:
                message = self.notify.recv(4096)
            except socket.timeout:
                continue
            now = time.monotonic()
            if b"WATCHDOG=1" in message:
                if self.last is not None:
                    self.largest_gap = max(self.largest_gap, now - self.last)
                self.last = now
            if b"READY=1" in message:
                self.ready_at.append(now)


def firing_lateness(socket_path, name, busy):
    """Schedules `name` for the next whole second at least two seconds ahead, runs `busy()` from just before
    that instant, and returns how late (seconds) the firing reached a Watch client."""
    watch = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    watch.connect(socket_path)
    watch.sendall(json.dumps({"method": "io.remindd.Reminders.Watch", "more": True}).encode() + b"\0")
    due = int(time.time()) + 3
    at = time.strftime("%H:%M:%S", time.gmtime(due))
    varlink(socket_path, "io.remindd.Reminders.Add", {"name": name, "rule": {"daily": True, "at": at}, "timeZone": "UTC"})
    time.sleep(max(0.0, due - 0.5 - time.time()))
    worker = threading.Thread(target=busy)
    worker.start()
    data = b""
    while True:
        data += watch.recv(1 << 16)
        messages = [json.loads(m) for m in data.split(b"\0")[:-1]]
        if any(m["parameters"]["entry"]["reminderName"] == name for m in messages):
            arrived = time.time()
            break
    worker.join()
    watch.close()
    varlink(socket_path, "io.remindd.Reminders.Remove", {"reminder": name})
    return arrived - due


def median_ms(samples):
    return statistics.median(samples) * 1000


def main():
    root = tempfile.mkdtemp(prefix="remindd-bench-")
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    os.makedirs(f"{root}/run", mode=0o700)
    socket_path = f"{root}/run/remindd/control.sock"

    # Baseline: an empty store (this also creates the schema).
    baseline_ready, baseline_cpu = [], []
    for _ in range(3):
        process, ready = start(root, env)
        baseline_ready.append(ready)
        baseline_cpu.append(cpu_seconds(process.pid))
        baseline_rss = resident_parts_mb(process.pid)
        stop(process)

    # Fill the store: daily, weekly and monthly rules at times 1 to 23 hours from now, so none fires while idle.
    db = sqlite3.connect(f"{root}/state/remindd/remindd.sqlite")
    now = int(time.time())
    rng = random.Random(1)
    rows = []
    for i in range(COUNT):
        t = time.gmtime(now + rng.randint(3600, 23 * 3600))
        at = f"{t.tm_hour:02d}:{t.tm_min:02d}"
        rule = rng.choice([{"daily": True, "at": at}, {"weekly": rng.choice(["mon", "tue,fri", "sun"]), "at": at},
                           {"monthly": rng.choice(["1", "15", "31", "last"]), "at": at}])
        rows.append((f"bench-{i}", json.dumps(rule), None, 1, now, now))
    db.executemany("INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES (?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()

    # Five starts: READY moves by 100 ms between runs on a busy machine; the CPU the start took moves less.
    full_ready, full_cpu = [], []
    for _ in range(5):
        process, ready = start(root, env)
        full_ready.append(ready)
        full_cpu.append(cpu_seconds(process.pid))
        if len(full_ready) < 5:
            stop(process)
    rss = resident_parts_mb(process.pid)

    next_cli = []
    for _ in range(15):
        began = time.monotonic()
        subprocess.run([os.path.join(BIN, "remindctl"), "next"], env=env, check=True, capture_output=True)
        next_cli.append(time.monotonic() - began)
    next_call = [varlink(socket_path, "io.remindd.Reminders.Next", {"count": 10})[0] for _ in range(15)]
    adds, removes = [], []
    for i in range(15):
        elapsed, reply = varlink(socket_path, "io.remindd.Reminders.Add", {"name": f"extra-{i}", "rule": {"daily": True, "at": "03:00"}})
        adds.append(elapsed)
        elapsed, _ = varlink(socket_path, "io.remindd.Reminders.Remove", {"reminder": f"extra-{i}"})
        removes.append(elapsed)

    list_all, pages = varlink(socket_path, "io.remindd.Reminders.List", {}, more=True)
    assert sum(len(p["parameters"]["reminders"]) for p in pages) == COUNT + 1  # and the built-in check-in
    list_page = [varlink(socket_path, "io.remindd.Reminders.List", {"after": 0, "limit": 500})[0] for _ in range(5)]

    tracer = subprocess.Popen(["strace", "-c", "-f", "-o", f"{root}/strace.txt", "-p", str(process.pid)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(10)
    tracer.terminate()
    tracer.wait(timeout=10)
    with open(f"{root}/strace.txt") as f:
        summary = f.read()
    total_line = [line for line in summary.splitlines() if line.strip().endswith("total")]
    idle_calls = int(total_line[0].split()[3]) if total_line else 0
    stop(process)

    process, _, notify = start(root, dict(env, WATCHDOG_USEC="2000000"), keep_notify=True)
    watchdog = WatchdogRecorder(notify)
    watchdog.start()

    def reload():
        before = len(watchdog.ready_at)
        began = time.monotonic()
        process.send_signal(signal.SIGHUP)
        while len(watchdog.ready_at) == before:
            time.sleep(0.01)
        reloads.append(watchdog.ready_at[-1] - began)

    reloads = []
    late_idle = [firing_lateness(socket_path, f"late-idle-{i}", lambda: None) for i in range(3)]
    late_list_all = firing_lateness(socket_path, "late-list-all", lambda: varlink(socket_path, "io.remindd.Reminders.List", {}, more=True))
    late_list_paged = firing_lateness(socket_path, "late-list-paged", lambda: subprocess.run(
        [os.path.join(BIN, "remindctl"), "list"], env=env, check=True, capture_output=True))
    late_reload = firing_lateness(socket_path, "late-reload", reload)
    watchdog.running = False
    watchdog.join()
    stop(process)

    print(f"reminders in the store:              {COUNT}")
    print(f"start-up to READY=1:                 {median_ms(full_ready):.0f} ms (empty store: {median_ms(baseline_ready):.0f} ms, ratio {statistics.median(full_ready) / statistics.median(baseline_ready):.1f}x)")
    print(f"CPU time to READY=1:                 {median_ms(full_cpu):.0f} ms (empty store: {median_ms(baseline_cpu):.0f} ms)")
    print(f"resident memory after READY:         {rss['VmRSS']:.1f} MB: {rss['RssAnon']:.1f} MB anonymous, {rss['RssFile']:.1f} MB of files "
          f"(empty store: {baseline_rss['VmRSS']:.1f} MB: {baseline_rss['RssAnon']:.1f} anonymous, {baseline_rss['RssFile']:.1f} of files, the floor)")
    print(f"remindctl next (whole process):      {median_ms(next_cli):.1f} ms")
    print(f"Next over the socket (call alone):   {median_ms(next_call):.2f} ms")
    print(f"Add one reminder / Remove one:       {median_ms(adds):.2f} ms / {median_ms(removes):.2f} ms")
    print(f"List, every page (with more):        {list_all * 1000:.0f} ms")
    print(f"List, a page of 500:                 {median_ms(list_page):.1f} ms ({statistics.median(list_page) / statistics.median(next_call):.0f}x Next)")
    print(f"reload (SIGHUP to READY=1):          {median_ms(reloads):.0f} ms")
    print(f"firing to a Watch client, idle:      {median_ms(late_idle):.0f} ms after its instant (baseline)")
    print(f"  ... during List of every page:     {late_list_all * 1000:.0f} ms (target: within 100 ms of the baseline)")
    print(f"  ... during remindctl list (paged): {late_list_paged * 1000:.0f} ms")
    print(f"  ... during a reload:               {late_reload * 1000:.0f} ms")
    print(f"largest gap between watchdog pings:  {watchdog.largest_gap * 1000:.0f} ms (pings every 1000 ms; systemd acts at 2000)")
    print(f"system calls while idle for 10 s:    {idle_calls}")
    if idle_calls:
        print(summary)


if __name__ == "__main__":
    main()
