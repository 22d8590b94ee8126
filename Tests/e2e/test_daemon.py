"""The real remindd against the real journald and a real sd_notify socket."""
import datetime as dt
import json
import os
import pathlib
import signal
import socket
import subprocess
import threading
import time

MESSAGE_FIRED = "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51"
MESSAGE_SUPPRESSED = "8d2e6b1f0a9c4e37b5d1c8f3a2e70b64"
MESSAGE_LATE = "c3a95e7d1b2f4068a9e4d0c7b6f21e83"
MESSAGE_MISSED = "a4f7c2e91b3d4e6f8a0c5d2b7e9f1364"

from conftest import (BIN, DAY_TZINFO, DAY_ZONE, in_mount_namespace, read_line, schedule_soon, time_of_day, utc_now,
                      wait_until)


def ctl_out(daemon):
    return lambda *args: daemon.ctl(*args).stdout


def test_ready_and_status_on_the_notify_socket(daemon, unique_name):
    daemon.start()
    # The built-in weekly rest check-in is there from the first start.
    assert any("READY=1" in n and "STATUS=1 reminder, next: Planning a rest day this week? at Sun 08:00" in n for n in daemon.notifications)
    daemon.ctl("add", unique_name, "--weekly", "sun", "--at", "07:00", "--tz", "UTC")
    # Whichever comes first (Sunday 07:00, or the check-in's 08:00 between the two on a Sunday), as the daemon says.
    first = daemon.ctl_json("next", "--count", "1")[0]
    expected = f"{first['reminderName']} at Sun {first['local'][11:16]}"
    assert expected in (f"{unique_name} at Sun 07:00", "Planning a rest day this week? at Sun 08:00")
    assert daemon.wait_notification(f"STATUS=2 reminders, next: {expected}")


