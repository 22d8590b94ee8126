"""Closing the loop with the real daemon and journald: repeats until acknowledged, missed at the window's end,
a deleted log restoring a dose, and command hooks run for real. (A snooze cancelled by a log is checked on the
manual clock: `aLogCancelsThePendingSnooze`; here it cost a minute's wait.)"""
import datetime as dt
import json
import stat
import subprocess
import time

from conftest import DAY_ZONE, Journal, time_of_day, utc_now

MESSAGE_FIRED = "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51"
MESSAGE_MISSED = "a4f7c2e91b3d4e6f8a0c5d2b7e9f1364"
MESSAGE_REPEATED = "9026fcce3c2c43b3b73395c2f9e692b0"
MESSAGE_ACKNOWLEDGED = "928c3235a708446db5a3937c92d50a94"


def utc(instant):
    return instant.strftime("%Y-%m-%dT%H:%M:%SZ")


def received(entry):
    return int(entry["__REALTIME_TIMESTAMP"]) / 1e6


def sleep_until(instant):
    time.sleep(max(0.0, instant.timestamp() - time.time()))


def add_soon(daemon, name, *flags, lead=4):
    """Adds `name` with `flags` and a first occurrence about `lead` seconds ahead (--start or --at as the flags
    need; `{}` is its time of day in DAY_ZONE, hours from that zone's midnight), checked against what the daemon
    reports; returns the reminder and that instant (UTC)."""
    for _ in range(5):
        instant = utc_now().replace(microsecond=0) + dt.timedelta(seconds=lead)
        reminder = json.loads(daemon.ctl("add", name, *[f.format(time_of_day(instant)) for f in flags], "--tz", DAY_ZONE, "--json").stdout)
        if reminder["next"]["utc"] == utc(instant):
            return reminder, instant
        daemon.ctl("remove", name)
        lead *= 2
    raise AssertionError(f"could not schedule {name} ahead of the clock")


def test_twice_a_day_with_repeats_left_alone_is_repeated_then_missed(daemon, unique_name):
    """The issue's example at the speed of a test (2 s repeats, a 7 s window): announced, repeated twice (its
    maximum), recorded missed when the window closes; the journal and `today` say missed."""
    daemon.start()
    reminder, instant = add_soon(daemon, unique_name, "--preset", "Twice a Day", "--start", "{}", "--repeat", "2s", "--repeat-max", "2",
                                 "--window", "7s")
    assert reminder["repeatSeconds"] == 2 and reminder["repeatMax"] == 2
    journal = Journal()
    missed = journal.wait_for(timeout=15, REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_MISSED)
    assert len(missed) == 1 and missed[0]["SCHEDULED_UTC"] == utc(instant)
    assert missed[0]["WINDOW_END_UTC"] == utc(instant + dt.timedelta(seconds=7))
    fired = journal.entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    repeats = journal.entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_REPEATED)
    assert len(fired) == 1 and [r["REMINDER_REPEAT"] for r in repeats] == ["1", "2"]
    for entry, seconds in zip(fired + repeats + missed, [0, 2, 4, 7]):
        assert 0 <= received(entry) - instant.timestamp() - seconds < 1.0, (entry["MESSAGE"], received(entry) - instant.timestamp())
    assert repeats[0]["MESSAGE"].startswith(f"Reminder (repeat 1, still not taken): {unique_name} (twice a day, ")
    today = daemon.ctl_json("today")
    assert [o["state"] for o in today["occurrences"] if o["reminderName"] == unique_name][:1] == ["missed"]
    assert "missed" in [line.split()[-1] for line in daemon.ctl("today").stdout.splitlines() if unique_name in line]


