"""Medication end to end: the real remindd, a real dbus-daemon with the recording notification server, the
real journal. A stock counted too low for the reminder's refill days is said once: in the journal (its own
MESSAGE_ID, the catalog's fields), as a desktop notification, and to the reminder's --exec hook."""
from conftest import Journal, wait_until
from test_closing_the_loop import write_script

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
