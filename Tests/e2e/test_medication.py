"""Medication end to end: the real remindd, a real dbus-daemon with the recording notification server, the
real journal. A stock counted too low for the reminder's refill days is said once: in the journal (its own
MESSAGE_ID, the catalog's fields), as a desktop notification, and to the reminder's --exec hook."""
import datetime as dt
import time

from conftest import DAY_ZONE, Journal, time_of_day, wait_until
from test_closing_the_loop import add_soon, sleep_until, write_script

MESSAGE_LOW_STOCK = "3f0b8e5c7a2d4e61b9c4a7d2e8f15c30"


def test_a_low_stock_is_said_once_in_the_journal_on_the_desktop_and_to_the_hook(daemon, session_bus, unique_name, tmp_path):
    hook = write_script(tmp_path / "hook.sh", 'env > "$1"')
    daemon.env["DBUS_SESSION_BUS_ADDRESS"] = session_bus.address
    daemon.start()
    added = daemon.ctl_json("add", unique_name, "--daily", "--at", "08:00", "--dose", "1", "--unit", "tablet", "--refill-days", "5",
                            "--exec", f"{hook} {tmp_path}/low.env")
    assert (added["dose"], added["unit"], added["refillDays"]) == (1, "tablet", 5)
    stock = daemon.ctl_json("stock", "set", unique_name, "3")
    # Expected from what the daemon reports: 3 daily doses from its next occurrence on.
    assert stock["left"] == 3 and stock["doses"] == 3 and stock["days"] < 5, stock
    entries = wait_until(lambda: Journal().entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_LOW_STOCK))
    assert len(entries) == 1, entries
    entry = entries[0]
    assert (entry["STOCK_LEFT"], entry["REMINDER_UNIT"], entry["STOCK_THROUGH"], entry["STOCK_DAYS"]) == ("3", "tablet", stock["through"], str(stock["days"]))
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == f"Running low: {unique_name}")
    assert shown[0]["body"].startswith("3 tablets left: enough through "), shown
    env_file = tmp_path / "low.env"
    assert wait_until(lambda: env_file.exists() and "STOCK_LEFT" in env_file.read_text())
    env = dict(line.split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)
    assert (env["REMINDER_STATE"], env["STOCK_LEFT"], env["REMINDER_NAME"]) == ("low-stock", "3", unique_name)
    # Said once: a count of less than was left then says nothing more (a refill would).
    daemon.ctl("stock", "set", unique_name, "2")
    assert len(Journal().entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_LOW_STOCK)) == 1
    shown_text = daemon.ctl("stock", "show", unique_name).stdout
    assert "2 tablets: enough through" in shown_text, shown_text


MESSAGE_ESCALATED = "b81d5f3e6c2a4097a3e8d1c6f5b2e049"


def test_a_dose_not_taken_by_its_escalation_delay_runs_the_escalation_command_once(daemon, journald, unique_name, tmp_path):
    """--escalate-after 2s with a 30 s window: 2 s after its time, still not taken, the escalation command runs
    (its environment written to a file) and the journal says so; the dose then taken, nothing more runs."""
    hook = write_script(tmp_path / "tell-carer.sh", 'env > "$1.tmp" && mv "$1.tmp" "$1-$(date +%s%N)"')
    daemon.start()
    due = int(time.time()) + 3
    added = daemon.ctl_json("add", unique_name, "--daily", "--at", time_of_day(due), "--tz", DAY_ZONE,
                            "--window", "30s", "--dose", "2", "--unit", "tablet", "--escalate-exec", f"{hook} {tmp_path}/escalated",
                            "--escalate-after", "2s")
    assert added["escalateAfterSeconds"] == 2
    entries = journald.wait_for(timeout=15, REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_ESCALATED)
    assert len(entries) == 1, entries
    escalated_at = int(entries[0]["__REALTIME_TIMESTAMP"]) / 1e6
    assert due + 2 <= escalated_at < due + 4, (due, escalated_at)
    files = wait_until(lambda: list(tmp_path.glob("escalated-*")))
    env = dict(line.split("=", 1) for line in files[0].read_text().splitlines() if "=" in line)
    assert (env["REMINDER_STATE"], env["REMINDER_NAME"], env["REMINDER_DOSE"], env["REMINDER_UNIT"]) == ("overdue", unique_name, "2", "tablet")
    assert env["REMINDER_ESCALATED_LATE"] == "0" and env["SCHEDULED_UTC"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(due))
    daemon.ctl("done", unique_name)
    time.sleep(1)
    assert len(list(tmp_path.glob("escalated-*"))) == 1
    assert len(journald.entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_ESCALATED)) == 1


def test_an_as_needed_dose_too_soon_is_refused_with_when_the_next_is_allowed(daemon, unique_name):
    daemon.start()
    daemon.ctl("add", unique_name, "--as-needed", "--dose", "400", "--unit", "mg", "--min-interval", "6h", "--max-per-day", "3")
    first = daemon.ctl_json("done", unique_name)["log"]
    refused = daemon.ctl("done", unique_name, check=False)
    assert refused.returncode != 0 and refused.stderr.count("\n") == 1, refused.stderr
    assert "the next is allowed from" in refused.stderr and "--force to log it anyway" in refused.stderr, refused.stderr
    forced = daemon.ctl_json("done", unique_name, "--force")["log"]
    assert forced["forced"] is True and forced["utc"] >= first["utc"]
    today = daemon.ctl("today").stdout
    assert f"{unique_name} 400 mg  allowed from " in today and "1 more in 24 hours" in today, today