def test_logging_twice_then_deleting_the_log_restores_the_second_dose(daemon, unique_name):
    """Two doses a few seconds apart; the first is logged twice by mistake, which suppresses the second.
    `log list` shows it; `log delete` of the extra log brings the second dose back, and it fires."""
    daemon.start()
    for _ in range(5):
        first = utc_now().replace(microsecond=0) + dt.timedelta(seconds=4)
        second = first + dt.timedelta(seconds=6)
        times = ",".join(time_of_day(t) for t in (first, second))
        reminder = daemon.ctl_json("add", unique_name, "--daily", "--at", times, "--tz", DAY_ZONE)
        if reminder["next"]["utc"] == utc(first):
            break
        daemon.ctl("remove", unique_name)
    journal = Journal()
    assert journal.wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    sleep_until(first + dt.timedelta(seconds=1))
    daemon.ctl("log", unique_name)
    daemon.ctl("log", unique_name)
    logs = daemon.ctl_json("log", "list", "--reminder", unique_name)
    assert [bool(l.get("takes")) for l in logs] == [True, False]
    assert dt.datetime.fromisoformat(logs[1]["suppresses"]) == second
    table = daemon.ctl("log", "list").stdout
    # The table writes a time on the minute without its seconds (00:37, not 00:37:00).
    shown = second.strftime("%H:%M" if second.second == 0 else "%H:%M:%S")
    assert f"suppresses {shown}" in table, table
    out = daemon.ctl("log", "delete", str(logs[1]["id"])).stdout
    assert "will be announced again" in out, out
    missing = daemon.ctl("log", "delete", str(logs[1]["id"]), check=False)
    assert missing.returncode == 1 and "no log with id" in missing.stderr
    fired = journal.wait_for(timeout=15, count=2, REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    assert [e["SCHEDULED_UTC"] for e in fired] == [utc(first), utc(second)]


def test_done_skip_and_bad_input_are_one_line(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "23:59:59", "--tz", "UTC")
    for args, hint in [
        (["done", unique_name], "to record an intake anyway, run remindctl log"),
        (["done", "no-such-reminder"], "no reminder 'no-such-reminder'"),
        (["add", unique_name + "x", "--daily", "--at", "08:00", "--repeat", "0s"], "invalid --repeat '0s'"),
        (["add", unique_name + "x", "--daily", "--at", "08:00", "--repeat", "25h"], "invalid --repeat '25h'"),
        (["add", unique_name + "x", "--daily", "--at", "08:00", "--window", "0m"], "invalid --window '0m'"),
        (["add", unique_name + "x", "--daily", "--at", "08:00", "--exec", "/nonexistent/hook"], "'/nonexistent/hook' does not exist"),
        (["log", "delete", "999999"], "no log with id 999999"),
    ]:
        result = daemon.ctl(*args, check=False)
        assert result.returncode == 1 and hint in result.stderr and len(result.stderr.strip().splitlines()) == 1, (args, result.stderr)
    assert unique_name + "x" not in daemon.user_reminders()
    skipped = daemon.ctl("skip", unique_name, "--reason", "travelling")
    assert skipped.stdout.startswith(f"Skipped {unique_name} at ") and skipped.stdout.strip().endswith(": travelling")
    # Nothing was due (23:59:59 is ahead): the next one was skipped, said on stderr with how to undo it.
    assert f'undo it with: remindctl unskip "{unique_name}"' in skipped.stderr, skipped.stderr
    unskipped = daemon.ctl("unskip", unique_name).stdout
    assert unskipped.startswith(f"Unskipped {unique_name} at ") and unskipped.strip().endswith("it is announced at its time"), unskipped
    assert skipped.stdout.split(" at ", 1)[1].split(": ", 1)[0] in unskipped
    again = daemon.ctl("unskip", unique_name, check=False)
    assert again.returncode == 1 and "ahead is skipped" in again.stderr and len(again.stderr.strip().splitlines()) == 1, again.stderr


def write_script(path, body):
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_hooks_run_with_the_reminder_in_their_environment(daemon, unique_name, tmp_path):
    """The config's on-fire and the reminder's --exec both run at the firing, without a shell, with the
    reminder in their environment; what they print is in the journal; a hook that hangs does not hold up the
    next firing."""
    hook = write_script(tmp_path / "hook.sh", 'env > "$1-$REMINDER_ID.env"; echo "hook ran for $REMINDER_NAME"')
    hang = write_script(tmp_path / "hang.sh", "sleep 1000")
    config = daemon.config / "remindd" / "config.toml"
    config.parent.mkdir(exist_ok=True)
    config.write_text(f'on-fire = ["{hook}", "{tmp_path}/on-fire"]\n')
    daemon.start()
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--exec", f"{hang} 'an argument'")
    assert reminder["command"] == [hang, "an argument"]
    later = unique_name + "-later"
    added_later, _ = add_soon(daemon, later, "--daily", "--at", "{}", "--exec", f"{hook} {tmp_path}/exec", lead=7)
    journal = Journal()
    fired = journal.wait_for(timeout=15, REMINDER_NAME=later, MESSAGE_ID=MESSAGE_FIRED)
    assert fired and int(fired[0]["LATE_SECONDS"]) == 0  # the hanging hook of the first did not hold it up
    for name, file in [(unique_name, f"on-fire-{reminder['id']}.env"), (later, f"on-fire-{added_later['id']}.env"),
                       (later, f"exec-{added_later['id']}.env")]:
        path = tmp_path / file
        for _ in range(100):
            if path.exists() and "REMINDER_STATE" in path.read_text():
                break
            time.sleep(0.1)
        env = dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)
        entry = journal.entries(REMINDER_NAME=name, MESSAGE_ID=MESSAGE_FIRED)[0]
        assert env["REMINDER_ID"] == entry["REMINDER_ID"] and env["REMINDER_SLOT"] == entry["REMINDER_SLOT"]
        assert env["SCHEDULED_UTC"] == entry["SCHEDULED_UTC"] and env["FIRED_UTC"] == entry["FIRED_UTC"]
        assert env["REMINDER_STATE"] == "due"
    assert journal.wait_for(SYSLOG_IDENTIFIER="remindd-hook", MESSAGE=f"hook ran for {later}")
    # A bad on-fire path is refused by --check-config (and so by reload), with the reason.
    config.write_text('on-fire = ["/nonexistent/hook"]\n')
    check = subprocess.run([str(daemon.process.args[0]), "--check-config"], env=daemon.env, capture_output=True, text=True)
    assert check.returncode == 1 and "on-fire: '/nonexistent/hook' does not exist" in check.stderr, check.stderr


