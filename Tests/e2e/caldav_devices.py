"""Two remindd devices kept in step through a CalDAV server on 127.0.0.1: the server (Radicale or Xandikos, as
the benchmarks start them), each device (a daemon, its linked collection and its vdirsyncer), and the phone (a
CalDAV client on the server directly)."""
import json
import os
import subprocess
import textwrap
import time

import caldav_servers
from conftest import BIN, Daemon, wait_until


class CalDAVServer:
    """A CalDAV server on 127.0.0.1 with a temporary storage folder: Radicale (one user, alice) or Xandikos (no
    accounts of its own: the credentials vdirsyncer and the phone send are not asked for). `home` is where the
    user's calendars are made."""

    def __init__(self, kind, root):
        self.kind, self.log = kind, root / f"{kind}.log"
        self.process, self.home = caldav_servers.server(kind, str(root), str(self.log))
        assert self.process.poll() is None, self.log.read_text()

    def make_calendar(self):
        """A new calendar collection on the server (MKCALENDAR); returns its URL."""
        return caldav_servers.calendar(self.home)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class Device:
    """A remindd daemon with its linked collection and its vdirsyncer configuration."""

    def __init__(self, root, name, calendar_url, journald, sync_command=False, settings=""):
        self.name = name
        self.root = root / name
        self.vdir = self.root / "vdir"
        self.vdir.mkdir(parents=True)
        (self.root / "status").mkdir()
        self.vdirsyncer_config = self.root / "vdirsyncer.conf"
        self.vdirsyncer_config.write_text(textwrap.dedent(f"""\
            [general]
            status_path = "{self.root}/status/"

            [pair remindd]
            a = "local"
            b = "server"
            collections = null
            conflict_resolution = ["command", "{BIN / 'remindctl'}", "resolve-conflict"]

            [storage local]
            type = "filesystem"
            path = "{self.vdir}/"
            fileext = ".ics"

            [storage server]
            type = "caldav"
            url = "{calendar_url}"
            username = "alice"
            password = "secret"
            """))
        self.daemon = Daemon(self.root / "daemon")
        settings = f'collection = "{self.vdir}"\n' + settings
        if sync_command:
            settings += f'sync-command = ["/usr/bin/vdirsyncer", "-c", "{self.vdirsyncer_config}", "sync"]\n'
        (self.daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
        (self.daemon.config / "remindd" / "config.toml").write_text(settings)
        self.vdirsyncer("discover")
        self.daemon.start()
        self.journald = journald

    def vdirsyncer(self, *args):
        ran = subprocess.run(["vdirsyncer", "-c", str(self.vdirsyncer_config), *args], capture_output=True, text=True, timeout=120,
                             env=dict(os.environ, TZ="UTC"))
        assert ran.returncode == 0, ran.stderr
        return ran.stderr

    def sync(self):
        """vdirsyncer syncs, then the daemon's watcher applies what came (within moments)."""
        out = self.vdirsyncer("sync")
        time.sleep(0.5)
        return out

    def ctl(self, *args):
        return self.daemon.ctl(*args).stdout

    def json(self, *args):
        return self.daemon.ctl_json(*args)

    def files(self):
        """Each item's (mtime, inode)."""
        return {p.name: (p.stat().st_mtime_ns, p.stat().st_ino) for p in self.vdir.glob("*.ics")}

    def entries(self, **fields):
        return self.journald.entries(_PID=self.daemon.process.pid, **fields)

    def stop(self):
        self.daemon.stop()
        self.daemon.listening = False
        self.daemon.notify.close()


def sync_all(laptop, desktop):
    laptop.sync()
    desktop.sync()
    laptop.sync()


def settled(*devices):
    """Waits until no device's files change for a second (the daemons applied and published what came)."""
    last = None
    for _ in range(30):
        now = [d.files() for d in devices]
        if now == last:
            return
        last = now
        time.sleep(1)


def same_logs(devices, name):
    """Each device's logs of `name` (their instants), once both list the same (or after 10 s, as they are)."""
    def logs():
        return {d.name: sorted(l["utc"] for l in d.json("log", "list") if l["reminderName"] == name) for d in devices}
    wait_until(lambda: logs()["laptop"] == logs()["desktop"])
    return logs()


def same_reminders(device):
    """What `list --json` says, without what each device numbers or counts itself."""
    return sorted((r["name"], json.dumps(r["rule"], sort_keys=True), r.get("timeZone"), r["enabled"], r.get("windowSeconds"), r.get("repeatSeconds"))
                  for r in device.json("list"))


class PhoneApp:
    """The phone: a CalDAV client on the server directly, as DAVx5 is for a phone's task app."""

    def __init__(self, calendar_url):
        import caldav
        self.calendar = caldav.DAVClient(url=calendar_url, username="alice", password="secret").calendar(url=calendar_url)

    def tasks(self, name):
        """remindd's occurrence tasks of `name`, by their X-REMINDD-OCCURRENCE (UTC)."""
        found = {}
        for todo in self.calendar.todos(include_completed=True):
            text = todo.data
            if "X-REMINDD-OCCURRENCE-OF:" in text and f"SUMMARY:{name}" in text:
                occurrence = next(l for l in text.splitlines() if l.startswith("X-REMINDD-OCCURRENCE:")).split(":", 1)[1].strip()
                found[occurrence] = todo
        return found

    @staticmethod
    def mark(todo, lines):
        """Adds `lines` to the task, as an app marking it does, and saves it on the server."""
        todo.data = todo.data.replace("END:VTODO", "\r\n".join(lines) + "\r\nEND:VTODO")
        todo.save()
