"""Desktop notifications end to end: the real remindd on a real dbus-daemon, talking to a notification server
that follows the freedesktop specification (notification_server.py) and records what it is asked."""
import datetime as dt
import os
import signal
import subprocess
import time

from conftest import DAY_ZONE, Journal, SessionBus, after_a_later_firing, time_of_day, user_day, wait_until
from test_closing_the_loop import MESSAGE_FIRED, MESSAGE_REPEATED, add_soon, sleep_until

MESSAGE_COMING_UP = "ca531a038aa646e0aac53225a4727fa2"


def start_on_bus(daemon, bus_address):
    daemon.env["DBUS_SESSION_BUS_ADDRESS"] = bus_address
    daemon.start()


def labels(call):
    """The buttons a notification shows."""
    return call["actions"][1::2]


def key(call, label):
    """The action key of the button labelled `label` (it names the occurrences it acts on: `taken:7`)."""
    return call["actions"][call["actions"].index(label) - 1]


def names(call):
    """The reminders a notification lists: `3 due: A, B, C (still not taken)` lists A, B and C."""
    summary = call["summary"]
    for suffix in (" (shown again)", " (still not taken)"):
        summary = summary.removesuffix(suffix)
    head, _, listed = summary.partition(" due: ")
    return listed.split(", ") if head.isdigit() else [summary]


def test_taken_on_the_notification_logs_stops_repeats_and_closes_it(daemon, session_bus, unique_name):
    """A repeating reminder is shown with Taken / Snooze 10 min / Skip; its repeat replaces the notification
    (same id, not a second one); choosing Taken logs the intake, ends the repeats and closes it. Its dose is in
    the notification's body and the journal's fields, and the log records it."""
    start_on_bus(daemon, session_bus.address)
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--repeat", "3s", "--urgency", "critical", "--dose", "2", "--unit", "tablet")
    mine = lambda c: c["call"] == "Notify" and c["summary"].startswith(unique_name)
    first, repeat = session_bus.wait_for(mine, count=2)
    rid = reminder["id"]
    assert first["actions"] == [f"taken:{rid}", "Taken", f"snooze:{rid}/10", "Snooze 10 min", f"skip:{rid}", "Skip"]
    assert first["app_name"] == "remindd" and first["urgency"] == 2 and first["replaces_id"] == 0
    assert first["body"].startswith("Take 2 tablets. Daily, ")
    fired = wait_until(lambda: Journal().entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED))
    assert [(e["REMINDER_DOSE"], e["REMINDER_UNIT"]) for e in fired] == [("2", "tablet")], fired
    assert repeat["replaces_id"] == first["id"] and repeat["summary"] == f"{unique_name} (still not taken)"
    session_bus.invoke(first["id"], key(first, "Taken"))
    closed = session_bus.wait_for(lambda c: c["call"] == "CloseNotification" and c["id"] == first["id"])
    logs = daemon.ctl_json("log", "list", "--reminder", unique_name)
    assert len(logs) == 1 and dt.datetime.fromisoformat(logs[0]["takes"]) == instant, logs
    assert (logs[0]["amount"], logs[0]["unit"]) == (2, "tablet"), logs
    assert len(closed) == 1
    # Two more repeat intervals: the daemon announced a reminder due after them.
    marker = "later-" + unique_name  # not one of `mine`
    after_a_later_firing(daemon.ctl, marker, 6.5, lambda: [c for c in session_bus.calls if c["call"] == "Notify" and c["summary"].startswith(marker)])
    assert len([c for c in session_bus.calls if mine(c)]) == 2
    assert len(Journal().entries(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_REPEATED)) == 1