def test_history_tells_the_whole_story_and_calories_have_their_own_command(daemon, unique_name):
    """`history` had no taken rows and became a calorie table with --from. Now a fired occurrence and the log that
    took it are both there, newest first, with the occurrence on the user's clock; calories are `calories`,
    and the old `history --from` still answers, saying where it went."""
    daemon.start()
    _, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}")
    journal = Journal()
    assert journal.wait_for(timeout=15, REMINDER_NAME=unique_name), "it did not fire"
    # A log in the firing's own second counts as logged ahead of it (the store keeps seconds): log after it.
    time.sleep(max(0.0, instant.timestamp() + 1.1 - time.time()))
    daemon.ctl("log", unique_name)
    entries = [e for e in daemon.ctl_json("history", "--reminder", unique_name) if e["reminderName"] == unique_name]
    assert [e["kind"] for e in entries] == ["taken", "fired"], entries
    assert entries[0]["scheduledUtc"] == entries[1]["scheduledUtc"] == utc(instant)
    text = daemon.ctl("history", "--reminder", unique_name).stdout.splitlines()
    assert text[0].split()[:2] == ["WHEN", "WHAT"], text
    shown = instant.strftime("%H:%M" if instant.second == 0 else "%H:%M:%S")  # seconds only when not zero
    assert " taken " in f" {text[1]} " and f" {shown} " in text[1], text
    today = daemon.ctl_json("day")["date"]
    assert daemon.ctl_json("calories", "--from", today)[0]["date"] == today
    old = daemon.ctl("history", "--from", today)
    assert "'history --from' is now 'remindctl calories --from'" in old.stderr and old.stdout == daemon.ctl("calories", "--from", today).stdout


def test_the_status_bar_line_says_what_is_due(daemon, unique_name):
    """remindctl status --format waybar against the real daemon: idle before the dose, due once it fired, one
    JSON line each time."""
    daemon.start()
    _, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "500mg", "--window", "1h")
    before = json.loads(daemon.ctl("status", "--format", "waybar").stdout)
    assert before["class"] == "idle" and before["text"].startswith(unique_name), before
    assert Journal().wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
    out = daemon.ctl("status", "--format", "waybar").stdout
    assert out.count("\n") == 1, out
    due = json.loads(out)
    assert due["class"] == "due" and due["text"] == f"⏰ {unique_name} 500 mg", due
    daemon.ctl("done", unique_name)
    assert json.loads(daemon.ctl("status", "--format", "waybar").stdout)["class"] == "idle"
