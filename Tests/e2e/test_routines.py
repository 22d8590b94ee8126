"""Routines through the real daemon: shipped and user files, select with reminders and rest days, clear."""
import datetime as dt


def monday_after(days):
    today = dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=days)
    return today + dt.timedelta(days=(7 - today.weekday()) % 7)


def test_select_creates_reminders_and_rest_days_and_clear_removes_exactly_those(daemon):
    (daemon.config / "remindd" / "routines").mkdir(parents=True)
    (daemon.config / "remindd" / "routines" / "broken.toml").write_text('id = "broken"\nname = 3\n')
    daemon.start()
    ids = [r["id"] for r in daemon.ctl_json("routine", "list")]
    assert ids == ["beginner-full-body", "alternating", "typical-week"]  # the broken file is skipped, the rest load
    start = monday_after(1)
    # A rest day the user planned before must survive the routine's clear.
    own_rest = start + dt.timedelta(days=1)
    daemon.ctl("rest", "mark", own_rest.isoformat(), "--reason", "Busy Day")
    before = set(daemon.user_reminders())
    out = daemon.ctl("routine", "select", "beginner-full-body", "--start", start.isoformat(), "--at", "18:00").stdout
    assert "Added 3 reminders" in out
    added = set(daemon.user_reminders()) - before
    assert added == {"Beginner Full Body: Day 1: Full Body A", "Beginner Full Body: Day 3: Full Body B", "Beginner Full Body: Day 5: Full Body C"}
    schedules = {r["name"]: r["summary"] for r in daemon.ctl_json("list")}
    assert schedules["Beginner Full Body: Day 3: Full Body B"] == "weekly Wed 18:00"
    selection = daemon.ctl_json("routine", "current")
    assert selection["routine"] == "beginner-full-body" and selection["start"] == start.isoformat() and selection["at"] == "18:00"
    assert own_rest.isoformat() not in selection["restDays"] and len(selection["restDays"]) == 4 * 4 - 1
    daemon.ctl("routine", "clear")
    assert set(daemon.user_reminders()) == before
    # remindd 0.1's spellings still work for one release; both spellings at once are refused.
    daemon.ctl("routine", "select", "beginner-full-body", "--starts", start.isoformat())
    assert daemon.ctl_json("routine", "current")["start"] == start.isoformat()
    twice = daemon.ctl("routine", "select", "beginner-full-body", "--start", start.isoformat(), "--starts", start.isoformat(), check=False)
    assert twice.returncode == 1 and "--start is given twice" in twice.stderr
    daemon.ctl("routine", "clear")
    assert daemon.ctl_json("routine", "current") is None
    # The user's own rest day is still there: unmarking it works.
    daemon.ctl("rest", "unmark", own_rest.isoformat())
    unknown = daemon.ctl("routine", "select", "marathon", check=False)
    assert unknown.returncode == 1 and "no routine 'marathon'" in unknown.stderr