def test_a_click_counts_only_as_its_notification_offered_it_and_from_the_server_that_showed_it(daemon, session_bus, unique_name):
    """Forged clicks (#57 item 4): the action key named reminders and any key was carried out, from any client
    on the bus. Now another client sending the bubble's own Taken, the server sending a key the bubble did not
    offer (an as-needed painkiller nobody was shown) and a key of 100,000 choices log nothing, and are said in
    the journal once; the real click then logs the dose once."""
    start_on_bus(daemon, session_bus.address)
    painkiller = daemon.ctl_json("add", f"{unique_name}-pain", "--as-needed", "--dose", "1", "--unit", "tablet", "--min-interval", "4h")
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--window", "1h", "--dose", "1", "--unit", "tablet")
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name, timeout=15)
    assert shown, "the dose was not shown"
    nid, taken = shown[0]["id"], key(shown[0], "Taken")
    subprocess.run(["gdbus", "emit", "--session", "--object-path", "/org/freedesktop/Notifications",
                    "--signal", "org.freedesktop.Notifications.ActionInvoked", f"uint32 {nid}", f"'{taken}'"],
                   env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=session_bus.address), check=True, capture_output=True)
    session_bus.invoke(nid, f"taken:{painkiller['id']}")
    # 100,000 choices (1.3 MB): far over the 1 KiB a key may have.
    session_bus.invoke(nid, ",".join([f"taken:{painkiller['id']}"] * 100_000))
    session_bus.invoke(nid, taken)
    logs = wait_until(lambda: daemon.ctl_json("log", "list", "--reminder", unique_name))
    assert len(logs) == 1 and dt.datetime.fromisoformat(logs[0]["takes"]) == instant, logs
    assert daemon.ctl_json("log", "list", "--reminder", f"{unique_name}-pain") == []
    said = lambda: [e["MESSAGE"] for e in Journal().entries(_PID=str(daemon.process.pid)) if "was refused" in e["MESSAGE"]]
    refused = wait_until(said, timeout=5) or []
    assert len(refused) == 1 and "not by the notification server" in refused[0], refused
    assert daemon.ctl_json("status")  # answered at once: nothing held it


def test_a_dose_is_critical_and_every_notification_names_remindds_desktop_entry(daemon, session_bus, unique_name):
    """A reminder with a dose is critical without --urgency (GNOME keeps only critical notifications on screen);
    one without a dose is normal; both name remindd.desktop and their category, and ask the server to play no
    sound of its own when remindd plays one (a player is installed: paplay)."""
    start_on_bus(daemon, session_bus.address)
    water, _ = add_soon(daemon, unique_name + "-water", "--daily", "--at", "{}")
    assert water["urgency"] == "normal"
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name + "-water")
    assert shown[0]["urgency"] == 1 and shown[0]["hints"]["category"] == "x-remindd.reminder", shown
    daemon.ctl("done", unique_name + "-water")
    dose, _ = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "500mg")
    assert dose["urgency"] == "critical"
    shown += session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name)
    assert shown[1]["urgency"] == 2 and shown[1]["hints"]["category"] == "x-remindd.dose", shown
    for call in shown:
        assert call["hints"]["desktop-entry"] == "remindd" and call["hints"]["suppress-sound"] is True, call
    normal = daemon.ctl_json("update", unique_name, "--urgency", "normal")
    assert normal["urgency"] == "normal"


def test_during_quiet_hours_a_reminder_is_low_urgency_and_a_dose_stays_critical(daemon, session_bus, unique_name):
    now = dt.datetime.now(dt.timezone.utc)
    (daemon.config / "remindd").mkdir(parents=True, exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text(
        f'quiet-hours = "{(now - dt.timedelta(hours=1)):%H:%M}-{(now + dt.timedelta(hours=1)):%H:%M}"\n')
    start_on_bus(daemon, session_bus.address)
    add_soon(daemon, unique_name + "-water", "--daily", "--at", "{}", "--window", "1h")
    water = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name + "-water")
    assert water[0]["urgency"] == 0 and water[0]["hints"]["suppress-sound"] is True, water
    # The dose comes due while the water is still due: one notification lists both, and the dose makes it critical.
    add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "500mg")
    both = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"].startswith("2 due: "))
    assert both and sorted(names(both[0])) == sorted([unique_name, unique_name + "-water"]), both
    assert both[0]["urgency"] == 2 and both[0]["replaces_id"] == water[0]["id"], both


