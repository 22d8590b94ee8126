"""The habit system end to end: the real daemon driven through remindctl with explicit --at timestamps.

Dates are relative to the real today (the daemon reads the real clock), so the assertions hold on any day.
"""
import datetime as dt
import re


def day(offset):
    return (dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=offset))


def log_days(daemon, offsets):
    """Logs at noon on past days, and now for today (a later time today would be refused as future)."""
    for offset in offsets:
        daemon.ctl("log", "Meds", *(["--at", f"{day(offset).isoformat()}T12:00"] if offset < 0 else []))


def start_without_grace(daemon):
    """No grace hour: a test that runs just after midnight must not see today's log counted for yesterday."""
    (daemon.config / "remindd").mkdir(exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text("grace-minutes = 0\n")
    daemon.start()


def test_streak_rest_freeze_and_recovery(daemon):
    start_without_grace(daemon)
    daemon.ctl("add", "Meds", "--daily", "--at", "08:00", "--tz", "UTC")
    # Days -16 .. -3 active except -9: a single miss after 7 days, covered by the freeze earned on day 7.
    log_days(daemon, [o for o in range(-16, -2) if o != -9])
    daemon.ctl("rest", "mark", "--from", day(-2).isoformat(), "--to", day(-1).isoformat(), "--reason", "Travel", "--light", "Light Walk")
    streak = daemon.ctl_json("streak")
    assert streak["current"]["length"] == 16 and streak["current"]["start"] == day(-16).isoformat()
    assert streak["freezes"] == 1  # earned on days 7 and 14, one used
    history = daemon.ctl_json("freeze", "history")
    assert [(e["kind"], e["date"]) for e in history] == [("earned", day(-10).isoformat()), ("used", day(-9).isoformat()), ("earned", day(-3).isoformat())]

    # A retroactive log on the frozen day refunds the freeze.
    log_days(daemon, [-9])
    assert daemon.ctl_json("streak")["freezes"] == 2

    # Two missed days break the streak even with freezes banked: unmark both rest days, log today.
    daemon.ctl("rest", "unmark", day(-2).isoformat())
    daemon.ctl("rest", "unmark", day(-1).isoformat())
    log_days(daemon, [0])
    broken = daemon.ctl_json("streak")
    assert broken["current"]["length"] == 1 and broken["recoveryAvailable"] and broken["freezes"] == 2
    recovered = daemon.ctl("recover", "--yes").stdout
    assert "Streak restored: 17 days" in recovered
    assert daemon.ctl_json("streak")["current"]["length"] == 17
    again = daemon.ctl("recover", "--yes", check=False)
    assert again.returncode == 1 and "already used" in again.stderr
    achievements = {a["id"]: a.get("unlocked") for a in daemon.ctl_json("achievements")}
    assert achievements["first_freeze"] == day(-10).isoformat() and achievements["second_chance"]


def test_bad_rest_input_stores_nothing(daemon):
    daemon.start()
    for args, words in [
        (["rest", "mark", "yesterday"], "invalid date"),
        (["rest", "mark", day(0).isoformat(), "--reason", "Lazy"], "unknown reason 'Lazy'"),
        (["rest", "mark", "--from", day(3).isoformat(), "--to", day(1).isoformat()], "ends"),
        (["rest", "mark", day(400).isoformat()], "more than a year ahead"),
    ]:
        result = daemon.ctl(*args, check=False)
        assert result.returncode == 1 and words in result.stderr, result.stderr
    assert daemon.ctl_json("rest", "stats")["restDaysThisMonth"] == 0
    nothing = daemon.ctl("recover", "--yes", check=False)
    assert nothing.returncode == 1 and "nothing to recover" in nothing.stderr


def test_rest_list_and_planned_rest_days_in_the_calendar(daemon):
    daemon.start()
    daemon.ctl("rest", "mark", day(-1).isoformat(), "--reason", "Illness")
    daemon.ctl("rest", "mark", "--from", day(2).isoformat(), "--to", day(3).isoformat(), "--reason", "Travel", "--light", "Light Walk")
    lines = daemon.ctl("rest", "list").stdout.splitlines()
    assert lines[0].split() == ["DATE", "REASON", "WHEN", "LIGHT", "ACTIVITIES"]
    assert [line.split()[:3] for line in lines[1:]] == [
        [day(-1).isoformat(), "Illness", "past"], [day(2).isoformat(), "Travel", "planned"], [day(3).isoformat(), "Travel", "planned"]]
    assert lines[2].endswith("Light Walk") and lines[1].index("past") == lines[2].index("planned")
    planned = daemon.ctl_json("rest", "list", "--from", day(0).isoformat())
    assert [d["date"] for d in planned] == [day(2).isoformat(), day(3).isoformat()] and all(d["planned"] for d in planned)
    month = daemon.ctl_json("calendar", "--month", day(2).strftime("%Y-%m"))
    states = {d["date"]: d["state"] for d in month["days"]}
    assert states[day(2).isoformat()] == "planned"
    grid = daemon.ctl("calendar", "--month", day(2).strftime("%Y-%m")).stdout
    assert f"{day(2).day}r" in grid and "r rest planned" in grid


def test_calendar_grid(daemon):
    start_without_grace(daemon)
    daemon.ctl("add", "Meds", "--daily", "--at", "08:00", "--tz", "UTC")
    today = day(0)
    first = today.replace(day=1)
    log_days(daemon, [(first - today).days])  # the 1st of this month is active
    out = daemon.ctl("calendar").stdout
    lines = out.splitlines()
    assert lines[0].strip() == today.strftime("%B %Y")
    assert re.fullmatch(r"streak \d+ · \d+ freezes? · strength \d+%", lines[1])
    assert lines[2] == " Mo  Tu  We  Th  Fr  Sa  Su"
    grid = "\n".join(lines[3:-1])
    if today != first:
        assert re.search(r"(^|\s) 1#", grid), grid
    # Today marked before its number (plain output: not a terminal); the day after it is not.
    assert re.search(rf">{today.day:>2}[#?.]", grid), grid
    assert not re.search(r"[#?.R*+r ]<", grid), grid
    assert lines[-1].startswith("# active  R rest")
    # The weekday column of the 1st matches the real calendar.
    first_row = lines[3]
    assert first_row.index(" 1") // 4 == first.weekday()
    month = daemon.ctl_json("calendar", "--month", today.strftime("%Y-%m"))
    assert len(month["days"]) >= 28 and [d for d in month["days"] if d["today"]][0]["date"] == today.isoformat()