def test_done_takes_several_reminders_and_every_one_due(daemon, unique_name):
    """`done A B` takes each in turn (one refused is said and the rest taken, exit 1); `done --all-due` takes every
    occurrence due now, as the notification's Take all does; with nothing due it says so."""
    daemon.start()
    names = [f"{unique_name}-{letter}" for letter in "abc"]
    instants = [add_soon(daemon, name, "--daily", "--at", "{}", "--window", "1h", "--dose", "1", "--unit", "tablet")[1] for name in names]
    sleep_until(max(instants) + dt.timedelta(seconds=1))
    several = daemon.ctl("done", names[0], names[1], f"{unique_name}-none", check=False)
    assert several.returncode == 1, several
    assert [line.split(",")[0] for line in several.stdout.splitlines()] == [f"Taken: {names[0]}", f"Taken: {names[1]}"], several.stdout
    assert f"{unique_name}-none" in several.stderr, several.stderr
    # (The built-in weekly rest check-in may be due too, on a Sunday morning: it is taken with the rest.)
    every = [reply["log"]["reminderName"] for reply in daemon.ctl_json("done", "--all-due")]
    assert names[2] in every and not set(names[:2]) & set(every), every
    assert daemon.ctl("done", "--all-due").stdout.strip() == "Nothing is due now."
    refused = daemon.ctl("done", "--all-due", names[0], check=False)
    assert refused.returncode != 0 and "not both" in refused.stderr, refused.stderr


def test_two_medicines_kept_apart_refuse_a_dose_within_the_gap_either_way(daemon, unique_name):
    """#59 item 4: `--apart-from Iron 4h` holds both ways: `show` says it on each, a dose of either within the gap
    of the other's is refused in one line with when the next is allowed, `--force` logs it; `0` removes it."""
    daemon.start()
    iron, levothyroxine = f"{unique_name}-iron", f"{unique_name}-levo"
    daemon.ctl("add", iron, "--as-needed", "--dose", "1", "--unit", "tablet")
    added = daemon.ctl_json("add", levothyroxine, "--as-needed", "--dose", "50", "--unit", "mcg", "--apart-from", iron, "4h")
    assert added["apart"] == [{"reminder": iron, "seconds": 14400}], added
    shown = daemon.ctl("show", iron).stdout
    assert f"from {levothyroxine} by 4h" in shown, shown
    taken = daemon.ctl_json("done", iron)["log"]
    refused = daemon.ctl("done", levothyroxine, check=False)
    assert refused.returncode != 0 and refused.stderr.count("\n") == 1, refused.stderr
    assert f"{levothyroxine}: {iron} was taken at " in refused.stderr and "(kept at least 4h apart)" in refused.stderr, refused.stderr
    assert "the next is allowed from" in refused.stderr and "--force" in refused.stderr, refused.stderr
    forced = daemon.ctl_json("done", levothyroxine, "--force")["log"]
    assert forced["forced"] is True and forced["utc"] >= taken["utc"]
    # The other way round: the iron is refused now, by the levothyroxine just forced.
    assert f"{iron}: {levothyroxine} was taken at " in daemon.ctl("done", iron, check=False).stderr
    odd = daemon.ctl("update", iron, "--apart-from", levothyroxine, check=False)
    assert odd.returncode != 0 and "--apart-from takes a medicine's name and a gap" in odd.stderr, odd.stderr
    daemon.ctl("update", iron, "--apart-from", levothyroxine, "0")
    assert "apart" not in daemon.ctl_json("show", levothyroxine), "removed on both sides"
    daemon.ctl_json("done", iron)


def test_a_pack_with_its_last_day_is_listed_first_and_the_stock_says_when_to_order(daemon, unique_name):
    """#59 item 3: `stock add NAME 10 --expires DATE` is a pack used first; `stock show` lists the packs and the
    day to order by (`--order-days` before the stock runs out); a date already past is refused in one line."""
    daemon.start()
    daemon.ctl("add", unique_name, "--daily", "--at", "08:00", "--dose", "1", "--unit", "tablet", "--order-days", "3")
    daemon.ctl("stock", "set", unique_name, "20")
    today = dt.date.fromisoformat(daemon.ctl_json("stock", "show", unique_name)[0]["through"]) - dt.timedelta(days=19)
    last = today + dt.timedelta(days=30)
    stock = daemon.ctl_json("stock", "add", unique_name, "10", "--expires", last.isoformat())
    assert stock["left"] == 30 and stock["packs"] == [
        {"left": 10, "expires": last.isoformat(), "expired": False}, {"left": 20, "expired": False}], stock
    through = dt.date.fromisoformat(stock["through"])
    assert stock["orderBy"] == (through - dt.timedelta(days=3)).isoformat(), stock
    shown = daemon.ctl("stock", "show", unique_name).stdout
    assert f"  10 tablets, until {last.isoformat()}" in shown and "  20 tablets, no date" in shown, shown
    assert "order by " in shown, shown
    past = daemon.ctl("stock", "add", unique_name, "5", "--expires", "2020-01", check=False)
    assert past.returncode != 0 and "is past" in past.stderr and past.stderr.count("\n") == 1, past.stderr
    assert daemon.ctl_json("stock", "show", unique_name)[0]["left"] == 30