def test_a_new_notification_server_shows_the_dose_still_due_again_once(daemon, session_bus, unique_name):
    """The desktop's notification server restarts (or a desktop logs in): what it showed is gone. The dose still
    due is on the new one within 2 s, once, "(shown again)"; a reminder already taken is not."""
    start_on_bus(daemon, session_bus.address)
    dose, _ = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "1", "--unit", "tablet", "--window", "1h")
    _, taken_at = add_soon(daemon, unique_name + "-taken", "--daily", "--at", "{}", "--window", "1h")
    mine = lambda c: c["call"] == "Notify" and unique_name in c["summary"]
    assert session_bus.wait_for(lambda c: mine(c) and sorted(names(c)) == sorted([unique_name, unique_name + "-taken"]))
    sleep_until(taken_at + dt.timedelta(seconds=1))
    daemon.ctl("done", unique_name + "-taken")
    assert session_bus.wait_for(lambda c: mine(c) and c["summary"] == unique_name), "the group did not lose the one taken"
    before = len(session_bus.calls)
    session_bus.restart_server()
    restarted = time.time()
    again = session_bus.wait_for(lambda c: mine(c) and "(shown again)" in c["summary"], timeout=5)
    assert again and time.time() - restarted < 2.5, again
    assert again[0]["summary"] == f"{unique_name} (shown again)" and again[0]["urgency"] == 2 and again[0]["replaces_id"] == 0
    assert labels(again[0]) == ["Taken", "Snooze 10 min", "Skip"] and key(again[0], "Taken") == f"taken:{dose['id']}"
    time.sleep(1.5)
    assert [c["summary"] for c in session_bus.calls[before:] if mine(c)] == [f"{unique_name} (shown again)"]
    # Its Taken works on the new server.
    session_bus.invoke(again[0]["id"], key(again[0], "Taken"))
    assert wait_until(lambda: daemon.ctl_json("log", "list", "--reminder", unique_name))


def test_an_imported_meetings_alarm_says_when_the_meeting_is_and_offers_dismiss(daemon, session_bus, unique_name, tmp_path):
    """A meeting imported from a calendar file (Thunderbird's, here written by hand) with a 15-minute alarm: its
    notification says the meeting's own time and offers Dismiss and Snooze, not Taken."""
    start_on_bus(daemon, session_bus.address)
    meeting = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=15, seconds=4)).replace(microsecond=0)
    ics = tmp_path / "meeting.ics"
    ics.write_text("\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Mozilla.org/NONSGML Mozilla Calendar V1.1//EN", "BEGIN:VEVENT",
        f"UID:{unique_name}@example.org", f"SUMMARY:{unique_name}", f"DTSTART:{meeting:%Y%m%dT%H%M%SZ}",
        f"DTEND:{meeting + dt.timedelta(hours=1):%Y%m%dT%H%M%SZ}", "BEGIN:VALARM", "ACTION:DISPLAY", "TRIGGER:-PT15M",
        "DESCRIPTION:Reminder", "END:VALARM", "END:VEVENT", "END:VCALENDAR", ""]))
    daemon.ctl("import", "--format", "ics", str(ics))
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name, timeout=15)
    assert shown, "the alarm was not shown"
    assert labels(shown[0]) == ["Dismiss", "Snooze 10 min"], shown[0]
    assert key(shown[0], "Dismiss").startswith("dismiss:"), shown[0]
    clock = f"{meeting:%a %H:%M}" + (f":{meeting:%S}" if meeting.second else "")  # seconds only when not zero
    assert shown[0]["body"] == f"at {clock}, in 15m", shown[0]["body"]


def test_snooze_on_the_notification_puts_it_off_by_the_reminders_own_length(daemon, session_bus, unique_name):
    """`--snooze 15m`: the button says "Snooze 15 min", and choosing it announces the occurrence again 15 minutes
    later (the daemon's `next`, snoozed); `show` says the length."""
    start_on_bus(daemon, session_bus.address)
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--window", "1h", "--snooze", "15m")
    assert reminder["snoozeMinutes"] == 15
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name)
    assert shown and labels(shown[0]) == ["Taken", "Snooze 15 min", "Skip"], shown
    assert key(shown[0], "Snooze 15 min") == f"snooze:{reminder['id']}/15"
    asked = dt.datetime.now(dt.timezone.utc).replace(microsecond=0)
    session_bus.invoke(shown[0]["id"], key(shown[0], "Snooze 15 min"))
    snoozed = wait_until(lambda: (lambda r: r if r["next"] and r["next"].get("snoozed") else None)(daemon.ctl_json("show", unique_name)))
    done = dt.datetime.now(dt.timezone.utc)
    until = dt.datetime.fromisoformat(snoozed["next"]["utc"].replace("Z", "+00:00"))
    assert asked + dt.timedelta(minutes=15) <= until <= done + dt.timedelta(minutes=15), (asked, until, done)
    assert "snooze:    15m from the notification's Snooze button" in daemon.ctl("show", unique_name).stdout


