"""`remindctl import --format ics` with the files other programs write, against recurring-ical-events.

Debian's `khal` (events with alarms, weekly and all-day) and `todoman` (a to-do with a due time) write their
files into folders as they do for their users; samples shaped as Thunderbird, Google and Outlook write theirs
(a VTIMEZONE with X-LIC-LOCATION and VALUE=DURATION triggers; UTC times with UTC EXDATEs; a Windows zone, a
moved instance without an alarm, imported with --all, a cancelled one, and a trigger related to the end) are written from their documented formats, with dates a few
days from now. All are imported into a daemon; each reminder's firings over the next 40 days must be the
alarms recurring-ical-events (an independent RFC 5545 expander, with icalendar) gives for the same files.
"""
import datetime as dt
import json
import subprocess
import textwrap
import zoneinfo

import icalendar
import recurring_ical_events

from conftest import khal_config

WINDOW = dt.timedelta(days=40)


def local_days(days, hour, minute=0):
    """`YYYYMMDDTHHMMSS` of a local time `days` from today (UTC)."""
    day = dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=days)
    return dt.datetime(day.year, day.month, day.day, hour, minute).strftime("%Y%m%dT%H%M%S")


def samples():
    return {
        "thunderbird.ics": textwrap.dedent(f"""\
            BEGIN:VCALENDAR
            PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN
            VERSION:2.0
            BEGIN:VTIMEZONE
            TZID:Europe/Berlin
            X-LIC-LOCATION:Europe/Berlin
            BEGIN:DAYLIGHT
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            TZNAME:CEST
            DTSTART:19700329T020000
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
            END:DAYLIGHT
            BEGIN:STANDARD
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            TZNAME:CET
            DTSTART:19701025T030000
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
            END:STANDARD
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:tb-1
            SUMMARY:Blood pressure pill
            DTSTART;TZID=Europe/Berlin:{local_days(2, 8)}
            DTEND;TZID=Europe/Berlin:{local_days(2, 8, 15)}
            RRULE:FREQ=DAILY;UNTIL={local_days(25, 23)}Z
            BEGIN:VALARM
            ACTION:DISPLAY
            TRIGGER;VALUE=DURATION:-PT15M
            DESCRIPTION:Default Mozilla Description
            END:VALARM
            END:VEVENT
            END:VCALENDAR
            """),
        "google.ics": textwrap.dedent(f"""\
            BEGIN:VCALENDAR
            PRODID:-//Google Inc//Google Calendar 70.9054//EN
            VERSION:2.0
            CALSCALE:GREGORIAN
            BEGIN:VEVENT
            DTSTART:{local_days(1, 17, 30)}Z
            DTEND:{local_days(1, 18, 30)}Z
            RRULE:FREQ=WEEKLY;BYDAY=TU,TH
            EXDATE:{local_days(8, 17, 30)}Z,{local_days(15, 17, 30)}Z
            UID:abc123@google.com
            SUMMARY:Physio exercises
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:This is an event reminder
            TRIGGER:-P0DT0H30M0S
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            DTSTART:{local_days(3, 9)}Z
            DTEND:{local_days(3, 10)}Z
            UID:def456@google.com
            SUMMARY:Dentist
            BEGIN:VALARM
            ACTION:EMAIL
            DESCRIPTION:This is an event reminder
            SUMMARY:Alarm notification
            ATTENDEE:mailto:someone@example.com
            TRIGGER:-P1D
            END:VALARM
            END:VEVENT
            END:VCALENDAR
            """),
        "outlook.ics": textwrap.dedent(f"""\
            BEGIN:VCALENDAR
            PRODID:-//Microsoft Corporation//Outlook 16.0 MIMEDIR//EN
            VERSION:2.0
            METHOD:PUBLISH
            BEGIN:VTIMEZONE
            TZID:W. Europe Standard Time
            BEGIN:STANDARD
            DTSTART:16011028T030000
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10
            TZOFFSETFROM:+0200
            TZOFFSETTO:+0100
            END:STANDARD
            BEGIN:DAYLIGHT
            DTSTART:16010325T020000
            RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3
            TZOFFSETFROM:+0100
            TZOFFSETTO:+0200
            END:DAYLIGHT
            END:VTIMEZONE
            BEGIN:VEVENT
            UID:040000008200E00074C5B7101A82E008
            SUMMARY;LANGUAGE=en-us:Weekly review
            DTSTART;TZID=W. Europe Standard Time:{local_days(4, 14)}
            DTEND;TZID=W. Europe Standard Time:{local_days(4, 15)}
            RRULE:FREQ=WEEKLY;COUNT=5
            X-MICROSOFT-CDO-BUSYSTATUS:BUSY
            BEGIN:VALARM
            ACTION:DISPLAY
            DESCRIPTION:REMINDER
            TRIGGER;RELATED=END:-PT70M
            END:VALARM
            END:VEVENT
            BEGIN:VEVENT
            UID:040000008200E00074C5B7101A82E008
            RECURRENCE-ID;TZID=W. Europe Standard Time:{local_days(11, 14)}
            SUMMARY;LANGUAGE=en-us:Weekly review (moved)
            DTSTART;TZID=W. Europe Standard Time:{local_days(12, 16)}
            DTEND;TZID=W. Europe Standard Time:{local_days(12, 17)}
            END:VEVENT
            BEGIN:VEVENT
            UID:040000008200E00074C5B7101A82E008
            RECURRENCE-ID;TZID=W. Europe Standard Time:{local_days(18, 14)}
            SUMMARY:Weekly review
            STATUS:CANCELLED
            DTSTART;TZID=W. Europe Standard Time:{local_days(18, 14)}
            END:VEVENT
            END:VCALENDAR
            """),
    }


