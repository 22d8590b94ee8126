"""remindctl pause, pause list and resume against a running daemon: a pause with dates is shown on its days as
paused, survives a restart, ends with resume; bad input is one line that says how to fix it; the words are the
user's language."""
import datetime as dt

from conftest import utc_now
from test_languages import in_language, locales  # noqa: F401 (the fixture)


def days_ahead(days):
    return (utc_now() + dt.timedelta(days=days)).date().isoformat()


def test_a_pause_is_shown_on_its_days_survives_a_restart_and_ends_with_resume(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--tz", "UTC", "--dose", "1", "--unit", "tablet")
    paused = daemon.ctl("pause", unique_name, "--from", days_ahead(1), "--until", days_ahead(4), "--reason", "hospital").stdout
    assert paused.startswith(f"{unique_name} is paused from ") and " until " in paused, paused
    shown = [line for line in daemon.ctl("show", unique_name).stdout.splitlines() if line.strip().startswith("paused")]
    assert len(shown) == 1 and shown[0].rstrip().endswith(": hospital") and " to " in shown[0], shown
    listed = daemon.ctl_json("pause", "list")
    assert [(p["reminderName"], p["from"][:10], p["until"][:10], p["reason"]) for p in listed] == \
        [(unique_name, days_ahead(1), days_ahead(4), "hospital")]

    daemon.stop()
    daemon.start()  # what was paused stays paused
    day = daemon.ctl_json("day", days_ahead(2))
    states = [o["state"] for o in day["occurrences"] if o["reminderName"] == unique_name]
    assert states == ["paused"], day
    assert f"{unique_name} 0 of 0 taken, 1 paused" in daemon.ctl("day", days_ahead(2)).stdout
    assert [o["state"] for o in daemon.ctl_json("day", days_ahead(5))["occurrences"] if o["reminderName"] == unique_name] == ["upcoming"]

    assert daemon.ctl("resume", unique_name).stdout.strip() == f"{unique_name} is no longer paused"
    assert daemon.ctl("pause", "list").stdout.strip() == "No reminder is paused or has a pause ahead."
    assert daemon.ctl_json("pause", "list", "--all") == [], "a pause wholly ahead is removed by resume, not kept"


def test_bad_pauses_are_refused_in_one_line_that_says_how_to_fix_them(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--tz", "UTC")
    for args, hint in [
        (["pause", unique_name, "--until", days_ahead(-1)], "give an --until after now"),
        (["pause", unique_name, "--from", days_ahead(-40), "--until", days_ahead(1)], "at most 31 days back"),
        (["pause", unique_name, "--from", days_ahead(3), "--until", days_ahead(2)], "give --until after --from"),
        (["pause", unique_name, "--until", days_ahead(400)], "at most a year"),
        (["pause", unique_name, "--all", "--until", days_ahead(1)], "name one reminder, or give --all"),
        (["pause", "no-such-reminder", "--until", days_ahead(1)], "no reminder 'no-such-reminder'"),
        (["resume", unique_name], "is not paused now"),
    ]:
        result = daemon.ctl(*args, check=False)
        assert result.returncode != 0 and hint in result.stderr, (args, result.stderr)
        assert len([line for line in result.stderr.splitlines() if line.strip() and not line.startswith("Usage")]) <= 2, (args, result.stderr)
    assert daemon.ctl_json("pause", "list", "--all") == [], "nothing was paused"


def test_a_paused_day_is_said_in_german(daemon, unique_name, locales):  # noqa: F811 (the fixture)
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--tz", "UTC")
    daemon.ctl("pause", unique_name, "--from", days_ahead(1), "--until", days_ahead(3))
    german = dict(in_language(daemon.env, locales, "de_DE"))
    english = daemon.env
    daemon.env = german
    try:
        said = daemon.ctl("day", days_ahead(2)).stdout
        resumed = daemon.ctl("resume", unique_name).stdout
    finally:
        daemon.env = english
    assert "pausiert" in said and "paused" not in said, said
    assert resumed.strip() == f"{unique_name} ist nicht mehr pausiert", resumed
