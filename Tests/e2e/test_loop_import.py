"""Importing Loop Habit Tracker's data through the real daemon: its CSV export (Habits.csv and each habit's
Checkmarks.csv, written here with Python's csv module in the columns Loop's exporter writes) and its SQLite
backup (Habits and Repetitions tables, as Loop's database has them), with a numeric habit and skips."""
import csv
import os
import time
import datetime as dt
import sqlite3

import pytest

HABITS_HEADER = ["Position", "Name", "Type", "Question", "Description", "FrequencyNumerator", "FrequencyDenominator", "Color",
                 "Unit", "Target Type", "Target Value", "Archived?"]


def day(n):
    return dt.datetime.now(dt.timezone.utc).date() - dt.timedelta(days=n)


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows(rows)


def csv_export(folder):
    write_csv(folder / "Habits.csv", [
        HABITS_HEADER,
        ["001", "Meditate", "YES_NO", "Did you meditate today?", "", "1", "1", "#E53935", "", "", "", "false"],
        ["002", "Push-ups, morning", "NUMERICAL", "How many?", "", "1", "1", "#3949AB", "reps", "AT_LEAST", "20.0", "false"],
    ])
    (folder / "001 Meditate").mkdir()
    write_csv(folder / "001 Meditate" / "Checkmarks.csv", [
        ["Date", "Value", "Notes"], [day(1).isoformat(), "YES_MANUAL", ""], [day(2).isoformat(), "YES_MANUAL", ""],
        [day(3).isoformat(), "SKIP", ""], [day(4).isoformat(), "YES_MANUAL", ""], [day(5).isoformat(), "NO", ""],
    ])
    (folder / "002 Push-ups morning").mkdir()
    write_csv(folder / "002 Push-ups morning" / "Checkmarks.csv", [
        ["Date", "Value", "Notes"], [day(1).isoformat(), "25000", 'felt good, "strong"'], [day(6).isoformat(), "0", ""],
    ])


def test_the_csv_export_becomes_reminders_logs_and_rest_days(daemon, tmp_path):
    daemon.start()
    folder = tmp_path / "Loop Habits CSV"
    folder.mkdir()
    csv_export(folder)
    out = daemon.ctl("import", "--from", "loop", str(folder)).stdout
    assert out.startswith("Imported from Loop Habit Tracker: 2 reminders, 4 logs, 1 rest day.")
    assert "Push-ups, morning: 1 numeric entry imported as logs; remindd keeps no amounts" in out
    reminders = {r["name"]: r for r in daemon.ctl_json("list")}
    assert not reminders["Meditate"]["enabled"] and not reminders["Push-ups, morning"]["enabled"]  # the CSV has no times
    logs = daemon.ctl_json("log", "list", "--date", day(1).isoformat())
    assert sorted(log["reminderName"] for log in logs) == ["Meditate", "Push-ups, morning"]
    assert [r["date"] for r in daemon.ctl_json("rest", "list")] == [day(3).isoformat()]
    # Days 4, 3 (rest), 2, 1: a streak of four days up to yesterday.
    assert daemon.ctl_json("streak")["current"]["length"] >= 4

    # Nothing is imported twice: the names are taken now, and nothing changes.
    again = daemon.ctl("import", "--from", "loop", str(folder), check=False)
    assert again.returncode == 1 and "a reminder named 'Meditate' already exists" in again.stderr
    assert len(daemon.ctl_json("log", "list", "--date", day(1).isoformat())) == 2


def test_the_sqlite_backup_keeps_reminder_times_and_days(daemon, tmp_path):
    daemon.start()
    db = tmp_path / "Loop Habits Backup.db"
    with sqlite3.connect(db) as con:
        con.executescript("""
            CREATE TABLE Habits (id integer primary key autoincrement, archived integer, color integer, description text,
                freq_den integer, freq_num integer, highlight integer, name text, position integer, reminder_hour integer,
                reminder_min integer, reminder_days integer not null default 127, type integer not null default 0,
                target_type integer not null default 0, target_value real not null default 0, unit text not null default "",
                question text, uuid text);
            CREATE TABLE Repetitions (id integer primary key autoincrement, habit integer not null references Habits(id),
                timestamp integer not null, value integer not null, notes text);
        """)
        # Loop's reminder_days: bit 0 Saturday, 1 Sunday ... 6 Friday; 62 is Sunday to Thursday.
        con.execute("INSERT INTO Habits VALUES (1, 0, 0, '', 1, 1, 0, 'brush teeth', 0, 8, 0, 62, 0, 0, 0, '', '', 'u1')")
        con.execute("INSERT INTO Habits VALUES (2, 0, 0, '', 1, 1, 0, 'Water', 1, NULL, NULL, 127, 1, 0, 2000, 'ml', '', 'u2')")
        midnight = lambda d: int(dt.datetime(d.year, d.month, d.day, tzinfo=dt.timezone.utc).timestamp() * 1000)
        rows = [(1, midnight(day(1)), 2), (1, midnight(day(2)), 3), (1, midnight(day(3)), 2), (2, midnight(day(1)), 1500)]
        con.executemany("INSERT INTO Repetitions (habit, timestamp, value) VALUES (?, ?, ?)", rows)
    reply = daemon.ctl_json("import", "--from", "loop", str(db))
    assert reply["reminders"] == 2 and reply["logs"] == 3 and reply["restDays"] == 1  # day 2: skipped, nothing done
    reminders = {r["name"]: r for r in daemon.ctl_json("list")}
    assert reminders["brush teeth"]["enabled"] and reminders["brush teeth"]["summary"] == "weekly Sun, Mon, Tue, Wed, Thu 08:00"
    assert not reminders["Water"]["enabled"]