def written_by_khal_and_todoman(tmp_path, env):
    (tmp_path / "cal").mkdir()
    (tmp_path / "todo" / "pills").mkdir(parents=True)
    config = khal_config(tmp_path, tmp_path / "cal")
    day = lambda n: (dt.datetime.now(dt.timezone.utc).date() + dt.timedelta(days=n)).isoformat()
    for arguments in (["-r", "weekly", "-m", "15m,1h", day(2), "09:00", "10:00", "Europe/Berlin", "Team meeting"],
                      ["-m", "1d", day(6), "Christmas party"]):
        made = subprocess.run(["khal", "-c", str(config), "new", "-a", "cal", *arguments], env=env, capture_output=True, text=True, timeout=120)
        assert made.returncode == 0, made.stderr
    (tmp_path / "todoman.py").write_text(f'path = "{tmp_path / "todo"}/*"\ndefault_list = "pills"\ndate_format = "%Y-%m-%d"\ntime_format = "%H:%M"\n')
    made = subprocess.run(["todoman", "--config", str(tmp_path / "todoman.py"), "new", "--due", f"{day(5)} 18:00", "Buy pills"],
                          env=env, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    files = {f"khal-{p.name}": p.read_text() for p in (tmp_path / "cal").glob("*.ics")}
    files |= {f"todoman-{p.name}": p.read_text() for p in (tmp_path / "todo" / "pills").glob("*.ics")}
    assert len(files) == 3, files.keys()
    return files


def oracle(text, now, zone):
    """The alarm instants (UTC) recurring-ical-events gives in [now, now + WINDOW], by event summary."""
    calendar = icalendar.Calendar.from_ical(text)
    found = []
    for component in recurring_ical_events.of(calendar, components=["VEVENT", "VTODO"]).between(now - dt.timedelta(days=3), now + WINDOW + dt.timedelta(days=3)):
        if str(component.get("STATUS", "")).upper() == "CANCELLED":
            continue
        start = component.get("DTSTART") or component.get("DUE")
        start = start.dt
        end = (component.get("DTEND") or component.get("DUE") or component.get("DTSTART")).dt
        def aware(value):
            if not isinstance(value, dt.datetime):
                value = dt.datetime(value.year, value.month, value.day)
            return value if value.tzinfo else value.replace(tzinfo=zone)
        alarms = component.walk("VALARM") or [None]
        for alarm in alarms:
            if alarm is None:
                instant = aware(start)
            else:
                trigger = alarm["TRIGGER"]
                related_end = str(trigger.params.get("RELATED", "START")).upper() == "END"
                instant = aware(end if related_end else start) + trigger.dt
            instant = instant.astimezone(dt.timezone.utc)
            if now < instant <= now + WINDOW:
                found.append(instant)
    return found


def test_files_from_khal_todoman_thunderbird_google_and_outlook_fire_at_their_alarms(daemon, tmp_path):
    daemon.start()
    files = samples() | written_by_khal_and_todoman(tmp_path, dict(daemon.env, XDG_DATA_HOME=str(tmp_path / "data")))
    now = dt.datetime.now(dt.timezone.utc)
    expected = []
    imported = []
    for name, text in sorted(files.items()):
        (tmp_path / name).write_text(text)
        reply = json.loads(daemon.ctl("import", "--format", "ics", "--all", "--json", str(tmp_path / name)).stdout)
        assert reply["leftOut"] == [], (name, reply["leftOut"])
        if name == "outlook.ics":
            assert any("is cancelled" in note for note in reply["notes"]), reply["notes"]
        imported += [r["name"] for r in reply["reminders"]]
        expected += oracle(text, now, zoneinfo.ZoneInfo("UTC"))
    # Every event's alarms, each its own reminder; the EMAIL alarm became a desktop one (and is said so).
    assert sorted(imported) == sorted([
        "Blood pressure pill", "Physio exercises", "Dentist", "Weekly review", "Weekly review (moved)", "Team meeting (15 minutes before)",
        "Team meeting (1 hour before)", "Christmas party", "Buy pills"])
    firings = json.loads(daemon.ctl("next", "--count", "2000", "--json").stdout)
    got = sorted(dt.datetime.fromisoformat(f["utc"].replace("Z", "+00:00")) for f in firings
                 if f["reminderName"] in imported and dt.datetime.fromisoformat(f["utc"].replace("Z", "+00:00")) <= now + WINDOW)
    assert got == sorted(expected)
    assert len(got) > 40


def test_a_malformed_file_is_refused_with_its_line_and_nothing_changes(daemon, tmp_path):
    daemon.start()
    before = daemon.ctl("list", "--json").stdout
    bad = samples()["google.ics"].replace("TRIGGER:-P1D\n", "")
    (tmp_path / "bad.ics").write_text(bad)
    result = daemon.ctl("import", "--format", "ics", str(tmp_path / "bad.ics"), check=False)
    assert result.returncode == 1
    line = bad.splitlines().index("BEGIN:VALARM", bad.splitlines().index("UID:def456@google.com")) + 1
    assert result.stderr.strip() == f"Error: {tmp_path / 'bad.ics'}:{line}: a VALARM without TRIGGER: add e.g. TRIGGER:-PT15M, or remove the alarm; nothing was imported"
    assert daemon.ctl("list", "--json").stdout == before


def test_the_same_file_again_is_refused_and_with_update_changes_its_reminders_in_place(daemon, tmp_path):
    daemon.start()
    event = ("BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nUID:physio@example.org\nSUMMARY:Physio\n"
             "DTSTART;TZID=Europe/Berlin:{start}\nRRULE:FREQ=WEEKLY\nBEGIN:VALARM\nTRIGGER:-PT30M\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n")
    path = tmp_path / "physio.ics"
    path.write_text(event.format(start="20300102T170000"))
    first = json.loads(daemon.ctl("import", "--format", "ics", "--json", str(path)).stdout)["reminders"][0]
    daemon.ctl("log", "Physio")
    path.write_text(event.format(start="20300102T180000"))
    refused = daemon.ctl("import", "--format", "ics", str(path), check=False)
    assert refused.returncode == 1
    assert refused.stderr.strip() == ("Error: 'Physio' came from this calendar's events before: "
                                      "add --update to change them in place (their logs stay); nothing was imported")
    updated = daemon.ctl("import", "--format", "ics", "--update", str(path))
    assert updated.stdout.splitlines()[0] == f"Imported from {path}: 0 added, 1 updated:"
    shown = json.loads(daemon.ctl("show", str(first["id"]), "--json").stdout)
    assert shown["name"] == "Physio" and "17:30" in json.dumps(shown["next"])
    assert len(json.loads(daemon.ctl("log", "list", "--json").stdout)) == 1
