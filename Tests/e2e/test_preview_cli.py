"""`remindctl preview` as a user runs it: output forms, bounds, and one-line errors for bad input."""
import json
import subprocess

import pytest


def run(remindctl, *args):
    return subprocess.run([remindctl, "preview", *args], capture_output=True, text=True)


def test_human_output_has_local_utc_and_slot(remindctl):
    result = run(remindctl, "--weekly", "mon,thu", "--at", "18:00", "--tz", "America/New_York",
                 "--after", "2026-11-22T00:00:00Z", "--count", "2")
    assert result.returncode == 0
    assert result.stdout.splitlines() == [
        "Mon 2026-11-23T18:00:00-05:00  2026-11-23T23:00:00Z  reminder-preview-w2-18-00",
        "Thu 2026-11-26T18:00:00-05:00  2026-11-26T23:00:00Z  reminder-preview-w5-18-00",
    ]


def test_json_has_slot_local_utc(remindctl):
    result = run(remindctl, "--monthly", "last", "--at", "21:00", "--tz", "Europe/Berlin",
                 "--after", "2027-02-01T00:00:00Z", "--count", "1", "--json")
    assert json.loads(result.stdout) == [{
        "slot": "reminder-preview-dlast-21-00", "local": "2027-02-28T21:00:00+01:00",
        "utc": "2027-02-28T20:00:00Z", "scheduled": "2027-02-28T21:00:00"}]


def test_rule_with_fewer_firings_prints_those_it_has(remindctl):
    result = run(remindctl, "--daily", "--at", "08:00", "--until", "2026-12-03", "--tz", "UTC",
                 "--after", "2026-12-01T00:00:00Z", "--count", "10", "--json")
    assert [f["local"] for f in json.loads(result.stdout)] == [
        "2026-12-01T08:00:00+00:00", "2026-12-02T08:00:00+00:00", "2026-12-03T08:00:00+00:00"]


def test_after_without_offset_is_local_to_tz(remindctl):
    result = run(remindctl, "--once", "2026-12-24T18:00:30", "--tz", "Asia/Tokyo", "--after", "2026-12-24T18:00:00", "--json")
    assert [f["utc"] for f in json.loads(result.stdout)] == ["2026-12-24T09:00:30Z"]


@pytest.mark.parametrize("args, words", [
    (["--daily", "--at", "08:00", "--tz", "Mars/Base"], "unknown time zone 'Mars/Base'"),
    (["--daily", "--at", "25:00"], "invalid time '25:00'"),
    (["--monthly", "32", "--at", "10:00"], "invalid day of month '32'"),
    (["--once", "2027-02-30T10:00"], "2027-02 has only 28 days"),
    (["--daily", "--at", "08:00", "--count", "0"], "invalid --count 0"),
    (["--at", "08:00"], "no schedule given"),
    (["--daily", "--weekly", "mon", "--at", "08:00"], "cannot be combined"),
    (["--preset", "Twice Fortnightly", "--start", "08:00"], "unknown preset"),
    (["--every", "3d", "--at", "07:00"], "add --start"),
    (["--daily", "--at", "08:00", "--after", "yesterday"], "invalid --after"),
])
def test_bad_input_is_one_line_and_nonzero(remindctl, args, words):
    result = run(remindctl, *args)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert words in lines[0]
    assert result.stdout == ""


def test_an_rrule_start_the_rule_does_not_name_is_noted(remindctl):
    """RFC 5545 makes DTSTART the first instance even when the rule does not name it: the firing is listed,
    and one line on standard error says so and names the rule's own first instance."""
    rule = "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"
    result = run(remindctl, "--rrule", rule, "--start", "2026-12-01T09:00", "--tz", "UTC", "--after", "2026-11-30T00:00:00Z", "--count", "2")
    assert result.returncode == 0
    assert [line.split()[1] for line in result.stdout.splitlines()] == ["2026-12-01T09:00:00+00:00", "2026-12-31T09:00:00+00:00"]
    assert result.stderr == ("remindctl: note: --start 2026-12-01T09:00 is no instance of the rule, and RFC 5545 makes it the first "
                             "firing all the same; give a --start the rule names, e.g. its first after it, 2026-12-31T09:00\n")
    named = run(remindctl, "--rrule", rule, "--start", "2026-12-31T09:00", "--tz", "UTC", "--after", "2026-11-30T00:00:00Z", "--count", "1")
    assert named.returncode == 0 and named.stderr == ""
