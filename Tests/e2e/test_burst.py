"""Thousands of reminders due at the same instant: each fires once, and the control socket answers meanwhile."""
import json
import socket
import sqlite3
import time

from conftest import add_burst

COUNT = 5_000


def burst_records(db):
    """How many firings of the burst's reminders the store holds (a reader beside the daemon's writer)."""
    with sqlite3.connect(db, timeout=10) as con:
        return con.execute("SELECT count(*) FROM firing WHERE reminderName LIKE 'burst-%'").fetchone()[0]


def status_call(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(30)
        s.connect(path)
        s.sendall(json.dumps({"method": "io.remindd.Reminders.Status"}).encode() + b"\0")
        data = b""
        while not data.endswith(b"\0"):
            chunk = s.recv(1 << 16)
            assert chunk, "the daemon closed the connection"
            data += chunk
    reply = json.loads(data[:-1])
    assert "error" not in reply, reply
    return reply


def test_the_socket_answers_status_calls_while_a_burst_is_recorded(daemon):
    """A Status call sent after the burst's first records were written is answered before its last ones are.

    Before the scheduler had a thread of its own, a call waited for the end of the burst: the event loop that
    handled the burst ran it to the end before it looked at its sockets again. Whether a call lies inside the
    burst is read from the store (records before the call and after its reply), not from a clock.
    """
    daemon.start()
    daemon.stop()  # the schema is there
    db = daemon.state / "remindd" / "remindd.sqlite"
    due = add_burst(db, "burst", COUNT, lead=4)
    daemon.start()
    assert time.time() < due, "the daemon took too long to start: raise the lead time"

    calls = []  # (records before the call, records after its reply)
    deadline = due + 60
    while time.time() < deadline:
        before = burst_records(db)
        if before == COUNT:
            break
        status_call(daemon.socket_path)
        calls.append((before, burst_records(db)))
    assert burst_records(db) == COUNT, "the burst was not recorded within a minute"
    inside = [(before, after) for before, after in calls if 0 < before and after < COUNT]
    assert inside, f"no Status call was answered during the burst: {[c for c in calls if c[0] > 0]}"

    with sqlite3.connect(db) as con:
        kinds = con.execute("SELECT kind, count(*), count(DISTINCT reminderId) FROM firing WHERE reminderName LIKE 'burst-%' GROUP BY kind").fetchall()
    assert kinds == [("fired", COUNT, COUNT)], kinds