def test_taken_late_on_the_missed_notification_records_the_dose_late(daemon, session_bus, unique_name):
    """The Missed note offers Taken late (it had no button: a late dose could not be recorded from it); choosing
    it logs the dose now for that occurrence, which is then taken-late, in the journal and in `today`."""
    start_on_bus(daemon, session_bus.address)
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--window", "2s")
    missed = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == f"Missed: {unique_name}", timeout=15)
    assert missed and missed[0]["actions"] == [f"late:{reminder['id']}", "Taken late"], missed
    session_bus.invoke(missed[0]["id"], key(missed[0], "Taken late"))
    entries = Journal().wait_for(REMINDER_NAME=unique_name, REMINDER_STATE="taken-late")
    assert len(entries) == 1 and entries[0]["MESSAGE"].startswith(f"Taken late: {unique_name}")
    assert session_bus.wait_for(lambda c: c["call"] == "CloseNotification" and c["id"] == missed[0]["id"])
    mine = [o for o in daemon.ctl_json("day", user_day(instant))["occurrences"] if o["reminderName"] == unique_name]
    assert [o["state"] for o in mine] == ["taken-late"] and dt.datetime.fromisoformat(mine[0]["local"]) == instant
    logs = daemon.ctl_json("log", "list", "--reminder", unique_name)
    assert len(logs) == 1 and dt.datetime.fromisoformat(logs[0]["takes"]) == instant, logs


def test_a_log_from_the_cli_closes_the_notification(daemon, session_bus, unique_name):
    start_on_bus(daemon, session_bus.address)
    _, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}")
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name)
    assert shown
    # At normal urgency too it stays until acted on (it expired after the server's 5 s): no timeout, and the
    # server keeps it after an action where it can.
    assert shown[0]["urgency"] == 1 and shown[0]["expire_timeout"] == 0 and shown[0]["resident"] is True
    sleep_until(instant + dt.timedelta(seconds=1))
    daemon.ctl("done", unique_name)
    assert session_bus.wait_for(lambda c: c["call"] == "CloseNotification" and c["id"] == shown[0]["id"])


def test_without_a_notification_server_one_line_and_the_journal_goes_on(daemon, tmp_path, unique_name):
    """A session bus without a notification server: the firings and repeats are in the journal on time, and the
    journal says once why no notification is shown."""
    (tmp_path / "empty").mkdir()
    bus = SessionBus(tmp_path / "empty", with_server=False)
    try:
        start_on_bus(daemon, bus.address)
        _, first = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--repeat", "1s", "--repeat-max", "2")
        journal = Journal()
        fired = journal.wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_FIRED)
        assert fired and abs(int(fired[0]["__REALTIME_TIMESTAMP"]) / 1e6 - first.timestamp()) < 1.0
        assert len(journal.wait_for(count=2, REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_REPEATED)) == 2
        pid = str(daemon.process.pid)
        warnings = [e for e in journal.entries(_PID=pid) if e["MESSAGE"].startswith("Desktop notifications are not shown")]
        assert len(warnings) == 1 and "ServiceUnknown" in warnings[0]["MESSAGE"], [e["MESSAGE"] for e in journal.entries(_PID=pid)]
    finally:
        bus.stop()


def test_without_a_session_bus_one_line(daemon):
    daemon.env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
    daemon.start()
    journal = Journal()
    deadline = time.time() + 5
    while time.time() < deadline:
        notes = [e["MESSAGE"] for e in journal.entries(_PID=str(daemon.process.pid)) if "desktop notifications are off" in e["MESSAGE"]]
        if notes:
            break
        time.sleep(0.1)
    assert len(notes) == 1 and notes[0].startswith("No session bus ("), notes