def test_reminder_fires_into_the_journal_on_time(daemon, unique_name):
    daemon.start()
    at, instant = schedule_soon(ctl_out(daemon), unique_name)
    entries = daemon_journal_wait(REMINDER_NAME=unique_name)
    assert len(entries) == 1
    entry = entries[0]
    assert entry["SYSLOG_IDENTIFIER"] == "remindd"
    assert entry["PRIORITY"] == "5"
    assert entry["MESSAGE_ID"] == MESSAGE_FIRED
    shown = at[:5] if at.endswith(":00") else at  # times show seconds only when they are not zero
    assert entry["MESSAGE"] == f"Reminder: {unique_name} (daily, {instant.astimezone(DAY_TZINFO).strftime('%a')} {shown})"
    assert entry["REMINDER_SLOT"] == f"reminder-{entry['REMINDER_ID']}-{shown.replace(':', '-')}"
    assert entry["SCHEDULED_UTC"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert int(entry["LATE_SECONDS"]) == 0
    # Delivered within a second of the scheduled instant (journald's own receive timestamp).
    received = int(entry["__REALTIME_TIMESTAMP"]) / 1e6
    assert 0 <= received - instant.timestamp() < 1.0, received - instant.timestamp()
    assert entry["FIRED_UTC"] == entry["SCHEDULED_UTC"]


def test_without_journald_every_entry_goes_to_stderr(daemon, unique_name):
    """With no journal socket (a container, a terminal on a system without journald) the daemon's entries, a
    firing's among them, go to stderr with their priority: before, libsystemd's sd_journal_sendv reported such
    entries as sent, and they were lost."""
    daemon.start(preexec_fn=in_mount_namespace(("none", "/run/systemd/journal", "tmpfs", 0)))  # journald's socket gone
    at, instant = schedule_soon(ctl_out(daemon), unique_name)
    shown = at[:5] if at.endswith(":00") else at
    fired = f"<5>Reminder: {unique_name} (daily, {instant.astimezone(DAY_TZINFO).strftime('%a')} {shown})"
    lines = []
    reader = threading.Thread(target=lambda: lines.extend(line.rstrip("\n") for line in daemon.process.stderr), daemon=True)
    reader.start()
    assert wait_until(lambda: fired in lines, timeout=15), lines
    assert any(line.startswith("<6>remindd started: ") for line in lines), lines
    daemon.process.terminate()
    daemon.process.wait(timeout=15)
    reader.join(timeout=5)
    assert lines[-1] == "<6>remindd stopped", lines


def daemon_journal_wait(**fields):
    from conftest import Journal
    return Journal().wait_for(timeout=10, **fields)


def test_an_occurrence_left_alone_is_missed_when_its_window_closes(daemon, unique_name):
    """Fired, nothing logged, its 3-second window closes: the journal says missed (its own MESSAGE_ID), at the
    window's end, and the history shows it; a reminder logged in its window is not missed."""
    daemon.start()
    taken = unique_name + "-taken"
    _, instant = schedule_soon(ctl_out(daemon), unique_name)
    daemon.ctl("update", unique_name, "--window", "3s")
    assert "window:    3s after each occurrence" in daemon.ctl("show", unique_name).stdout
    _, taken_at = schedule_soon(ctl_out(daemon), taken)
    daemon.ctl("update", taken, "--window", "3s")
    assert daemon_journal_wait(REMINDER_NAME=taken, MESSAGE_ID=MESSAGE_FIRED)
    # Logged after the firing's second (a log in that very second counts as ahead of it: the store keeps seconds).
    time.sleep(max(0.0, taken_at.timestamp() + 1.1 - time.time()))
    daemon.ctl("log", taken)
    entries = daemon_journal_wait(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_MISSED)
    assert len(entries) == 1
    entry = entries[0]
    window_end = instant + dt.timedelta(seconds=3)
    assert entry["SCHEDULED_UTC"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert entry["WINDOW_END_UTC"] == window_end.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert entry["REMINDER_STATE"] == "missed" and entry["PRIORITY"] == "5"
    # In the reminder's zone; seconds only when not zero.
    closed = window_end.astimezone(DAY_TZINFO).strftime("%a %H:%M" if window_end.second == 0 else "%a %H:%M:%S")
    assert entry["MESSAGE"].startswith(f"Missed: {unique_name} (daily, ") and entry["MESSAGE"].endswith(f"nothing logged by {closed}")
    assert abs(int(entry["__REALTIME_TIMESTAMP"]) / 1e6 - window_end.timestamp()) < 1.0
    kinds = [h["kind"] for h in reversed(daemon.ctl_json("history", "--reminder", unique_name))]
    assert kinds == ["fired", "missed"]
    time.sleep(max(0.0, (taken_at + dt.timedelta(seconds=4)).timestamp() - time.time()))
    # Taken, never missed: the story is the firing, then the log that took it.
    assert [h["kind"] for h in daemon.ctl_json("history", "--reminder", taken)] == ["taken", "fired"]


def test_today_shows_each_occurrence_with_its_state(daemon, unique_name):
    """`remindctl today` answers "did I take it?": a fired and logged occurrence is taken (with the log's time),
    one still ahead is upcoming; the JSON has the same."""
    daemon.start()
    _, instant = schedule_soon(ctl_out(daemon), unique_name)
    assert daemon_journal_wait(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    # A log in the occurrence's own second counts as before it (the suppression rule): log in the next.
    time.sleep(max(0.0, instant.timestamp() + 1 - time.time()))
    daemon.ctl("log", unique_name)
    ahead = unique_name + "-later"
    later = utc_now() + dt.timedelta(hours=1)
    if later.date() == utc_now().date():
        daemon.ctl("add", ahead, "--daily", "--at", time_of_day(later), "--tz", DAY_ZONE)
    report = daemon.ctl_json("today")
    mine = {o["reminderName"]: o for o in report["occurrences"] if o["reminderName"].startswith(unique_name)}
    assert mine[unique_name]["state"] == "taken" and mine[unique_name]["utc"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    if later.date() == utc_now().date():
        assert mine[ahead]["state"] == "upcoming"
    assert {"food", "workouts", "consumed", "burned", "net"} <= set(report)
    text = daemon.ctl("today").stdout
    logged = dt.datetime.strptime(mine[unique_name]["loggedUtc"], "%Y-%m-%dT%H:%M:%SZ")
    shown = instant.strftime("%H:%M") if instant.second == 0 else instant.strftime("%H:%M:%S")
    row = [line for line in text.splitlines() if unique_name in line and "later" not in line]
    assert len(row) == 1 and row[0].split()[0] == shown and row[0].rstrip().endswith(
        f"taken (logged {logged.strftime('%H:%M') if logged.second == 0 else logged.strftime('%H:%M:%S')})"), text
    # Below a taken dose, what the day has none of is named ("Nothing logged" contradicted the row above).
    assert "Nothing logged" not in text and "No food or workouts logged on" in text, text


def test_logged_intake_suppresses_at_debug_priority(daemon, unique_name):
    daemon.start()
    # Logged first, then moved to a time just ahead: the log is there before the slot, however slow the calls.
    daemon.ctl("add", unique_name, "--daily", "--at", "23:59:59", "--tz", "UTC")
    daemon.ctl("log", unique_name)
    schedule_soon(ctl_out(daemon), unique_name, verb="update")
    entries = daemon_journal_wait(REMINDER_NAME=unique_name)
    assert [e["MESSAGE_ID"] for e in entries] == [MESSAGE_SUPPRESSED]
    assert entries[0]["PRIORITY"] == "7"
    assert "already logged 1 time today" in entries[0]["MESSAGE"]
    history = daemon.ctl_json("history", "--reminder", unique_name)
    assert [h["kind"] for h in history] == ["suppressed", "logged-ahead"]  # newest first: the log came before


def test_missed_slots_fire_once_late_after_restart(daemon, unique_name):
    """Three slots passed while the daemon was down: one journal entry, late, with the count."""
    daemon.start()
    now = utc_now().replace(microsecond=0)
    slots = [now - dt.timedelta(hours=h) for h in (3, 2, 1)]
    daemon.ctl("add", unique_name, "--daily", "--at", ",".join(time_of_day(s) for s in slots), "--tz", DAY_ZONE)
    daemon.stop()
    # As if the daemon had been down for four hours: everything after that instant is unhandled.
    db = daemon.state / "remindd" / "remindd.sqlite"
    subprocess.run(["sqlite3", str(db), f"UPDATE reminder SET handledThrough = {int(now.timestamp()) - 4 * 3600} WHERE name = '{unique_name}'"], check=True)
    daemon.start()
    entries = daemon_journal_wait(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_LATE)
    assert len(entries) == 1, [e["MESSAGE"] for e in entries]
    entry = entries[0]
    assert entry["PRIORITY"] == "5"
    assert entry["REMINDER_SLOTS_DUE"] == "3"
    assert entry["SCHEDULED_UTC"] == slots[-1].strftime("%Y-%m-%dT%H:%M:%SZ")
    late = int(entry["LATE_SECONDS"])
    assert late >= 3600 and late == (dt.datetime.strptime(entry["FIRED_UTC"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc) - slots[-1]).total_seconds()
    assert "late by 1h" in entry["MESSAGE"] and "(missed 3 times)" in entry["MESSAGE"]
    # And a second restart repeats nothing.
    time.sleep(1)
    before = len(daemon_journal_wait(REMINDER_NAME=unique_name))
    daemon.stop()
    daemon.start()
    kinds = [h["kind"] for h in daemon.ctl_json("history", "--reminder", unique_name)]
    assert [k for k in kinds if k != "missed"] == ["late"] and kinds.count("missed") <= 1, kinds
    assert len(daemon_journal_wait(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_LATE)) == 1
    time.sleep(1)
    assert len(daemon_journal_wait(REMINDER_NAME=unique_name)) == before


def test_bad_config_names_key_and_line(daemon):
    (daemon.config / "remindd").mkdir()
    (daemon.config / "remindd" / "config.toml").write_text('# settings\ncatch-up = true\ncolour = "blue"\n')
    daemon.start(wait=False)
    assert daemon.process.wait(timeout=10) != 0
    err = daemon.process.stderr.read().strip()
    assert err.endswith("config.toml:3: unknown key 'colour'; known keys: time-zone, catch-up, socket, log-level, day-start, grace-minutes, morning, retention-days, on-fire, on-missed, notifications, dose-sound, reminder-sound, quiet-hours, speak, collection, sync-command, sync-interval, sync-wait, collection-mode, occurrence-window, calendars")


def test_a_config_path_that_is_a_directory_is_refused(daemon):
    (daemon.config / "remindd" / "config.toml").mkdir(parents=True)
    daemon.start(wait=False)
    assert daemon.process.wait(timeout=10) == 1
    err = daemon.process.stderr.read().strip()
    assert err.endswith("config.toml is a directory, not a config file: remove it, or put the settings in a file there"), err


def test_sigterm_sends_stopping_and_exits_cleanly(daemon):
    daemon.start()
    daemon.process.send_signal(signal.SIGTERM)
    assert daemon.process.wait(timeout=10) == 0
    assert daemon.wait_notification("STOPPING=1", timeout=2)
    # The store was closed: its WAL was checkpointed into the database file.
    wal = daemon.state / "remindd" / "remindd.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0


def test_sighup_reloads_with_reloading_then_ready(daemon):
    daemon.start()
    daemon.notifications.clear()
    daemon.process.send_signal(signal.SIGHUP)
    assert daemon.wait_notification("RELOADING=1")
    assert daemon.wait_notification("READY=1")
    assert daemon.process.poll() is None


def test_sighup_with_a_bad_zone_keeps_the_schedule(daemon, unique_name):
    """A file start-up would refuse is refused at reload too, and nothing changes (it used to empty the schedule)."""
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00")
    before = daemon.ctl_json("status")
    config = daemon.config / "remindd" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text('time-zone = "Nowhere/Atlantis"\n')
    check = subprocess.run([str(BIN / "remindd"), "--check-config"], env=daemon.env, capture_output=True, text=True)
    assert check.returncode == 1 and "config.toml: time-zone:" in check.stderr, check.stderr
    daemon.notifications.clear()
    daemon.process.send_signal(signal.SIGHUP)
    assert daemon.wait_notification("READY=1")
    after = daemon.ctl_json("status")
    # Still both reminders planned (the refused reload used to leave "0 reminders, none scheduled"). The next
    # firing itself may have moved on meanwhile (a run across 08:00), so it is not compared.
    assert after["reminders"] == before["reminders"] == 2
    assert after["status"].startswith("2 reminders, next:") and after["next"] is not None
    assert daemon_journal_wait(MESSAGE="Reload failed, keeping the previous configuration: " + str(config) + ": time-zone: "
                               + check.stderr.split("time-zone: ", 1)[1].strip()), "no 'Reload failed' entry"
    config.write_text('time-zone = "Asia/Tokyo"\n')
    check = subprocess.run([str(BIN / "remindd"), "--check-config"], env=daemon.env, capture_output=True, text=True)
    assert check.returncode == 0 and check.stdout.strip() == f"{config}: OK"


def test_daemon_not_running_is_one_line(remindctl, tmp_path):
    env = dict(os.environ, XDG_RUNTIME_DIR=str(tmp_path))
    result = subprocess.run([remindctl, "list"], env=env, capture_output=True, text=True)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        f"Error: remindd is not running (nothing listens on {tmp_path}/remindd/control.sock): start it with 'systemctl --user enable --now remindd.socket remindd.service'"]




def cpu_seconds(pid):
    """User plus system CPU time the process has used so far (/proc/PID/stat)."""
    fields = pathlib.Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_at_the_open_file_limit_the_daemon_idles_refuses_fires_and_recovers(daemon, journald, unique_name):
    """Connections beyond the open-file limit: instead of retrying accept at a full core, the daemon refuses
    the waiting ones at once with a reason, a firing still reaches the journal with its fields, the journal
    says why (once), and once connections close it answers again."""
    import resource
    daemon.start(preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64)))
    _, instant = schedule_soon(ctl_out(daemon), unique_name, lead=6)
    held = []
    try:
        for _ in range(300):  # far more than 64 descriptors
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.connect(daemon.socket_path)
            held.append(client)
        time.sleep(0.5)
        before = cpu_seconds(daemon.process.pid)
        time.sleep(2)
        assert cpu_seconds(daemon.process.pid) - before < 0.2, "the daemon spins at the open-file limit"
        result = daemon.ctl("status", check=False)
        assert result.returncode == 1 and "out of file descriptors: try again later" in result.stderr, result.stderr
        entries = daemon_journal_wait(REMINDER_NAME=unique_name)
        assert [e["MESSAGE_ID"] for e in entries] == [MESSAGE_FIRED]
        assert entries[0]["SCHEDULED_UTC"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    finally:
        for client in held:
            client.close()
    # Said once (the firing's sound may not have been played either, at 64 descriptors: said apart).
    warnings = [e["MESSAGE"] for e in journald.entries(_PID=str(daemon.process.pid), PRIORITY="4") if "sound" not in e["MESSAGE"]]
    assert len(warnings) == 1 and "out of file descriptors (limit 64)" in warnings[0], warnings
    deadline = time.time() + 10
    while (result := daemon.ctl("status", "--json", check=False)).returncode != 0 and time.time() < deadline:
        time.sleep(0.2)
    assert json.loads(result.stdout)["reminders"] == 2


def test_remindctl_gives_up_on_a_daemon_that_does_not_accept(remindctl, tmp_path):
    """A daemon that listens but never accepts (hung, or its queue full): remindctl stops waiting after 10 s
    with a one-line reason instead of hanging."""
    runtime = tmp_path / "runtime"
    (runtime / "remindd").mkdir(parents=True, mode=0o700)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(runtime / "remindd" / "control.sock"))
    listener.listen(0)
    queued = []
    try:
        while True:  # fill the queue
            client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            client.setblocking(False)
            try:
                client.connect(str(runtime / "remindd" / "control.sock"))
            except BlockingIOError:
                client.close()
                break
            queued.append(client)
        started = time.monotonic()
        result = subprocess.run([remindctl, "status"], env=dict(os.environ, XDG_RUNTIME_DIR=str(runtime)),
                                capture_output=True, text=True, timeout=30)
        waited = time.monotonic() - started
    finally:
        for client in queued:
            client.close()
        listener.close()
    assert result.returncode == 1 and 9.5 < waited < 15, (waited, result.stderr)
    assert result.stderr.strip() == ("Error: remindd did not accept the connection within 10 s (too many open connections?): "
                                     "try again, and see 'journalctl --user -u remindd'")


def test_a_tzdata_update_while_running_replans_by_the_new_rules(daemon, journald, unique_name, tmp_path):
    """The zone files change under the running daemon (as a tzdata upgrade writes them): its inotify watch
    notices, it reads the zone again, and the reminder's next firing follows the new rules."""
    import shutil
    from zoneinfo import ZoneInfo

    def next_nine(zone, at):
        now = at.astimezone(ZoneInfo(zone))
        nine = now.replace(hour=9, minute=0, second=0, microsecond=0)
        nine = nine if nine > now else (now + dt.timedelta(days=1)).replace(hour=9, minute=0, second=0, microsecond=0)
        return nine.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    zoneinfo = tmp_path / "zoneinfo"
    shutil.copytree("/usr/share/zoneinfo", zoneinfo, symlinks=True)
    daemon.env["TZDIR"] = str(zoneinfo)
    daemon.start()
    before = utc_now()
    added = daemon.ctl_json("add", unique_name, "--daily", "--at", "09:00", "--tz", "Europe/Berlin")
    assert added["next"]["utc"] in {next_nine("Europe/Berlin", before), next_nine("Europe/Berlin", utc_now())}
    # The upgrade: Berlin's file now holds other rules (Tokyo's), unpacked beside it and renamed over it.
    shutil.copyfile("/usr/share/zoneinfo/Asia/Tokyo", zoneinfo / "Europe" / "Berlin.dpkg-new")
    os.rename(zoneinfo / "Europe" / "Berlin.dpkg-new", zoneinfo / "Europe" / "Berlin")
    assert journald.wait_for(_PID=str(daemon.process.pid),
                             MESSAGE="Time zone data changed (a tzdata update): 2 reminders re-planned with the new rules")
    before = utc_now()
    shown = [r for r in daemon.ctl_json("list") if r["name"] == unique_name][0]
    assert shown["next"]["utc"] in {next_nine("Asia/Tokyo", before), next_nine("Asia/Tokyo", utc_now())}


def test_watchdog_pings_at_half_the_interval(daemon):
    daemon.env["WATCHDOG_USEC"] = "600000"  # 0.6 s: pings every 0.3 s
    daemon.start()
    daemon.notifications.clear()
    started = time.monotonic()
    assert daemon.wait_notification("WATCHDOG=1", timeout=10, count=4)
    elapsed = time.monotonic() - started
    pings = sum(n.count("WATCHDOG=1") for n in daemon.notifications)
    # At least 4 pings came (waited for), and not faster than every 0.3 s (the first one at once).
    assert pings <= elapsed / 0.3 + 2, (pings, elapsed)


def test_no_watchdog_when_it_is_not_for_this_process(daemon):
    """WATCHDOG_USEC for another process (WATCHDOG_PID not ours, as sd_watchdog_enabled reads it): no ping in 2 s,
    where the same interval for this process gives one every 0.3 s (the test above). Without WATCHDOG_USEC, none."""
    daemon.env["WATCHDOG_USEC"] = "600000"
    daemon.env["WATCHDOG_PID"] = "1"
    daemon.start()
    daemon.read_notifications(2)
    assert not any("WATCHDOG=1" in n for n in daemon.notifications), daemon.notifications
    daemon.stop()
    del daemon.env["WATCHDOG_USEC"], daemon.env["WATCHDOG_PID"]
    daemon.start()
    daemon.read_notifications(2)
    assert not any("WATCHDOG=1" in n for n in daemon.notifications), daemon.notifications


def test_watch_streams_firings(daemon, unique_name):
    daemon.start()
    watcher = subprocess.Popen([str(BIN / "remindctl"), "watch", "--json"], env=daemon.env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _, instant = schedule_soon(ctl_out(daemon), unique_name)
        line = read_line(watcher.stdout, timeout=30)
        assert line, f"no Watch line; stderr: {watcher.stderr.read() if watcher.poll() is not None else ''}"
        entry = json.loads(line)
        assert entry["reminderName"] == unique_name and entry["kind"] == "fired"
        assert entry["scheduledUtc"] == instant.strftime("%Y-%m-%dT%H:%M:%SZ")
    finally:
        watcher.terminate()
        watcher.wait(timeout=5)


def test_watch_keeps_streaming_across_a_daemon_restart(daemon, unique_name):
    daemon.start()
    watcher = subprocess.Popen([str(BIN / "remindctl"), "watch", "--json"], env=daemon.env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        schedule_soon(ctl_out(daemon), unique_name)
        first = read_line(watcher.stdout, timeout=30)
        assert first and json.loads(first)["reminderName"] == unique_name
        daemon.stop()
        assert read_line(watcher.stderr, timeout=10).startswith("remindctl: lost the connection to remindd (")
        assert watcher.poll() is None
        daemon.start()
        assert read_line(watcher.stderr, timeout=15) is not None  # "still no connection ..." or "connected again"
        second_name = unique_name + "-2"
        schedule_soon(ctl_out(daemon), second_name)
        second = read_line(watcher.stdout, timeout=30)
        assert second and json.loads(second)["reminderName"] == second_name, second
        assert watcher.poll() is None
    finally:
        watcher.terminate()
        watcher.wait(timeout=5)


def test_watch_exit_on_disconnect_exits_with_status_1(daemon):
    daemon.start()
    watcher = subprocess.Popen([str(BIN / "remindctl"), "watch", "--exit-on-disconnect"], env=daemon.env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(0.5)  # connected by then, or it finds nothing listening: either way it must exit 1, not wait
    daemon.stop()
    assert watcher.wait(timeout=10) == 1
    err = watcher.stderr.read()
    assert "the daemon closed the connection" in err or "remindd is not running" in err, err
