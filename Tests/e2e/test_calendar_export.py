"""The iCalendar export read by independent programs: the Python `icalendar` package expands each
reminder's events (with `recurring-ical-events`, on python-dateutil) to the same instants as `remindctl
preview` over five years (past leap days and years without one), for every rule kind, in zones with a DST
gap or overlap at the reminder's time; Debian's `khal` imports the file and lists the reminders."""
import datetime as dt
import json
import subprocess

import icalendar
import recurring_ical_events

from conftest import khal_config


def rule_cases(today):
    day = lambda n: (today + dt.timedelta(days=n)).isoformat()
    return [
        ("twice daily", ["--daily", "--at", "08:00,20:30"], "Europe/Berlin"),
        ("in the gap", ["--daily", "--at", "02:30"], "America/New_York"),
        ("in the overlap", ["--daily", "--at", "01:30"], "America/New_York"),
        ("weekdays", ["--weekly", "mon,thu", "--at", "09:00"], "Asia/Tokyo"),
        ("month days", ["--monthly", "1,15,31", "--at", "10:00"], "Europe/London"),
        ("last of month", ["--monthly", "last", "--at", "10:00"], "UTC"),
        ("second sunday", ["--monthly-on", "2nd-sun", "--at", "02:30"], "Europe/Berlin"),
        ("last friday", ["--monthly-on", "last-fri", "--at", "11:00"], "Australia/Sydney"),
        ("leap day", ["--yearly", "02-29", "--at", "07:00"], "Europe/Berlin"),
        ("every 3 days", ["--every", "3d", "--at", "18:00", "--start", day(-10)], "America/Havana"),
        ("every 2 weeks", ["--every", "2w", "--weekly", "tue,sat", "--at", "06:15", "--start", day(-9)], "Europe/Berlin"),
        ("preset", ["--preset", "Three Times a Day", "--start", "07:00"], "Asia/Kolkata"),
        ("bounded", ["--daily", "--at", "12:00", "--until", day(60), "--skip", f"{day(3)},{day(10)}"], "Europe/Paris"),
        ("once", ["--once", f"{day(5)}T09:00"], "America/Sao_Paulo"),
    ]


def preview(daemon, flags, zone, now, end):
    out = daemon.ctl("preview", *flags, "--tz", zone, "--after", now.isoformat(), "--count", "6000", "--json").stdout
    return sorted(utc for utc in (dt.datetime.fromisoformat(f["utc"].replace("Z", "+00:00")) for f in json.loads(out)) if utc < end)


def test_each_rule_expands_to_the_same_instants_as_preview(daemon, tmp_path):
    daemon.start()
    today = dt.datetime.now(dt.timezone.utc).date()
    for name, flags, zone in rule_cases(today):
        daemon.ctl("add", name, *flags, "--tz", zone)
    # An occurrence skipped ahead becomes an EXDATE.
    skipped = dt.datetime.fromisoformat(daemon.ctl_json("skip", "twice daily")["utc"].replace("Z", "+00:00"))
    ics = daemon.ctl("export", "--format", "ics").stdout
    (tmp_path / "remindd.ics").write_text(ics)
    calendar = icalendar.Calendar.from_ical(ics)
    # Both bounds at :30 seconds, where no reminder fires (they fire on whole minutes): whether a reader counts a
    # bound in or out cannot matter, wherever in the minute the test runs.
    now = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=1)).replace(second=30, microsecond=0)
    end = now + dt.timedelta(days=5 * 365)
    for name, flags, zone in rule_cases(today):
        expanded = sorted({event["DTSTART"].dt.astimezone(dt.timezone.utc)
                           for event in recurring_ical_events.of(calendar).between(now, end) if str(event["SUMMARY"]) == name})
        expected = preview(daemon, flags, zone, now, end)
        if name == "twice daily":
            assert skipped in expected and skipped not in expanded, "the occurrence skipped ahead is excluded"
            expected.remove(skipped)
        assert expanded == expected, f"{name} ({zone}): {len(expanded)} instants against preview's {len(expected)}"
        assert expected, name
    # Every event has an alarm at its start.
    for event in calendar.walk("VEVENT"):
        alarm = event.walk("VALARM")[0]
        assert alarm["TRIGGER"].dt == dt.timedelta(0) and str(alarm["ACTION"]) == "DISPLAY"


def test_khal_imports_the_file_and_lists_the_reminders(daemon, tmp_path):
    daemon.start()
    daemon.ctl("add", "Vitamin D", "--daily", "--at", "09:00", "--tz", "Europe/Berlin")
    daemon.ctl("add", "Rent, flat 3", "--monthly", "31", "--at", "10:00", "--tz", "America/New_York")
    ics = tmp_path / "remindd.ics"
    ics.write_text(daemon.ctl("export", "--format", "ics").stdout)
    (tmp_path / "cal").mkdir()
    config = khal_config(tmp_path, tmp_path / "cal", name="remindd")
    env = dict(daemon.env, XDG_DATA_HOME=str(tmp_path / "data"), XDG_CACHE_HOME=str(tmp_path / "cache"))
    imported = subprocess.run(["khal", "-c", str(config), "import", "--batch", "-a", "remindd", str(ics)],
                              env=env, capture_output=True, text=True, timeout=120)
    assert imported.returncode == 0, imported.stderr
    assert "error" not in imported.stderr.lower(), imported.stderr
    # One event each: the two reminders and the built-in weekly rest check-in.
    assert len(list((tmp_path / "cal").glob("*.ics"))) == 3
    listed = subprocess.run(["khal", "-c", str(config), "list", "--format", "{start} {title}", "today", "45d"],
                            env=env, capture_output=True, text=True, timeout=120)
    assert listed.returncode == 0, listed.stderr
    assert "Vitamin D" in listed.stdout and "Rent, flat 3" in listed.stdout
    assert "09:00 Vitamin D" in listed.stdout


def test_a_medication_carries_its_dose_and_one_from_the_last_dose_is_where_it_fires(daemon):
    """No exported event carried its dose, and an `--every 8h --from-last-dose` reminder was written on its rule's
    own grid, not when it fires: now the dose is in DESCRIPTION (and the alarm's text), and such a reminder is one
    event at the next firing the daemon has, which says how the one after is planned."""
    daemon.start()
    start = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    daemon.ctl("add", "Metformin", "--daily", "--at", "08:00", "--tz", "UTC", "--dose", "2", "--unit", "tablet")
    daemon.ctl("add", "Amoxicillin", "--every", "8h", "--start", start, "--from-last-dose", "--tz", "UTC", "--dose", "500mg")
    daemon.ctl("log", "Amoxicillin")  # now: the next dose 8 hours on
    next_utc = daemon.ctl_json("show", "Amoxicillin")["next"]["utc"]
    calendar = icalendar.Calendar.from_ical(daemon.ctl("export", "--format", "ics").stdout)
    events = {str(event["SUMMARY"]): event for event in calendar.walk("VEVENT")}
    assert str(events["Metformin"]["DESCRIPTION"]) == "Take 2 tablets"
    assert str(events["Metformin"].walk("VALARM")[0]["DESCRIPTION"]) == "Metformin: Take 2 tablets"
    amoxicillin = events["Amoxicillin"]
    assert "RRULE" not in amoxicillin
    assert amoxicillin["DTSTART"].dt.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ") == next_utc
    assert str(amoxicillin["DESCRIPTION"]).startswith("Take 500 mg. ") and "planned from when this one is taken" in str(amoxicillin["DESCRIPTION"])