def test_files_loop_did_not_write_are_refused_and_nothing_is_imported(daemon, tmp_path):
    daemon.start()
    folder = tmp_path / "not-loop"
    folder.mkdir()
    write_csv(folder / "Habits.csv", [["Position", "Name", "Mood"], ["001", "Walk", "happy"]])
    refused = daemon.ctl("import", "--from", "loop", str(folder), check=False)
    assert refused.returncode == 1
    assert "Habits.csv has a column 'Mood' Loop Habit Tracker does not write" in refused.stderr and "nothing was imported" in refused.stderr
    zipped = tmp_path / "Loop Habits CSV 2026-11-22.zip"
    zipped.write_bytes(b"PK\x03\x04")
    assert "unzip it first" in daemon.ctl("import", "--from", "loop", str(zipped), check=False).stderr
    assert daemon.user_reminders() == []


HOSTILE_LOOP_ROWS = [
    # (what, Habits row values or None for the good one, Repetitions row or None for the good one)
    ("a NULL timestamp", None, (1, None, 2)),
    ("a text timestamp", None, (1, "yesterday", 2)),
    ("the smallest timestamp", None, (1, -9223372036854775808, 2)),
    ("the largest timestamp", None, (1, 9223372036854775807, 2)),
    ("a text value", None, (1, 1767225600000, "done")),
    ("a text habit id", ("one", "Walk", 0, 8, 0, 127, 0), None),
    ("a text type", (1, "Walk", 0, 8, 0, 127, "boolean"), None),
    ("reminder hour 99", (1, "Walk", 0, 99, 0, 127, 0), None),
    ("reminder days -1", (1, "Walk", 0, 8, 0, -1, 0), None),
    ("reminder days 2^62", (1, "Walk", 0, 8, 0, 1 << 62, 0), None),
    ("an empty name", (1, "   ", 0, 8, 0, 127, 0), None),
    ("a digits-only name", (1, "42", 0, 8, 0, 127, 0), None),
    ("a multi-line name", (1, "Walk\nthe dog", 0, 8, 0, 127, 0), None),
    ("a 1 MB name", (1, "x" * 1_000_000, 0, 8, 0, 127, 0), None),
]


def hostile_loop_db(path, habit, repetition):
    """A Loop-shaped backup whose tables carry no constraints (a damaged or hand-made file), with one bad value."""
    with sqlite3.connect(path) as con:
        con.executescript("""
            CREATE TABLE Habits (id, name, position, reminder_hour, reminder_min, reminder_days, type, archived);
            CREATE TABLE Repetitions (habit, timestamp, value);
        """)
        con.execute("INSERT INTO Habits VALUES (?, ?, ?, ?, ?, ?, ?, 0)", habit or (1, "Walk", 0, 8, 0, 127, 0))
        con.execute("INSERT INTO Repetitions VALUES (?, ?, ?)", repetition or (1, 1767225600000, 2))


@pytest.mark.parametrize("what,habit,repetition", HOSTILE_LOOP_ROWS, ids=[case[0] for case in HOSTILE_LOOP_ROWS])
def test_a_hostile_loop_backup_is_refused_with_its_place_and_nothing_is_imported(daemon, tmp_path, what, habit, repetition):
    """Each of these crashed remindd (a trap in GRDB's row decoding), hung the import, or was imported as it was."""
    daemon.start()
    db = tmp_path / "Loop Habits Backup.db"
    hostile_loop_db(db, habit, repetition)
    refused = daemon.ctl("import", "--from", "loop", str(db), check=False)
    assert refused.returncode == 1, f"{what}: imported: {refused.stdout}"
    assert "nothing was imported" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1, refused.stderr
    assert daemon.process.poll() is None, f"{what}: the daemon died"
    assert daemon.user_reminders() == []


def test_a_fifo_or_a_link_to_one_is_refused_at_once(daemon, tmp_path):
    """A FIFO hung the import for 15 s."""
    daemon.start()
    fifo = tmp_path / "backup.db"
    os.mkfifo(fifo)
    link = tmp_path / "link.db"
    link.symlink_to(fifo)
    for path in (fifo, link):
        started = time.monotonic()
        refused = daemon.ctl("import", "--from", "loop", str(path), check=False)
        assert refused.returncode == 1 and "not a regular file or folder" in refused.stderr, refused.stderr
        assert time.monotonic() - started < 5
    assert daemon.user_reminders() == []
