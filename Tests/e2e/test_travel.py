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
    entries = journald.wait_for(MESSAGE=said, _PID=first)
    assert entries, [e["MESSAGE"] for e in journald.entries(_PID=first)]
    assert (entries[0]["MESSAGE_ID"], entries[0]["FOLLOWED_ZONE"], entries[0]["PREVIOUS_ZONE"], entries[0]["MOVED_COUNT"]) == \
        ("66e3318e505a43e384d31abac37feecf", "Asia/Tokyo", "Europe/Berlin", "2"), entries[0]
    shown = daemon.ctl_json("show", unique_name)
    assert shown.get("reminder", shown)["effectiveTimeZone"] == "Asia/Tokyo"
    daemon.stop()

    daemon.start()  # the same zone again: nothing moved, nothing said
    second = daemon.process.pid
    daemon.ctl("list")  # the daemon answers: its start is done
    assert [e for e in journald.entries(_PID=second) if e["MESSAGE"].startswith("Following ")] == []
    assert len(journald.entries(MESSAGE=said, _PID=first)) == 1


def test_travel_lists_what_moves_and_what_keeps_its_zone_and_tz_local_follows(daemon, unique_name):
    daemon.env = dict(daemon.env, TZ="Asia/Tokyo")
    daemon.start()
    pinned, local = unique_name + "-insulin", unique_name + "-walk"
    daemon.ctl("add", pinned, "--daily", "--at", "08:00", "--tz", "Europe/Berlin")
    # Typed in Berlin, where remindd follows Tokyo: without --tz it would keep Berlin; --tz local follows.
    berlin = dict(daemon.env, TZ="Europe/Berlin")
    import subprocess
    subprocess.run([str(daemon.bin / "remindctl"), "add", local, "--daily", "--at", "19:00", "--tz", "local"], env=berlin, check=True, capture_output=True)
    groups = daemon.ctl_json("travel")
    assert groups["followedZone"] == "Asia/Tokyo"
    assert local in groups["local"] and pinned not in groups["local"], groups
    kept = [k for k in groups["ownZone"] if k["name"] == pinned]
    assert len(kept) == 1 and kept[0]["timeZone"] == "Europe/Berlin" and kept[0]["next"][11:16] == "08:00", groups
    said = daemon.ctl("travel").stdout
    assert said.startswith("Move to local time with remindd's zone (now Asia/Tokyo): ") and pinned in said, said
    daemon.ctl("update", pinned, "--tz", "local")
    assert pinned in daemon.ctl_json("travel")["local"]
