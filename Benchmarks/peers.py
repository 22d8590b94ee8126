#!/usr/bin/env python3
"""remindd beside the tools a user would otherwise pick for its core job, each measured in the same run (#62).

(a) 1,000 reminders due at one instant: remindd (its Add calls, then a Watch client) against 1,000 transient
    systemd user timers (`systemd-run --user --on-calendar=... --timer-property=AccuracySec=1ms`, each running
    `date` into a file) in a private `systemd --user` manager: time to create them, how late the last one is
    told (remindd: its firing at the Watch client; systemd: the last service's own clock), and the memory each
    manager took for them (resident, after, less before).
(b) The next occurrence of each of 10,000 rules (daily, weekly, monthly on a day and on the last day, at times
    spread over the day): `remind -n` (Debian's remind) on the equivalent REM lines, against `remindctl list
    --json` on a daemon holding them, both whole processes; the rules whose time is later today must give the
    same day in both (remind gives dates only, and today's even when its time has passed).
(c) A command's whole process: `remindctl --version` and `remindctl next` against `remind -n` on a file of 10
    reminders, `systemctl --user list-timers` (the private manager holding 10 timers) and `systemctl --version`.

Needs root (it starts `systemd --user`, as the e2e tests do) and Debian's remind and systemd.
Usage: peers.py BIN_DIR
"""
import json
import os
import pathlib
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

import daemon_process
from daemon_process import rss_mb, stop, varlink

BIN = sys.argv[1] if len(sys.argv) > 1 else ".build/release"


def whole_process_ms(command, env, runs=40):
    """Median wall time of `command` as a whole process, in ms."""
    samples = []
    for _ in range(runs):
        began = time.perf_counter()
        subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        samples.append(time.perf_counter() - began)
    return statistics.median(samples) * 1000


class UserManager:
    """A private `systemd --user` with its own HOME and XDG_RUNTIME_DIR (as Tests/e2e/user_session.py)."""

    def __init__(self, base):
        self.runtime = base / "runtime"
        (base / "home").mkdir(parents=True)
        self.runtime.mkdir(mode=0o700)
        self.env = {"PATH": os.environ["PATH"], "HOME": str(base / "home"), "XDG_RUNTIME_DIR": str(self.runtime), "TZ": "UTC"}
        self.made_run_dir = not os.path.isdir("/run/systemd/system")
        os.makedirs("/run/systemd/system", exist_ok=True)  # systemd --user starts as root only where it exists
        self.process = daemon_process.start_user_manager(self.env, self.runtime)

    def stop(self):
        daemon_process.stop_user_manager(self.process, self.env)
        if self.made_run_dir:
            shutil.rmtree("/run/systemd/system", ignore_errors=True)


def systemd_timers(manager, count, due, outputs):
    """Creates `count` transient timers at `due`; returns the seconds it took."""
    when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(due))
    began = time.monotonic()
    for i in range(count):
        subprocess.run(["systemd-run", "--user", "--quiet", f"--unit=peer-{i}", f"--on-calendar={when}", "--timer-property=AccuracySec=1ms",
                        "/bin/sh", "-c", f"date +%s.%N > {outputs}/{i}"], env=manager.env, check=True, capture_output=True)
    return time.monotonic() - began


def remindd_firings(root, env, count):
    """Adds `count` one-off reminders due together to a fresh remindd and times them; returns (seconds to add,
    how late the last reached a Watch client, memory they took)."""
    process, _ = daemon_process.start(BIN, root, env)
    socket_path = f"{root}/run/remindd/control.sock"
    before = rss_mb(process.pid)
    due = int(time.time()) + 4 + count // 200
    at = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(due))
    began = time.monotonic()
    for i in range(count):
        varlink(socket_path, "io.remindd.Reminders.Add", {"name": f"peer-{i}", "rule": {"once": at}, "timeZone": "UTC"})
    added = time.monotonic() - began
    watch = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    watch.connect(socket_path)
    watch.sendall(json.dumps({"method": "io.remindd.Reminders.Watch", "more": True}).encode() + b"\0")
    seen, data = 0, b""
    while seen < count:
        data += watch.recv(1 << 20)
        *messages, data = data.split(b"\0")
        seen += sum(1 for m in messages if json.loads(m)["parameters"]["entry"]["reminderName"].startswith("peer-"))
    last = time.time() - due
    memory = rss_mb(process.pid) - before
    watch.close()
    stop(process)
    return added, last, memory


def rules(count):
    """`count` rules at times spread over the day, as remindd's rule and as a REM line."""
    rng = random.Random(62)
    made = []
    for i in range(count):
        hour, minute = rng.randrange(24), rng.randrange(60)
        at = f"{hour:02d}:{minute:02d}"
        kind = i % 4
        if kind == 0:
            made.append(({"daily": True, "at": at}, f"REM AT {at} MSG rule-{i}"))
        elif kind == 1:
            made.append(({"weekly": "mon", "at": at}, f"REM Mon AT {at} MSG rule-{i}"))
        elif kind == 2:
            made.append(({"monthly": "15", "at": at}, f"REM 15 AT {at} MSG rule-{i}"))
        else:
            made.append(({"monthly": "last", "at": at}, f"REM 1 --1 AT {at} MSG rule-{i}"))
    return made


