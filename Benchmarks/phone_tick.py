#!/usr/bin/env python3
"""A dose ticked on the phone, known on the computer (#61 item 0), against the real Radicale and the real Xandikos
on 127.0.0.1, with the real vdirsyncer as remindd's sync command at default settings.

For each server: remindd (occurrence tasks, `sync-interval` at its default) announces a dose; a person reacts
REACT seconds later on the phone (python caldav on the server, as DAVx5 is for a task app: STATUS:COMPLETED); the
latency is from the phone's save to the dose in `remindctl log list` here. ROUNDS rounds, one dose each.

Baselines in the same run: one `vdirsyncer sync` with nothing to bring (the floor of any path through the sync
command) and `sync-interval` (5 minutes: what a tick waited for before, 296 s once). An idle hour: what one sync
with nothing to bring costs (the CPU of vdirsyncer, the requests the server logged), times the runs an hour with
nothing due (3600 / `sync-interval`); the daemon itself makes no system call while idle (daemon_scale.py).

Usage: phone_tick.py BIN_DIR [ROUNDS] [REACT]   (run with the test venv's python: it has caldav)
"""
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import uuid

import caldav

from caldav_servers import calendar, requests_logged, server, vdirsyncer
from daemon_process import start, start_journald, stop

BIN = sys.argv[1]
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
REACT = float(sys.argv[3]) if len(sys.argv) > 3 else 5.0
INTERVAL = 300  # sync-interval's default


def ctl_json(env, *args):
    done = subprocess.run([os.path.join(BIN, "remindctl"), *args, "--json"], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def wait(condition, limit):
    began = time.monotonic()
    while time.monotonic() - began < limit:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def one_sync_cost(sync, kind, log):
    """CPU seconds and requests of one `vdirsyncer sync` (`sync`) with nothing to bring (median of 5), and its seconds."""
    runs = []
    for _ in range(5):
        before, requests = resource.getrusage(resource.RUSAGE_CHILDREN), requests_logged(kind, log)
        elapsed = sync()
        time.sleep(0.3)  # the server's log line of the last request
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        runs.append((cpu, requests_logged(kind, log) - requests, elapsed))
    runs.sort()
    return runs[len(runs) // 2]


def measure(kind, root):
    log = f"{root}/{kind}.log"
    process, home = server(kind, root, log=log)
    url = calendar(home)
    folder = f"{root}/collection"
    os.makedirs(folder)
    config, sync = vdirsyncer(root, folder, url)
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    os.makedirs(f"{root}/run", mode=0o700)
    os.makedirs(f"{root}/config/remindd")
    with open(f"{root}/config/remindd/config.toml", "w") as out:
        out.write(f'collection = "{folder}"\ncollection-mode = "occurrences"\n'
                  f'sync-command = ["/usr/bin/vdirsyncer", "-c", "{config}", "sync"]\n')
    daemon, _ = start(BIN, root, env)
    phone = caldav.DAVClient(url=url, username="alice", password="secret").calendar(url=url)
    latencies = []
    try:
        for round_number in range(ROUNDS):
            name = f"Tick {round_number} {uuid.uuid4().hex[:4]}"
            at = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(seconds=8)).strftime("%H:%M:%S")
            added = ctl_json(env, "add", name, "--daily", "--at", at, "--tz", "UTC", "--dose", "1", "--unit", "tablet")
            occurrence = added["next"]["utc"].replace("-", "").replace(":", "")
            wait(lambda: [o for o in ctl_json(env, "today")["occurrences"] if o["reminderName"] == name and o["state"] == "due"], 60)
            time.sleep(REACT)
            def task():
                for todo in phone.todos(include_completed=True):
                    if f"X-REMINDD-OCCURRENCE:{occurrence}" in todo.data and name in todo.data:
                        return todo
                return None
            todo = wait(task, 120)
            stamp = dt.datetime.now(dt.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
            todo.data = todo.data.replace("END:VTODO", f"STATUS:COMPLETED\r\nCOMPLETED:{stamp}\r\nEND:VTODO")
            todo.save()
            ticked = time.monotonic()
            wait(lambda: [l for l in ctl_json(env, "log", "list") if l["reminderName"] == name], 600)
            latencies.append(time.monotonic() - ticked)
        cpu, requests, sync_seconds = one_sync_cost(sync, kind, log)
    finally:
        stop(daemon)
        process.terminate()
        process.wait(timeout=10)
    latencies.sort()
    median = latencies[len(latencies) // 2]
    runs_an_hour = 3600 // INTERVAL
    print(f"{kind}: a tick on the phone known here after {median:.1f} s median (all: {', '.join(f'{l:.1f}' for l in latencies)}; "
          f"reacting {REACT:.0f} s after the announcement)")
    print(f"  baselines: one sync with nothing to bring {sync_seconds:.2f} s -> {median / sync_seconds:.1f}x; "
          f"sync-interval {INTERVAL} s -> {median / INTERVAL:.2f}x")
    print(f"  an idle hour (nothing due): {runs_an_hour} syncs x ({cpu * 1000:.0f} ms CPU, {requests} requests) = "
          f"{runs_an_hour * cpu:.1f} s CPU ({runs_an_hour * cpu / 36:.2f} % of a core), {runs_an_hour * requests} requests")


def main():
    with tempfile.TemporaryDirectory() as top:
        journald = start_journald(top)
        try:
            for kind in ("radicale", "xandikos"):
                os.makedirs(f"{top}/{kind}")
                measure(kind, f"{top}/{kind}")
        finally:
            if journald:
                journald.terminate()


if __name__ == "__main__":
    main()
