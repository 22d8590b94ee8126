"""Read-only calendars (config.toml's `calendars`): an event written by Debian's khal into a vdir folder remindd
reads fires at its alarm, once, with the calendar's name; a change in the folder applies within moments (inotify,
no polling); the folder is never written."""
import datetime as dt
import os
import subprocess
import time
from zoneinfo import ZoneInfo

from conftest import after_a_later_firing, khal_config, utc_now, wait_until

BERLIN = ZoneInfo("Europe/Berlin")


def test_a_khal_event_with_a_15_minute_alarm_is_announced_15_minutes_before_once(daemon, journald, tmp_path, unique_name):
    calendar = tmp_path / "calendars" / "personal"
    calendar.mkdir(parents=True)
    (daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text(f'calendars = ["{calendar}"]\n')
    daemon.start()
    khal = khal_config(tmp_path, calendar, name="personal")
    name = unique_name

    # khal takes whole minutes: the first minute at least 15 min 5 s ahead, so the alarm comes in 5 to 65 s.
    start = (utc_now() + dt.timedelta(minutes=15, seconds=65)).replace(second=0, microsecond=0).astimezone(BERLIN)
    made = subprocess.run(["khal", "-c", str(khal), "new", "-a", "personal", "-m", "15m", start.strftime("%Y-%m-%d %H:%M"), name],
                          env=dict(daemon.env, XDG_DATA_HOME=str(tmp_path / "data")), capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    written = time.time()
    files = list(calendar.glob("*.ics"))
    assert len(files) == 1
    before = os.stat(files[0])

    def listed():
        return [f for f in daemon.ctl_json("next", "--count", "20") if f["reminderName"] == name]
    firings = wait_until(listed, timeout=10)
    seen_after = time.time() - written
    alarm = (start - dt.timedelta(minutes=15)).astimezone(dt.timezone.utc)
    assert [f["utc"] for f in firings] == [alarm.strftime("%Y-%m-%dT%H:%M:%SZ")]
    assert firings[0]["calendar"] == "personal"
    assert seen_after < 3, f"the new event was listed {seen_after:.2f} s after khal wrote it"
    assert f"{name} [personal]" in daemon.ctl("next", "--count", "20").stdout

    entries = journald.wait_for(timeout=(alarm - utc_now()).total_seconds() + 15, REMINDER_NAME=name, _PID=daemon.process.pid)
    assert [e["REMINDER_ANNOUNCEMENT"] for e in entries] == ["fired"], entries
    assert entries[0]["SCHEDULED_UTC"] == alarm.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert entries[0]["REMINDER_CALENDAR"] == "personal"
    # It says the event's own time, not only the alarm's.
    assert entries[0]["EVENT_UTC"] == start.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"), entries[0]
    assert f"for the event at {start:%a %H:%M}, in 15m)" in entries[0]["MESSAGE"], entries[0]["MESSAGE"]  # in the calendar zone
    assert int(entries[0]["LATE_SECONDS"]) <= 1
    marker = name + "-later"
    after_a_later_firing(daemon.ctl, marker, 2, lambda: journald.entries(REMINDER_NAME=marker, _PID=daemon.process.pid))
    assert len(journald.entries(REMINDER_NAME=name, _PID=daemon.process.pid)) == 1, "announced more than once"

    # Never written by remindd; removed by someone else: its alarm goes.
    after = os.stat(files[0])
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)
    assert sorted(p.name for p in calendar.iterdir()) == [files[0].name]
    files[0].unlink()
    assert wait_until(lambda: name not in daemon.user_reminders(), timeout=10)