def main():
    base = pathlib.Path(tempfile.mkdtemp(prefix="remindd-peers-"))
    journald = daemon_process.start_journald(str(base))
    root = str(base / "remindd")
    os.makedirs(f"{root}/run", mode=0o700)
    env = dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")
    remindctl = os.path.join(BIN, "remindctl")
    manager = UserManager(base / "systemd")
    try:
        # (a) 1,000 at one instant.
        count = 1000
        added, remindd_late, remindd_memory = remindd_firings(root, env, count)
        outputs = base / "fired"
        outputs.mkdir()
        manager_before = rss_mb(manager.process.pid)
        due = int(time.time()) + 30
        created = systemd_timers(manager, count, due, outputs)
        manager_memory = rss_mb(manager.process.pid) - manager_before
        deadline = time.time() + 120
        while len(list(outputs.iterdir())) < count and time.time() < deadline:
            time.sleep(0.2)
        time.sleep(0.5)
        stamps = [float(f.read_text() or "nan") for f in outputs.iterdir()]
        systemd_late = max(stamps) - due if len(stamps) == count else float("nan")

        # (c) with 10 timers and 10 reminders: a command's whole process.
        subprocess.run(["systemctl", "--user", "stop", "peer-*.timer"], env=manager.env, capture_output=True)
        for i in range(10):
            subprocess.run(["systemd-run", "--user", "--quiet", f"--unit=small-{i}", "--on-calendar=*-*-* 03:00:00", "/bin/true"],
                           env=manager.env, check=True, capture_output=True)
        small = base / "small.rem"
        small.write_text("\n".join(line for _, line in rules(10)) + "\n")
        process, _ = daemon_process.start(BIN, root, env)
        socket_path = f"{root}/run/remindd/control.sock"
        for i, (rule, _) in enumerate(rules(10)):
            varlink(socket_path, "io.remindd.Reminders.Add", {"name": f"small-{i}", "rule": rule, "timeZone": "UTC"})
        cli = {
            "remindctl --version": whole_process_ms([remindctl, "--version"], env),
            "remindctl next": whole_process_ms([remindctl, "next"], env),
            "remind -n (10 reminders)": whole_process_ms(["remind", "-n", str(small)], env),
            "systemctl --user list-timers": whole_process_ms(["systemctl", "--user", "list-timers", "--no-pager"], manager.env),
            "systemctl --version": whole_process_ms(["systemctl", "--version"], env),
        }

        # (b) 10,000 rules' next occurrences.
        many = rules(10_000)
        for i, (rule, _) in enumerate(many):
            varlink(socket_path, "io.remindd.Reminders.Add", {"name": f"rule-{i}", "rule": rule, "timeZone": "UTC"})
        rem = base / "rules.rem"
        rem.write_text("\n".join(line for _, line in many) + "\n")
        remind_ms = whole_process_ms(["remind", "-n", "-b1", str(rem)], env, runs=10)
        listed_ms = whole_process_ms([remindctl, "list", "--json"], env, runs=10)
        listed = {r["name"]: r for r in json.loads(subprocess.run([remindctl, "list", "--json"], env=env, capture_output=True, text=True, check=True).stdout)}
        reminded = {}
        for line in subprocess.run(["remind", "-n", "-b1", str(rem)], env=env, capture_output=True, text=True, check=True).stdout.splitlines():
            date, clock, name = line.split(" ", 2)
            reminded[name] = (date.replace("/", "-"), clock)
        now = time.strftime("%H:%M", time.gmtime(time.time() + 120))
        today = time.strftime("%Y-%m-%d", time.gmtime())
        later_today = [name for name, (date, clock) in reminded.items() if date == today and clock > now]
        agree = sum(1 for name in later_today if listed[name]["next"]["local"][:10] == reminded[name][0])
        stop(process)
    finally:
        manager.stop()
        if journald:
            journald.terminate()

    print(f"(a) {count} reminders due at one instant           remindd          systemd --user timers")
    print(f"    time to create them                      {added:8.2f} s       {created:8.2f} s  ({created / added:.1f}x remindd's)")
    print(f"    the last one, after the instant          {remindd_late * 1000:8.0f} ms      {systemd_late * 1000:8.0f} ms")
    print(f"    memory they took in the manager          {remindd_memory:8.1f} MB      {manager_memory:8.1f} MB")
    print(f"(b) next occurrence of 10,000 rules: remindctl list --json {listed_ms:.0f} ms, remind -n {remind_ms:.0f} ms "
          f"(ratio {listed_ms / remind_ms:.2f}); rules later today agreeing: {agree} of {len(later_today)}")
    print("(c) whole process, median of 40:")
    for name, ms in cli.items():
        print(f"    {name:32} {ms:6.1f} ms  ({ms / cli['systemctl --version']:.2f}x systemctl --version)")
    if agree != len(later_today):
        raise SystemExit("remindd and remind disagree on a rule's next day")


if __name__ == "__main__":
    main()
