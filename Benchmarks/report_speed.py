#!/usr/bin/env python3
"""`remindctl report` as whole processes: a 90-day report of 10 reminders as SVG and as PDF, and the full report of a
10-year store, against the 90-day text report measured in the same run (the baseline), with the issue's targets.

Two stores filled by history_store.py (10 daily medications, 3 doses a day, each logged; rest days, workouts,
food): 90 days and 10 years. Each reminder gets a dose (the medication part) and one a counted stock. Each
figure is the median of 7 runs of the whole remindctl process, stdout a pipe (the PDF made by rsvg-convert).

Usage: report_speed.py BIN_DIR
"""
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import daemon_process  # noqa: E402
import history_store  # noqa: E402

BIN = sys.argv[1]
REMINDERS = 10


def environment(root):
    os.makedirs(f"{root}/run", mode=0o700)
    return dict(os.environ, XDG_STATE_HOME=f"{root}/state", XDG_RUNTIME_DIR=f"{root}/run", XDG_CONFIG_HOME=f"{root}/config", TZ="UTC")


def ctl(env, *args):
    return subprocess.run([os.path.join(BIN, "remindctl"), *args], env=env, check=True, capture_output=True).stdout


def store(days, reminders=REMINDERS, logs_per_day=3):
    """A running daemon on a store of `days` of history of `reminders` with `logs_per_day` doses each; returns
    (process, env)."""
    root = tempfile.mkdtemp(prefix="remindd-report-")
    env = environment(root)
    process, _ = daemon_process.start(BIN, root, env)  # creates the schema
    daemon_process.stop(process)
    counts = history_store.fill(f"{root}/state/remindd/remindd.sqlite", goals=reminders, days=days, logs_per_day=logs_per_day)
    print(f"  {days}-day store: " + ", ".join(f"{n} {table}" for table, n in counts.items()))
    process, _ = daemon_process.start(BIN, root, env)
    for goal in range(1, reminders + 1):
        ctl(env, "update", f"Goal {goal}", "--dose", "1", "--unit", "tablet")
    ctl(env, "stock", "set", "Goal 1", "500")
    return process, env


def timed(env, *args):
    samples = []
    for _ in range(7):
        began = time.monotonic()
        out = ctl(env, *args)
        samples.append(time.monotonic() - began)
    assert out, f"remindctl {args} printed nothing"
    return statistics.median(samples)


def peak_mb(pid):
    """The most resident memory a process has had, in MB."""
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) / 1024 for line in status if line.startswith("VmHWM:"))


def status_during(env, *args):
    """Runs remindctl with `args` once; returns its seconds and the slowest of the Status calls made meanwhile,
    against the slowest of 5 made before."""
    socket_path = os.path.join(env["XDG_RUNTIME_DIR"], "remindd", "control.sock")
    idle = max(daemon_process.varlink(socket_path, "io.remindd.Reminders.Status", {})[0] for _ in range(5))
    began = time.monotonic()
    running = threading.Thread(target=ctl, args=(env, *args))
    running.start()
    during = []
    while running.is_alive():
        during.append(daemon_process.varlink(socket_path, "io.remindd.Reminders.Status", {})[0])
        time.sleep(0.05)
    running.join()
    return time.monotonic() - began, max(during or [0]), idle


def main():
    print(f"remindctl report: {REMINDERS} reminders, whole processes (median of 7)")
    recent, recent_env = store(90)
    baseline = timed(recent_env, "report")
    figures = [
        ("90 days, svg", timed(recent_env, "report", "--format", "svg"), 0.2),
        ("90 days, pdf", timed(recent_env, "report", "--format", "pdf"), 1.0),
    ]
    daemon_process.stop(recent)
    decade, decade_env = store(3650)
    first = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 3650 * 86400))
    figures += [
        ("10 years, text", timed(decade_env, "report", "--from", first), 2.0),
        ("10 years, svg", timed(decade_env, "report", "--from", first, "--format", "svg"), 2.0),
        ("10 years, json", timed(decade_env, "report", "--from", first, "--json"), 2.0),
        ("10 years, pdf", timed(decade_env, "report", "--from", first, "--format", "pdf"), 2.0),
    ]
    # The control socket during a 10-year report: the slowest of Status calls made while it runs.
    _, slowest, idle = status_during(decade_env, "report", "--from", first, "--json")
    daemon_process.stop(decade)
    print(f"Status during a 10-year report: slowest {slowest * 1000:.1f} ms (idle: {idle * 1000:.1f} ms; target under 1 s)")
    # The longest report: 20 years of a dose every 15 minutes, the daemon's peak memory while it makes it.
    longest, longest_env = store(20 * 365, reminders=1, logs_per_day=96)
    before = peak_mb(longest.pid)
    first = time.strftime("%Y-%m-%d", time.gmtime(time.time() - 20 * 365 * 86400))
    seconds, slowest, idle = status_during(longest_env, "report", "--from", first, "--json")
    after = peak_mb(longest.pid)
    # Its history (700,800 logs and as many firings): the newest 20 of the one reminder (the firings read through
    # their index by reminder), and the newest 100,000 (the most `history` gives); whole processes.
    newest = timed(longest_env, "history", "--reminder", "Goal 1", "--limit", "20")
    cpu = daemon_process.cpu_seconds(longest.pid)
    began = time.monotonic()
    ctl(longest_env, "history", "--since", first, "--limit", "100000")
    most, most_cpu = time.monotonic() - began, daemon_process.cpu_seconds(longest.pid) - cpu
    daemon_process.stop(longest)
    print(f"20 years' history: one reminder's newest 20 {newest * 1000:.0f} ms (median of 7); the newest 100,000 {most:.1f} s "
          f"(the daemon's CPU {most_cpu:.1f} s)")
    print(f"20 years at 96 doses a day: {seconds:.1f} s; daemon's peak memory {after:.0f} MB (before it: {before:.0f} MB; "
          f"target under 150 MB: {'met' if after < 150 else 'NOT MET'}); slowest Status {slowest * 1000:.1f} ms (idle: {idle * 1000:.1f} ms)")
    print(f"{'':22} {'time':>9} {'ratio':>7}  target")
    print(f"{'90 days, text':22} {baseline * 1000:6.0f} ms {1:6.1f}x  (the baseline)")
    for name, seconds, target in figures:
        print(f"{name:22} {seconds * 1000:6.0f} ms {seconds / baseline:6.1f}x  < {target * 1000:.0f} ms: {'met' if seconds < target else 'NOT MET'}")


if __name__ == "__main__":
    main()
