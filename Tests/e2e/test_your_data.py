"""Your data out and in through the real daemon and remindctl: a backup restored on a second daemon gives
the same reminders, next firings and streak; a store with data is refused; CSV read back by Python's csv."""
import csv
import io
import json
import os
import sqlite3
import time

import pytest

from conftest import Daemon


@pytest.fixture
def second(journald, tmp_path):
    other = Daemon(tmp_path / "second")
    yield other
    other.stop()
    other.listening = False
    other.listener.join(timeout=1)
    other.notify.close()


def test_a_backup_restored_on_another_daemon_answers_alike(daemon, second, tmp_path):
    daemon.start()
    daemon.ctl("add", "Pills", "--preset", "Twice a Day", "--start", "08:00", "--tz", "Europe/Berlin", "--window", "2h")
    daemon.ctl("add", "Rent", "--monthly-on", "last-fri", "--at", "10:00", "--tz", "America/New_York")
    daemon.ctl("log", "Pills")
    daemon.ctl("food", "add", 'Oatmeal, "large"', "--kcal", "350")
    daemon.ctl("workout", "add", "running", "--minutes", "30", "--intensity", "moderate")
    daemon.ctl("profile", "set", "--weight", "82kg")
    backup = tmp_path / "backup.json"
    backup.write_text(daemon.ctl("export").stdout)
    document = json.loads(backup.read_text())
    assert document["format"] == "remindd-backup" and document["version"] == 1
    assert len(document["tables"]["intake"]) == 1

    second.start()
    out = second.ctl("import", str(backup)).stdout
    assert out.startswith(f"Imported {backup}:") and "intake" in out
    for command in (["list"], ["next", "--count", "6"], ["streak"], ["today"], ["profile", "show"]):
        assert second.ctl_json(*command) == daemon.ctl_json(*command), command
    # The restored store holds data now: a second import is refused and changes nothing; --merge adds nothing.
    refused = second.ctl("import", str(backup), check=False)
    assert refused.returncode == 1 and "add --merge" in refused.stderr
    merged = second.ctl_json("import", str(backup), "--merge")
    assert all(table["added"] == 0 for table in merged)
    assert second.ctl_json("list") == daemon.ctl_json("list")


def test_a_damaged_backup_is_refused_with_the_reason(daemon, tmp_path):
    daemon.start()
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "remindd-backup", "version": 1, "tables": ')
    result = daemon.ctl("import", str(broken), check=False)
    assert result.returncode == 1
    assert result.stderr.startswith(f"Error: {broken} is not a remindd backup, or is damaged") and "nothing was changed" in result.stderr


def test_csv_exports_read_back_with_python_csv(daemon):
    daemon.start()
    daemon.ctl("add", "Pills", "--daily", "--at", "08:00")
    daemon.ctl("log", "Pills")
    daemon.ctl("food", "add", 'Oatmeal, "large"\nwith milk', "--kcal", "350")
    rows = list(csv.reader(io.StringIO(daemon.ctl("export", "--format", "csv", "--what", "food").stdout, newline="")))
    assert rows[0] == ["id", "name", "kcal", "time"]
    assert rows[1][1] == 'Oatmeal, "large"\nwith milk' and rows[1][2] == "350" and rows[1][3].endswith("+00:00")
    intake = list(csv.DictReader(io.StringIO(daemon.ctl("export", "--format", "csv", "--what", "intake").stdout, newline="")))
    assert [row["reminder"] for row in intake] == ["Pills"]
    days = list(csv.DictReader(io.StringIO(daemon.ctl("export", "--format", "csv", "--what", "days").stdout, newline="")))
    assert days[-1]["consumed"] == "350" and days[-1]["net"] == "350"


def context_switches(pid):
    """Every thread's context switches so far: unchanged over a while means no thread woke."""
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/status") as status:
            total += sum(int(line.split()[1]) for line in status if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")))
    return total


def test_after_an_export_of_many_pages_the_daemon_is_idle_again(daemon, tmp_path):
    """The export reads a snapshot page by page (3,000 rows: three pages); afterwards the daemon makes no
    wake-ups. A GRDB snapshot connection, tried first, left libdispatch's monitor waking it every second."""
    daemon.start()
    daemon.stop()
    db = daemon.state / "remindd" / "remindd.sqlite"
    now = int(time.time())
    with sqlite3.connect(db) as con:
        # Due twelve hours from now: it cannot fire while the test runs, whatever the time of day.
        away = time.strftime("%H:%M", time.gmtime(now + 12 * 3600))
        con.execute("INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES ('Pills', ?, 'UTC', 1, ?, ?)",
                    (json.dumps({"daily": True, "at": away}), now, now))
        con.executemany("INSERT INTO intake (reminderId, at, timeZone) VALUES (1, ?, 'UTC')", [(now - 60 * i,) for i in range(3_000)])
    daemon.start()
    document = json.loads(daemon.ctl("export").stdout)
    assert len(document["tables"]["intake"]) == 3_000
    assert [row["at"] for row in document["tables"]["intake"]] == sorted((now - 60 * i for i in range(3_000)), reverse=True)
    time.sleep(1)  # the reply's last bytes, the connection's close
    before = context_switches(daemon.process.pid)
    time.sleep(3)
    assert context_switches(daemon.process.pid) == before, "the idle daemon woke up after the export"