def test_a_reload_turns_desktop_notifications_on_and_off(daemon, session_bus, unique_name):
    """notifications = "none" at start, then "desktop", "none" and "desktop" again by reloads: only the reminders
    that fire while they are on are shown; every one is in the journal. (Turning them on used to need a restart.)"""
    config = daemon.config / "remindd" / "config.toml"
    config.parent.mkdir(parents=True, exist_ok=True)

    def reload(notifications):
        config.write_text(f'notifications = "{notifications}"\n')
        daemon.notifications.clear()
        daemon.process.send_signal(signal.SIGHUP)
        assert daemon.wait_notification("READY=1")

    def fire(name):
        add_soon(daemon, name, "--daily", "--at", "{}")
        assert Journal().wait_for(REMINDER_NAME=name, MESSAGE_ID=MESSAGE_FIRED)

    def listed(name):
        return session_bus.wait_for(lambda c: c["call"] == "Notify" and name in names(c))

    config.write_text('notifications = "none"\n')
    start_on_bus(daemon, session_bus.address)
    fire(f"{unique_name}-a-off")
    reload("desktop")
    assert [c["summary"] for c in listed(f"{unique_name}-a-off")] == [f"{unique_name}-a-off (shown again)"]
    fire(f"{unique_name}-b-on")
    assert listed(f"{unique_name}-b-on")
    reload("none")
    fire(f"{unique_name}-c-off")
    # On once more: the bus delivers one connection's calls in order, so a Notify for the one fired while off
    # would come before this one's.
    reload("desktop")
    fire(f"{unique_name}-d-on")
    assert listed(f"{unique_name}-d-on")
    # Turned on, it connects, and the one fired while off, still due, is shown then (once); turned on again over
    # the connection kept, nothing fired while off is shown.
    shown = {name for c in session_bus.calls if c["call"] == "Notify" for name in names(c)}
    assert f"{unique_name}-c-off" not in shown and f"{unique_name}-d-on" in shown, shown


def lose_the_bus(daemon, tmp_path, unique_name):
    """remindd shows a notification on a session bus, then the bus stops: waits until the journal says so."""
    bus = SessionBus(tmp_path)
    try:
        start_on_bus(daemon, bus.address)
        add_soon(daemon, f"{unique_name}-before", "--daily", "--at", "{}")
        assert bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == f"{unique_name}-before")
    finally:
        bus.stop()
    journal, pid = Journal(), str(daemon.process.pid)
    deadline = time.time() + 10
    while not [e for e in journal.entries(_PID=pid) if "the session bus closed the connection" in e["MESSAGE"]]:
        assert time.time() < deadline, "the lost bus is not in the journal"
        time.sleep(0.1)


def test_after_the_session_bus_restarts_the_next_reminder_is_shown_again(daemon, tmp_path, unique_name):
    """The bus goes away while remindd runs (it was restarted): the journal says so, and the next firing
    connects again and is shown on the new bus, without a restart of remindd."""
    lose_the_bus(daemon, tmp_path, unique_name)
    journal, pid = Journal(), str(daemon.process.pid)
    bus = SessionBus(tmp_path)  # a new dbus-daemon and notification server at the same address
    try:
        add_soon(daemon, f"{unique_name}-after", "--daily", "--at", "{}")
        # With the one shown before the bus went, still due (shown again once the bus came back): one notification.
        assert bus.wait_for(lambda c: c["call"] == "Notify" and f"{unique_name}-after" in names(c))
        again = [e["MESSAGE"] for e in journal.entries(_PID=pid) if "session bus again" in e["MESSAGE"]]
        assert again == ["Connected to the session bus again: desktop notifications are shown"], again
    finally:
        bus.stop()


def test_a_hung_session_bus_delays_no_firing(daemon, tmp_path, unique_name):
    """The bus is restarted but hangs (its dbus-daemon stopped with SIGSTOP): connecting again to it blocked for
    sd-bus's 25 s timeout inside the announcement, on the scheduler's thread, and the next reminder came 25 s
    late. Connecting happens on a thread of its own now: both reminders reach the journal on time."""
    lose_the_bus(daemon, tmp_path, unique_name)
    journal = Journal()
    bus = SessionBus(tmp_path, with_server=False)  # a new dbus-daemon at the same address, then hung
    try:
        bus.daemon.send_signal(signal.SIGSTOP)
        _, first = add_soon(daemon, f"{unique_name}-first", "--daily", "--at", "{}", lead=4)
        _, second = add_soon(daemon, f"{unique_name}-second", "--daily", "--at", "{}", lead=7)
        for name in (f"{unique_name}-first", f"{unique_name}-second"):
            fired = journal.wait_for(timeout=15, REMINDER_NAME=name, MESSAGE_ID=MESSAGE_FIRED)
            assert fired, f"{name} was not announced on time (or at all)"
            assert int(fired[0]["LATE_SECONDS"]) <= 1, fired[0]
    finally:
        bus.daemon.send_signal(signal.SIGCONT)
        bus.stop()


