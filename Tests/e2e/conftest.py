"""Shared fixtures for the end-to-end tests: the built binaries, a real journald, and a daemon harness."""
import collections
import datetime as dt
import json
import math
import os
import pathlib
import socket
import sqlite3
import sys
import subprocess
import tempfile
import threading
import textwrap
import time
import uuid

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "Benchmarks"))
from daemon_process import start_journald  # noqa: E402  (shared with the benchmarks)
BIN = pathlib.Path(os.environ.get("REMINDD_BIN_DIR", ROOT / ".build" / "debug"))


@pytest.fixture(scope="session")
def remindctl():
    path = BIN / "remindctl"
    assert path.exists(), f"{path} is missing: run 'swift build' first"
    return str(path)


# The journald the run started (None when the system's listens), kept from pytest_configure to pytest_unconfigure.
_started_journald = []


def pytest_configure(config):
    """Starts systemd-journald once for the whole run, before any worker starts: with pytest-xdist the workers
    share it (each starting its own would bind the same socket)."""
    if hasattr(config, "workerinput"):
        return
    folder = tempfile.TemporaryDirectory()
    _started_journald.append((folder, start_journald(folder.name)))


def pytest_unconfigure(config):
    for folder, started in _started_journald:
        if started:
            started.terminate()
            started.wait(timeout=10)
        folder.cleanup()


@pytest.fixture(scope="session")
def journald():
    """A running systemd-journald: the system's, or the one this run started (pytest_configure)."""
    return Journal()


def process_start(pid):
    """When a running process started (seconds since the epoch, to 1 s), or None when it is not running."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/stat") as machine:
            boot = next(int(line.split()[1]) for line in machine if line.startswith("btime "))
    except (OSError, ValueError, IndexError, StopIteration):
        return None
    return boot + ticks / os.sysconf("SC_CLK_TCK")


class Journal:
    # When each process matched by _PID started (seconds since the epoch), remembered for after it exits.
    started = {}

    def entries(self, **fields):
        """Entries whose fields match, as dicts (journalctl -o json). With `_PID`, only entries since that process
        started: pids are reused (pid_max is 32768 here), and the journal keeps earlier runs' entries."""
        matches = [f"{k}={v}" for k, v in fields.items()]
        out = subprocess.run(["journalctl", "--no-pager", "-o", "json", *matches], capture_output=True, text=True).stdout
        found = [json.loads(line) for line in out.splitlines() if line.strip()]
        if "_PID" in fields:
            since = process_start(fields["_PID"]) or Journal.started.get(str(fields["_PID"]))
            if since:
                Journal.started[str(fields["_PID"])] = since
                found = [e for e in found if int(e["__REALTIME_TIMESTAMP"]) / 1e6 >= since - 1.0]
        return found

    def wait_for(self, timeout=10.0, count=1, **fields):
        deadline = time.time() + timeout
        while True:
            found = self.entries(**fields)
            if len(found) >= count or time.time() > deadline:
                return found
            time.sleep(0.1)


