"""The adherence report with the real daemon: a dose logged ahead, one taken, and one skipped show in the figures
that remindctl and any Varlink client (the Python reference client here) read."""
import json
import time

import varlink


def test_the_report_counts_what_was_logged_and_skipped_and_a_varlink_client_reads_the_same(daemon, unique_name):
    daemon.start()
    # Two doses a few seconds ahead, on one UTC day (a run in the last seconds of a day waits for the next): the
    # first logged ahead of time, the second skipped once due.
    if 86400 - int(time.time()) % 86400 < 15:
        time.sleep(86400 - time.time() % 86400 + 1)
    now = int(time.time())
    first, second = now + 3, now + 6
    times = ",".join(time.strftime("%H:%M:%S", time.gmtime(t)) for t in (first, second))
    daemon.ctl("add", unique_name, "--daily", "--at", times, "--tz", "UTC")
    daemon.ctl("log", unique_name)
    time.sleep(max(0.0, second + 1 - time.time()))
    daemon.ctl("skip", unique_name, "--reason", "travel")
    today = time.strftime("%Y-%m-%d", time.gmtime(second))
    report = json.loads(daemon.ctl("report", "--from", today, "--to", today, "--reminder", unique_name, "--json").stdout)
    figures = report["reminders"][0]
    assert (figures["due"], figures["onTime"], figures["loggedAhead"], figures["skipped"]) == (2, 1, 1, 1), figures
    assert figures["skipReasons"] == [{"reason": "travel", "count": 1}] and figures["adherence"] == 1.0
    assert figures["days"] == [{"date": today, "states": ["suppressed", "skipped"]}]
    with varlink.Client(address=f"unix:{daemon.socket_path}") as client, client.open("io.remindd.Reminders") as remote:
        reply = remote.Report(today, today, [unique_name])
    assert reply["reminders"] == report["reminders"]
    text = daemon.ctl("report", "--from", today, "--to", today, "--reminder", unique_name).stdout
    assert "100.0%" in text and "skipped: travel 1" in text, text
