"""Travel: the system zone (TZ) changes between two starts of remindd. The reminders that follow it move to local
time and the journal says so once, naming the zones; a start in the same zone says nothing more."""


def test_a_zone_changed_between_two_starts_is_said_once(daemon, journald, unique_name):
    daemon.env = dict(daemon.env, TZ="Europe/Berlin")
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00")
    assert "follows remindd's zone" in daemon.ctl("show", unique_name).stdout
    daemon.stop()

    daemon.env = dict(daemon.env, TZ="Asia/Tokyo")
    daemon.start()
    said = "Following Asia/Tokyo now (was Europe/Berlin): 2 reminders move to local time"
    first = daemon.process.pid
    assert journald.wait_for(MESSAGE=said, _PID=first), [e["MESSAGE"] for e in journald.entries(_PID=first)]
    shown = daemon.ctl_json("show", unique_name)
    assert shown.get("reminder", shown)["effectiveTimeZone"] == "Asia/Tokyo"
    daemon.stop()

    daemon.start()  # the same zone again: nothing moved, nothing said
    second = daemon.process.pid
    daemon.ctl("list")  # the daemon answers: its start is done
    assert [e for e in journald.entries(_PID=second) if e["MESSAGE"].startswith("Following ")] == []
    assert len(journald.entries(MESSAGE=said, _PID=first)) == 1
