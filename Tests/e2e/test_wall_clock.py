"""No end-to-end test schedules a reminder by the wall clock's time of day.

A reminder's day, and its default window, end at its zone's midnight: a test that adds `--daily --at` a few
seconds ahead in UTC fails when it runs at 23:59:55 (its dose is missed a second later), and one in a zone with
DST fails across the change. Times a few seconds ahead go through conftest's `time_of_day` and `DAY_ZONE`, a
fixed-offset zone in which the run starts at about 10:00. This finds a schedule option (`--at`, `--once`,
`--start`) given a time of day formatted from a clock reading on the same line."""
import pathlib
import re

HERE = pathlib.Path(__file__).parent
SCHEDULE_OPTION = re.compile(r'"--(at|once|start)"')
TIME_OF_DAY_FROM_A_CLOCK = re.compile(r'strftime\(\s*"%H|gmtime\(')


def wall_clock_schedules(text):
    return [number for number, line in enumerate(text.splitlines(), 1)
            if SCHEDULE_OPTION.search(line) and TIME_OF_DAY_FROM_A_CLOCK.search(line) and "time_of_day(" not in line]


def test_no_end_to_end_test_schedules_by_the_wall_clocks_time_of_day():
    found = {path.name: lines for path in sorted(HERE.glob("*.py")) if path.name != pathlib.Path(__file__).name and (lines := wall_clock_schedules(path.read_text()))}
    assert found == {}, f"schedule with time_of_day(instant) and --tz DAY_ZONE (conftest) instead: {found}"


def test_the_check_finds_a_wall_clock_schedule_and_passes_a_day_safe_one():
    assert wall_clock_schedules('daemon.ctl("add", name, "--daily", "--at", soon.strftime("%H:%M:%S"), "--tz", "UTC")') == [1]
    assert wall_clock_schedules('ctl("add", n, "--at", time.strftime("%H:%M", time.gmtime(due)))') == [1]
    assert wall_clock_schedules('daemon.ctl("add", name, "--daily", "--at", time_of_day(soon), "--tz", DAY_ZONE)') == []
    # A fixed date and time is no wall-clock schedule.
    assert wall_clock_schedules('laptop.ctl("add", name, "--once", due.strftime("%Y-%m-%dT%H:%M"), "--tz", "UTC")') == []
