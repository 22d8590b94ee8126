"""No call and no client delays a firing: the largest reminder allowed added, a large merge import, and 250 Watch
clients that never read during a burst, each while another reminder falls due. Lateness is measured where a
user sees it (a Watch client's stream, the journal) against an idle daemon's in the same run.

Before: `add` with 86,400 times a day made another reminder's firing 72 s late; `import --merge` of 30,000 rows
made firings up to 20.8 s late; with 250 Watch clients that never read, a firing 5 s after a burst of 2,000 was
1.6 s late and `remindctl status` was refused ("too many connections"). `make bench` measures the same against
the release build; here the bound leaves room for a busy CI machine and the debug build.
"""
import json
import socket
import subprocess
import threading
import time
import uuid

from conftest import BIN, CAUGHT_UP, DAY_ZONE, FIRED, add_burst, db_count, time_of_day

# How much later than on an idle daemon a firing may reach the user here (the release build's target is 0.1 s).
MARGIN = 0.5


def watch_lateness(daemon, name, busy):
    """Adds `name` for a whole second at least three seconds ahead, runs `busy()` from half a second before that
    instant, and returns how late (seconds) the firing reached a Watch client."""
    watch = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    watch.connect(daemon.socket_path)
    watch.sendall(json.dumps({"method": "io.remindd.Reminders.Watch", "more": True}).encode() + b"\0")
    due = int(time.time()) + 3
    daemon.ctl("add", name, "--daily", "--at", time_of_day(due), "--tz", DAY_ZONE)
    time.sleep(max(0.0, due - 0.5 - time.time()))
    worker = threading.Thread(target=busy)
    worker.start()
    data = b""
    try:
        while True:
            data += watch.recv(1 << 16)
            messages = [json.loads(m) for m in data.split(b"\0")[:-1]]
            if any(m["parameters"]["entry"]["reminderName"] == name for m in messages):
                return time.time() - due
    finally:
        worker.join()
        watch.close()


def idle_lateness(daemon):
    return min(watch_lateness(daemon, f"idle-{uuid.uuid4().hex[:6]}", lambda: None) for _ in range(2))


def test_the_largest_reminder_allowed_added_while_another_is_due_delays_nothing(daemon):
    daemon.start()
    idle = idle_lateness(daemon)
    every_ten_minutes = ",".join(f"{h:02d}:{m:02d}" for h in range(24) for m in range(0, 60, 10))  # 144, the limit
    added = []
    late = watch_lateness(daemon, "probe", lambda: added.append(daemon.ctl("add", "Largest", "--daily", "--at", every_ten_minutes, "--tz", "UTC")))
    assert added[0].returncode == 0
    print(f"firing during the largest add: {late * 1000:.0f} ms late (idle: {idle * 1000:.0f} ms)")
    assert late < idle + MARGIN, f"a firing during the largest add was {late:.3f} s late (idle: {idle:.3f} s)"


def test_a_large_merge_import_while_another_is_due_delays_nothing(daemon, tmp_path):
    daemon.start()
    daemon.ctl("add", "Pills", "--daily", "--at", time_of_day(time.time() + 6 * 3600), "--tz", DAY_ZONE)
    document = json.loads(daemon.ctl("export").stdout)
    reminder = next(r for r in document["tables"]["reminder"] if r["name"] == "Pills")
    now = int(time.time())
    document["tables"]["intake"] = [{"id": i + 1, "reminderId": reminder["id"], "at": now - 60 * (i + 1), "timeZone": "UTC"} for i in range(30_000)]
    backup = tmp_path / "large.json"
    backup.write_text(json.dumps(document))
    idle = idle_lateness(daemon)
    imported = []
    late = watch_lateness(daemon, "probe", lambda: imported.append(daemon.ctl("import", str(backup), "--merge", "--json")))
    added = {t["table"]: t["added"] for t in json.loads(imported[0].stdout)}
    assert added["intake"] == 30_000
    print(f"firing during a merge of 30,000 rows: {late * 1000:.0f} ms late (idle: {idle * 1000:.0f} ms)")
    assert late < idle + MARGIN, f"a firing during the merge of 30,000 rows was {late:.3f} s late (idle: {idle:.3f} s)"


def test_250_watch_clients_that_never_read_delay_no_firing_and_status_answers(daemon, journald):
    prefix = f"unread-{uuid.uuid4().hex[:8]}"
    daemon.start()
    daemon.stop()
    db = daemon.state / "remindd" / "remindd.sqlite"
    due = add_burst(db, prefix, 2_000, lead=8)
    probe_due = add_burst(db, f"{prefix}-probe", 1, lead=11)
    daemon.start()
    watchers = []
    try:
        for _ in range(250):
            watcher = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            watcher.connect(daemon.socket_path)
            watcher.sendall(json.dumps({"method": "io.remindd.Reminders.Watch", "more": True}).encode() + b"\0")
            watchers.append(watcher)
        assert time.time() < due - 1, "setting up took too long: raise the lead time"
        while db_count(db, "SELECT count(*) FROM firing WHERE reminderName LIKE ?", prefix + "-%") < 2_000:
            assert time.time() < due + 30, "the burst was not recorded"
            time.sleep(0.05)
        asked = time.monotonic()
        status = subprocess.run([str(BIN / "remindctl"), "status"], env=daemon.env, capture_output=True, text=True)
        took = time.monotonic() - asked
        assert status.returncode == 0, status.stderr
        # The debug build takes 0.4-1.5 s here while 250 sockets fill (the release build 0.3-0.5 s): the bound is
        # for a call kept waiting, as the refused one was.
        assert took < 5.0, f"status took {took:.2f} s during the burst"
        deadline = time.time() + 30
        while not (entries := journald.entries(REMINDER_NAME=f"{prefix}-probe-0")):
            assert time.time() < deadline, "the probe did not fire"
            time.sleep(0.1)
    finally:
        for watcher in watchers:
            watcher.close()
    assert entries[0]["MESSAGE_ID"] in (FIRED, CAUGHT_UP)
    late = int(entries[0]["__REALTIME_TIMESTAMP"]) / 1e6 - probe_due
    print(f"firing after a burst with 250 unread Watch clients: {late * 1000:.0f} ms late in the journal; status took {took * 1000:.0f} ms")
    assert late < 1.0, f"the firing after the burst reached the journal {late:.3f} s late"