class Daemon:
    """remindd run as its service would be: its own state dir, runtime dir and NOTIFY_SOCKET."""

    def __init__(self, root: pathlib.Path):
        self.root = root
        self.state = root / "state"
        self.runtime = root / "runtime"
        self.config = root / "config"
        for d in (self.state, self.runtime, self.config):
            d.mkdir(parents=True, exist_ok=True)
        self.notify_path = str(root / "notify.sock")
        self.notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.notify.bind(self.notify_path)
        self.notifications = []
        # Like a service manager, read the notify socket all the time (a full socket would block sd_notify).
        self.listening = True
        self.listener = threading.Thread(target=self._listen, daemon=True)
        self.listener.start()
        self.process = None
        # Where remindd and remindctl are run from (a test may run copies installed elsewhere).
        self.bin = BIN
        self.env = dict(os.environ, XDG_RUNTIME_DIR=str(self.runtime), XDG_STATE_HOME=str(self.state),
                        XDG_CONFIG_HOME=str(self.config), NOTIFY_SOCKET=self.notify_path, TZ="UTC")

    @property
    def socket_path(self):
        return str(self.runtime / "remindd" / "control.sock")

    def start(self, *args, wait=True, preexec_fn=None):
        self.notifications.clear()
        self.process = subprocess.Popen([str(self.bin / "remindd"), *args], env=self.env, preexec_fn=preexec_fn,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if wait:
            assert self.wait_notification("READY=1"), f"no READY=1; stderr: {self.stop()}"
        return self.process

    def _listen(self):
        self.notify.settimeout(0.1)
        while self.listening:
            try:
                self.notifications.append(self.notify.recv(4096).decode())
            except (socket.timeout, BlockingIOError):
                continue
            except OSError:
                return

    def read_notifications(self, timeout):
        """Gives the listener `timeout` seconds to collect what was sent."""
        time.sleep(timeout)

    def wait_notification(self, text, timeout=10.0, count=1):
        """Waits until `text` was sent `count` times (default: once); whether it was."""
        def seen():
            return sum(n.count(text) for n in self.notifications) >= count
        deadline = time.time() + timeout
        while True:
            self.read_notifications(0.1)
            if seen():
                return True
            exited = self.process is not None and self.process.poll() is not None
            if exited or time.time() > deadline:
                self.read_notifications(0.05)  # what an exited process sent is still queued
                return seen()

    def ctl(self, *args, check=True):
        result = subprocess.run([str(self.bin / "remindctl"), *args], env=self.env, capture_output=True, text=True)
        if check:
            assert result.returncode == 0, f"remindctl {args}: {result.stderr}{self.exit_note()}"
        return result

    def exit_note(self):
        """What became of the daemon, for a failure's message: nothing while it runs, else its exit status and
        the end of its standard error."""
        if self.process is None or self.process.poll() is None:
            return ""
        return f" (remindd exited with {self.process.returncode}: {self.process.stderr.read()[-2000:]})"

    def ctl_json(self, *args):
        return json.loads(self.ctl(*args, "--json").stdout)

    def user_reminders(self):
        """Names from `remindctl list`, without the built-in weekly rest check-in."""
        return [r["name"] for r in self.ctl_json("list") if r["name"] != "Planning a rest day this week?"]

    def stop(self, sig=15):
        if not self.process or self.process.poll() is not None:
            return self.process.stderr.read() if self.process and not self.process.stderr.closed else ""
        self.process.send_signal(sig)
        _, err = self.process.communicate(timeout=15)
        return err


@pytest.fixture
def daemon(journald, tmp_path):
    d = Daemon(tmp_path)
    yield d
    d.stop()
    d.listening = False
    d.listener.join(timeout=1)
    d.notify.close()


def wait_until(condition, timeout=10.0):
    """Polls `condition` until it gives something true or `timeout` seconds passed; returns what it gave last."""
    deadline = time.time() + timeout
    while True:
        found = condition()
        if found or time.time() > deadline:
            return found
        time.sleep(0.05)


# mount(2) flags for `in_mount_namespace`.
MS_RDONLY, MS_REMOUNT, MS_BIND = 1, 32, 4096


def in_mount_namespace(*mounts):
    """For `preexec_fn`: the child gets a mount namespace of its own (`/` made private, so nothing reaches the
    machine's) in which each `(source, target, fstype, flags)` of `mounts` is mounted in turn."""
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    CLONE_NEWNS, MS_REC, MS_PRIVATE = 0x20000, 16384, 1 << 18
    encoded = lambda text: None if text is None else str(text).encode()

    def enter():
        steps = [lambda: libc.unshare(CLONE_NEWNS), lambda: libc.mount(None, b"/", None, MS_REC | MS_PRIVATE, None)]
        steps += [lambda m=m: libc.mount(encoded(m[0]), encoded(m[1]), encoded(m[2]), m[3], None) for m in mounts]
        for step in steps:
            if step() != 0:
                raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return enter


def after_a_later_firing(ctl, name, seconds, fired):
    """Adds the one-off `name` due `seconds` from now (`ctl(*args)` runs remindctl) and waits until `fired()` says
    it fired. The daemon handles what is due in time order: a check that nothing more happened before it then
    does not pass merely because the daemon was slow (as a fixed sleep did). The one-off is removed after."""
    ctl("add", name, "--in", f"{max(1, math.ceil(seconds))}s")
    assert wait_until(fired, timeout=seconds + 20), f"{name}, due in {seconds:.0f} s, did not fire"
    ctl("remove", name)


@pytest.fixture
def unique_name():
    return f"test-{uuid.uuid4().hex[:10]}"


@pytest.fixture(autouse=True)
def away_from_midnight():
    """Tests reason about "today" (UTC, the zone the daemons run in here). One that would start in the last
    minute of a day waits for the next, so that no test crosses midnight (or the 1st of a month) while it runs."""
    now = utc_now()
    left = 86400 - (now.hour * 3600 + now.minute * 60 + now.second + now.microsecond / 1e6)
    if left < 60:
        time.sleep(left + 1)


def utc_now():
    return dt.datetime.now(dt.timezone.utc)


def _day_safe_zone():
    """A fixed-offset zone (no DST) in which this run starts at about 10:00 (11:00 after 23:00 UTC: no zone is
    13 hours behind), on the same date as in UTC. A reminder's day, and its default window, end at its zone's
    midnight: scheduled in this zone a few seconds ahead, a test's reminder is hours from its day's end whenever
    the run starts (at 23:59:55 UTC too) and meets no DST change. (Etc/GMT-5 is UTC+5.)

    A run that goes on past midnight UTC has that zone on the day before UTC's (as a user whose reminders keep
    another zone may): REMINDD_TEST_DAY_OFFSET (hours east of UTC) sets the zone to try any such moment now."""
    forced = os.environ.get("REMINDD_TEST_DAY_OFFSET")
    offset = int(forced) if forced else max(-12, 10 - utc_now().hour)
    return ("Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}"), dt.timezone(dt.timedelta(hours=offset))


DAY_ZONE, DAY_TZINFO = _day_safe_zone()


def user_day(instant):
    """The date `day` and `today` list `instant` (a datetime, or ISO 8601 ending in Z) on: the user's, in the zone
    the daemons follow here (UTC), whatever a reminder's own zone calls it."""
    if not isinstance(instant, dt.datetime):
        instant = dt.datetime.strptime(instant, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)
    return instant.astimezone(dt.timezone.utc).strftime("%Y-%m-%d")


def time_of_day(instant):
    """`instant`'s (a datetime, or seconds since the epoch) time of day in DAY_ZONE, as `--at` takes it."""
    if not isinstance(instant, dt.datetime):
        instant = dt.datetime.fromtimestamp(instant, dt.timezone.utc)
    return instant.astimezone(DAY_TZINFO).strftime("%H:%M:%S")


def schedule_soon(ctl, name, verb="add", lead=3):
    """Makes `name` a daily reminder in DAY_ZONE at a time about `lead` seconds ahead; returns the time as given
    and the instant (UTC), checked against the next firing the daemon reports. A call so slow that the slot passed
    first leaves the next firing on the following day: then it moves the reminder further ahead and checks again.
    `ctl(*args)` runs remindctl and returns its stdout."""
    for _ in range(5):
        instant = utc_now().replace(microsecond=0) + dt.timedelta(seconds=lead + 1)
        at = time_of_day(instant)
        reminder = json.loads(ctl(verb, name, "--daily", "--at", at, "--tz", DAY_ZONE, "--json"))
        if reminder["next"]["utc"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ"):
            return at, instant
        verb, lead = "update", lead * 2
    raise AssertionError(f"could not schedule {name} ahead of the clock")


def read_line(stream, timeout):
    """One line from a pipe, or "" after `timeout` seconds without one."""
    import select
    ready, _, _ = select.select([stream], [], [], timeout)
    return stream.readline() if ready else ""


class SessionBus:
    """A private `dbus-daemon --session` and, on it, the test notification server (notification_server.py)."""

    def __init__(self, root: pathlib.Path, with_server=True):
        self.address = f"unix:path={root}/bus"
        # No service directories: nothing is started on demand (Debian's notification-daemon would be, and
        # without a display it dies), so a bus without a server stays without one.
        config = root / "bus.conf"
        config.write_text("""<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
""")
        self.daemon = subprocess.Popen(["dbus-daemon", f"--config-file={config}", "--nofork", "--nopidfile", f"--address={self.address}",
                                        "--print-address"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        assert self.daemon.stdout.readline().startswith("unix:"), "dbus-daemon did not start"
        self.calls = []
        self.server = None
        if with_server:
            self.start_server()

    def start_server(self):
        """Starts the notification server on the bus (it takes org.freedesktop.Notifications)."""
        ready = len([c for c in self.calls if c["call"] == "ready"])
        self.server = subprocess.Popen([sys.executable, str(pathlib.Path(__file__).parent / "notification_server.py")],
                                       env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=self.address),
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.reader = threading.Thread(target=self._read, args=(self.server,), daemon=True)
        self.reader.start()
        assert len(self.wait_for(lambda c: c["call"] == "ready", count=ready + 1)) > ready, "the notification server did not start"

    def restart_server(self):
        """The notification server stops (what it showed is gone) and a new one starts, as at a new login."""
        self.server.terminate()
        self.server.wait(timeout=10)
        self.start_server()

    def _read(self, server):
        for line in server.stdout:
            self.calls.append(json.loads(line))

    def wait_for(self, match, count=1, timeout=10.0):
        """The calls the server received that `match`, once there are `count` (or at the timeout)."""
        deadline = time.time() + timeout
        while True:
            found = [c for c in list(self.calls) if match(c)]
            if len(found) >= count or time.time() > deadline:
                return found
            time.sleep(0.05)

    def invoke(self, notification_id, key):
        """The user clicks the action `key` on a notification."""
        self.server.stdin.write(f"invoke {notification_id} {key}\n")
        self.server.stdin.flush()

    def stop(self):
        for process in (self.server, self.daemon):
            if process:
                process.terminate()
                process.wait(timeout=10)


@pytest.fixture
def session_bus(tmp_path):
    bus = SessionBus(tmp_path)
    yield bus
    bus.stop()


FIRED = "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51"
CAUGHT_UP = "c3a95e7d1b2f4068a9e4d0c7b6f21e83"


def db_count(db, sql, *args):
    """The first column of the first row of a query on the store (a reader beside the daemon's writer)."""
    with sqlite3.connect(db, timeout=10) as con:
        return con.execute(sql, args).fetchone()[0]


def add_burst(db, prefix, count, lead):
    """Writes `count` daily reminders named `prefix-N`, all due `lead` seconds from now (the daemon stopped);
    returns the instant they are due (seconds since the epoch)."""
    now = int(time.time())
    due = now + lead
    at = time_of_day(due)
    with sqlite3.connect(db) as con:
        con.executemany("INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES (?, ?, ?, 1, ?, ?)",
                        [(f"{prefix}-{i}", json.dumps({"daily": True, "at": at}), DAY_ZONE, now, now) for i in range(count)])
    return due


def announced_slots(since, prefix):
    """How often each slot (name, scheduled instant) of the reminders named `prefix-...` was announced in the
    journal since `since` (journalctl's form), on time or late."""
    out = subprocess.run(["journalctl", "--no-pager", "-o", "json", "--since", since, f"MESSAGE_ID={FIRED}", f"MESSAGE_ID={CAUGHT_UP}"],
                         capture_output=True, text=True, check=True).stdout
    entries = [json.loads(line) for line in out.splitlines() if prefix in line]
    ours = [e for e in entries if e.get("REMINDER_NAME", "").startswith(prefix + "-")]
    return collections.Counter((e["REMINDER_NAME"], e["SCHEDULED_UTC"]) for e in ours), ours


def khal_config(folder, calendar, name="cal"):
    """A khal configuration in `folder` with one calendar, the vdir `calendar` called `name`, in Europe/Berlin and
    ISO formats; returns its path."""
    config = folder / "khal.conf"
    config.write_text(textwrap.dedent(f"""\
        [calendars]
        [[{name}]]
        path = {calendar}
        [locale]
        timeformat = %H:%M
        dateformat = %Y-%m-%d
        longdateformat = %Y-%m-%d
        datetimeformat = %Y-%m-%d %H:%M
        longdatetimeformat = %Y-%m-%d %H:%M
        local_timezone = Europe/Berlin
        default_timezone = Europe/Berlin
        [default]
        default_calendar = {name}
        """))
    return config
