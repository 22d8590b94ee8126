"""SIGTERM is honoured within 2 s whatever is running, and a stop cut short announces nothing twice.

Before, with 30 habits over 10 years, a SIGTERM while the first habit answer counted the history now and then
crashed the daemon (NIO trapped on a connection accepted but not served yet) and took 2.2-3.8 s; a stop that
waits for work in progress has a bound now as well (1.5 s, then the process exits: every write is a transaction,
and what was recorded but not confirmed as announced is looked up at the next start).
"""
import json
import socket
import subprocess
import time
import uuid

from conftest import BIN, add_burst, announced_slots, db_count
from history_store import fill  # Benchmarks/, on the path through conftest

COUNT = 5_000


def test_sigterm_while_years_of_history_are_counted_stops_within_2_seconds(daemon, journald):
    daemon.start()
    daemon.stop()
    fill(str(daemon.state / "remindd" / "remindd.sqlite"), goals=30, years=10)
    daemon.start()
    streak = subprocess.Popen([str(BIN / "remindctl"), "streak"], env=daemon.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.3)  # the call is being answered: the whole history is counted once
    asked = time.monotonic()
    daemon.process.terminate()
    daemon.process.wait(timeout=30)
    took = time.monotonic() - asked
    streak.wait(timeout=30)
    assert took < 2.0, f"SIGTERM took {took:.2f} s to stop the daemon"
    # A connection accepted but not yet served when the stop came made NIO trap ("Deinited NIOAsyncWriter without
    # calling finish()"): the stop ended in a crash (SIGILL) instead of status 0, now and then.
    assert daemon.process.returncode == 0, f"the daemon stopped with status {daemon.process.returncode}: {daemon.process.stderr.read()[-2000:]}"
    # A stop cut short leaves a store that opens and answers.
    daemon.start()
    assert "current" in json.dumps(daemon.ctl_json("streak"))


def test_sigterm_during_a_burst_with_an_unread_watch_announces_nothing_twice(daemon, journald):
    prefix = f"stop-{uuid.uuid4().hex[:8]}"
    daemon.start()
    daemon.stop()
    db = daemon.state / "remindd" / "remindd.sqlite"
    since = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(time.time() - 2))
    due = add_burst(db, prefix, COUNT, lead=6)
    daemon.start()
    assert time.time() < due, "the daemon took too long to start: raise the lead time"
    # A Watch client that never reads what it is sent.
    watcher = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    watcher.connect(daemon.socket_path)
    watcher.sendall(json.dumps({"method": "io.remindd.Reminders.Watch", "more": True}).encode() + b"\0")
    try:
        while db_count(db, "SELECT count(*) FROM firing WHERE reminderName LIKE ?", prefix + "-%") == 0:
            assert time.time() < due + 30, "the burst was not recorded"
            time.sleep(0.005)
        asked = time.monotonic()
        daemon.process.terminate()
        daemon.process.wait(timeout=30)
        took = time.monotonic() - asked
    finally:
        watcher.close()
    assert took < 2.0, f"SIGTERM took {took:.2f} s to stop the daemon"
    assert daemon.process.returncode == 0

    daemon.start()
    deadline = time.time() + 60
    while (db_count(db, "SELECT count(*) FROM firing WHERE reminderName LIKE ?", prefix + "-%") < COUNT
           or db_count(db, "SELECT count(*) FROM firing WHERE confirmed = 0") > 0):
        assert time.time() < deadline, "the rest of the burst was not handled after the restart"
        time.sleep(0.1)
    daemon.stop()
    per_slot, _ = announced_slots(since, prefix)
    assert not [slot for slot, n in per_slot.items() if n > 1], "a slot was announced twice"
    assert len(per_slot) == COUNT, f"{COUNT - len(per_slot)} slots were never announced"