def test_a_notice_before_is_a_low_urgency_notification_and_a_journal_entry_not_an_occurrence(daemon, session_bus, unique_name):
    """`--before 1m`: a minute before the occurrence, "NAME in 1m" at low urgency, with no buttons (nothing is due
    yet); the journal's entry has its own MESSAGE_ID; `today` still lists the occurrence as upcoming."""
    start_on_bus(daemon, session_bus.address)
    reminder, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "500mg", "--before", "1m", lead=64)
    assert reminder["beforeMinutes"] == [1], reminder
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == f"{unique_name} in 1m", timeout=15)
    assert shown and shown[0]["urgency"] == 0 and shown[0]["actions"] == [], shown
    assert shown[0]["body"].startswith("Take 500 mg at "), shown[0]
    entries = Journal().wait_for(REMINDER_NAME=unique_name, MESSAGE_ID=MESSAGE_COMING_UP)
    assert len(entries) == 1 and entries[0]["BEFORE_MINUTES"] == "1" and entries[0]["REMINDER_ANNOUNCEMENT"] == "before", entries
    assert abs(int(entries[0]["__REALTIME_TIMESTAMP"]) / 1e6 - (instant.timestamp() - 60)) < 1.0
    # The occurrence's day (64 s ahead may be tomorrow).
    states = [o["state"] for o in daemon.ctl_json("day", user_day(instant))["occurrences"] if o["reminderName"] == unique_name]
    assert states == ["upcoming"], states


def test_a_dose_due_when_the_session_bus_restarts_is_shown_again_on_the_new_one_within_2_seconds(daemon, tmp_path, unique_name):
    """A dose is due; the session bus goes away and a new one (with its notification server) starts at the same
    address, as at a new login. remindd watches the bus's socket file: it connects at once and shows the dose
    again, once, within 2 s, though nothing else is announced (it waited for the next announcement before)."""
    bus = SessionBus(tmp_path)
    start_on_bus(daemon, bus.address)
    add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "1", "--unit", "tablet", "--window", "1h")
    assert bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == unique_name)
    bus.stop()
    journal, pid = Journal(), str(daemon.process.pid)
    assert wait_until(lambda: [e for e in journal.entries(_PID=pid) if "the session bus closed the connection" in e["MESSAGE"]], timeout=10)
    bus = SessionBus(tmp_path)  # a new dbus-daemon and notification server at the same address
    try:
        ready = time.time()
        again = bus.wait_for(lambda c: c["call"] == "Notify" and c["summary"] == f"{unique_name} (shown again)", timeout=5)
        assert again and time.time() - ready < 2.0, again
        time.sleep(1.5)
        assert len([c for c in bus.calls if c["call"] == "Notify" and unique_name in c["summary"]]) == 1, bus.calls
    finally:
        bus.stop()


def test_two_peoples_doses_due_together_are_one_notification_that_names_each(daemon, session_bus, unique_name):
    """#59 item 5: a caregiver's laptop: Anna's and Dad's doses due at one time are one notification that names
    each person with their medicine, and its Take all logs both."""
    start_on_bus(daemon, session_bus.address)
    anna, instant = add_soon(daemon, unique_name, "--daily", "--at", "{}", "--dose", "250mg", "--for", "Anna", "--window", "1h", lead=6)
    dad = daemon.ctl_json("add", unique_name + "-dad", "--daily", "--at", time_of_day(instant), "--tz", DAY_ZONE, "--dose", "100mg",
                          "--for", "Dad", "--window", "1h")
    assert dad["next"]["utc"] == anna["next"]["utc"] and dad["person"] == "Dad", dad
    shown = session_bus.wait_for(lambda c: c["call"] == "Notify" and unique_name in c["summary"] and c["summary"].startswith("2 due: "))
    assert sorted(names(shown[0])) == [f"Anna: {unique_name}", f"Dad: {unique_name}-dad"], shown[0]
    assert f"Anna: {unique_name} 250 mg" in shown[0]["body"], shown[0]["body"]
    session_bus.invoke(shown[0]["id"], key(shown[0], "Take all"))
    assert wait_until(lambda: len(daemon.ctl_json("log", "list")) >= 2)
    today = daemon.ctl("today").stdout
    assert f"Anna: {unique_name}" in today and f"Dad: {unique_name}-dad" in today, today
