"""Times in the user's zone: remindctl reads what is typed in the zone of the shell that typed it (TZ, else the
system's) and shows times in it, whatever zone the daemon runs in (here UTC)."""
import datetime as dt
import json
import subprocess
from zoneinfo import ZoneInfo

from conftest import BIN

BERLIN = ZoneInfo("Europe/Berlin")


def berlin_ctl(daemon, *args, check=True):
    result = subprocess.run([str(BIN / "remindctl"), *args], env=dict(daemon.env, TZ="Europe/Berlin"), capture_output=True, text=True)
    assert not check or result.returncode == 0, f"remindctl {args}: {result.stderr}"
    return result


def test_a_time_typed_in_berlin_is_read_in_berlin_with_the_daemon_on_utc(daemon):
    """The issue's case: `food add --at 22:00` at 22:28 Berlin time was refused as "2026-11-23T22:00:00Z is in
    the future" (read in the daemon's UTC). A local date-time 10 minutes ago on Berlin's clock is 50 or 110
    minutes ahead on UTC's: accepted now, and stored as that instant."""
    daemon.start()
    now = dt.datetime.now(BERLIN).replace(second=0, microsecond=0)
    typed = (now - dt.timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M")
    food = berlin_ctl(daemon, "food", "add", "Pretzel", "--kcal", "300", "--at", typed, "--json")
    local = dt.datetime.fromisoformat(json.loads(food.stdout)["local"])
    assert local == dt.datetime.fromisoformat(typed).replace(tzinfo=BERLIN), (typed, local)
    # Shown back on Berlin's clock (the day, the daemon's UTC one, lists it).
    day = berlin_ctl(daemon, "day", local.astimezone(dt.timezone.utc).date().isoformat()).stdout
    assert any(line.split()[:1] == [typed[11:16]] and "Pretzel" in line for line in day.splitlines()), day
    # A time ahead on Berlin's clock is refused, and said as typed: Berlin's time and offset, not UTC.
    ahead = now + dt.timedelta(minutes=30)
    refused = berlin_ctl(daemon, "food", "add", "Cake", "--kcal", "400", "--at", ahead.strftime("%Y-%m-%dT%H:%M"), check=False)
    offset = ahead.strftime("%z")
    expected = f"{ahead.strftime('%a %Y-%m-%d %H:%M')} {offset[:3]}:{offset[3:]} is in the future: log what already happened"
    assert refused.returncode != 0 and expected in refused.stderr, refused.stderr


def test_status_and_show_name_the_zone_followed_and_why(daemon):
    """`status` said the system zone although the config's time-zone was followed; `show` said "follows the
    system zone". Now both name the zone followed and where it comes from, and status names the user's."""
    (daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text('time-zone = "Asia/Tokyo"\n')
    daemon.start()
    status = berlin_ctl(daemon, "status").stdout
    assert "zone:      Asia/Tokyo (config.toml's time-zone; the system's is UTC)" in status, status
    assert "your zone: Europe/Berlin (TZ): times are shown and read in it" in status, status
    daemon.ctl("add", "Tokyo-tea", "--daily", "--at", "08:00")  # typed in UTC, which is not Tokyo: its own zone
    shown = daemon.ctl("show", "Tokyo-tea").stdout
    assert "time zone: UTC (its own)" in shown, shown
    (daemon.config / "remindd" / "config.toml").write_text('time-zone = "UTC"\n')
    daemon.stop()
    daemon.start()
    daemon.ctl("add", "Plain-tea", "--daily", "--at", "08:00")
    shown = daemon.ctl("show", "Plain-tea").stdout
    assert "time zone: UTC (follows remindd's zone, config.toml's time-zone)" in shown, shown


def test_a_reminder_added_in_another_zone_keeps_the_users_and_says_so(daemon):
    """`add --daily --at 08:00` typed in Berlin with remindd on UTC fires at 08:00 Berlin time: the reminder keeps
    the zone it was typed in, and the reply says so."""
    daemon.start()
    added = berlin_ctl(daemon, "add", "Berlin-pills", "--daily", "--at", "08:00")
    assert "Its times are in Europe/Berlin, your zone (remindd follows UTC); --tz names another." in added.stdout, added.stdout
    reminder = daemon.ctl_json("show", "Berlin-pills")
    assert reminder["timeZone"] == "Europe/Berlin"
    assert dt.datetime.fromisoformat(reminder["next"]["local"]).astimezone(BERLIN).strftime("%H:%M") == "08:00"


def test_an_update_reads_times_as_add_does_and_never_drops_one_silently(daemon):
    """A twice-daily reminder that follows remindd's UTC, updated from a Berlin shell: `--at 10:00` was read in
    UTC and turned 08:00 and 20:00 into 10:00 alone without a word. Now a time dropped needs --replace-times, and
    the times are read in Berlin, which the reminder then keeps (as add gives it), and the reply says so."""
    daemon.start()
    daemon.ctl("add", "Metformin", "--daily", "--at", "08:00,20:00")  # typed in UTC: follows remindd's zone
    refused = berlin_ctl(daemon, "update", "Metformin", "--at", "10:00", check=False)
    assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
    assert "Metformin is at 08:00,20:00; --at 10:00 would drop 1 of its times" in refused.stderr and "--replace-times" in refused.stderr
    assert daemon.ctl_json("show", "Metformin")["rule"]["at"] == "08:00,20:00"
    updated = berlin_ctl(daemon, "update", "Metformin", "--at", "10:00,20:00")
    assert "Its times are in Europe/Berlin, your zone (remindd follows UTC); --tz names another." in updated.stdout, updated.stdout
    reminder = daemon.ctl_json("show", "Metformin")
    assert reminder["timeZone"] == "Europe/Berlin" and reminder["rule"]["at"] == "10:00,20:00"
    assert dt.datetime.fromisoformat(reminder["next"]["local"]).astimezone(BERLIN).strftime("%H:%M") in ("10:00", "20:00")
    once = berlin_ctl(daemon, "update", "Metformin", "--at", "09:00", "--replace-times")
    assert daemon.ctl_json("show", "Metformin")["rule"]["at"] == "09:00", once.stdout
