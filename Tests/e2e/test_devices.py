"""On every device: two remindd daemons ("laptop" and "desktop"), each with its own linked collection (a vdir),
kept in step by the real vdirsyncer with one real CalDAV server on 127.0.0.1: every test runs against Radicale and
against Xandikos (Debian's packages). What is added, taken, skipped or changed
on one is on the other after a sync; a conflict ends the same on both with the other version in the journal;
no log is lost; a sync with nothing changed leaves every file as it was."""
import datetime as dt
import json
import subprocess
import time

import pytest
from pathlib import Path

from caldav_devices import CalDAVServer, Device, PhoneApp, same_logs, same_reminders, settled, sync_all
from conftest import DAY_TZINFO, DAY_ZONE, after_a_later_firing, time_of_day, user_day, utc_now, wait_until

ACKNOWLEDGED = "928c3235a708446db5a3937c92d50a94"
CONFLICT = "66dc6221c475436ab1827beb0d3a6f51"


@pytest.fixture(scope="module", params=["radicale", "xandikos"])
def server(request, tmp_path_factory):
    """Each test of this file runs against Radicale and against Xandikos (#61), as vdirsyncer's own CI does."""
    started = CalDAVServer(request.param, tmp_path_factory.mktemp(request.param))
    yield started
    started.stop()


@pytest.fixture
def devices(journald, server, tmp_path):
    calendar = server.make_calendar()
    made = [Device(tmp_path, "laptop", calendar, journald), Device(tmp_path, "desktop", calendar, journald)]
    yield made
    for device in made:
        device.stop()


def test_added_taken_and_skipped_on_one_device_are_so_on_the_other(devices, server, unique_name):
    laptop, desktop = devices
    pills, walk = unique_name + "-pills", unique_name + "-walk"
    # Firing about 12 s from now (whole seconds), after two syncs.
    at = (utc_now() + dt.timedelta(seconds=12)).replace(microsecond=0)
    laptop.ctl("add", pills, "--daily", "--at", time_of_day(at), "--tz", DAY_ZONE, "--window", "1h", "--repeat", "1m")
    laptop.ctl("add", walk, "--daily", "--at", time_of_day(at + dt.timedelta(hours=2)), "--tz", DAY_ZONE)
    sync_all(laptop, desktop)
    assert wait_until(lambda: pills in [r["name"] for r in desktop.json("list")])
    assert same_reminders(desktop) == same_reminders(laptop)
    expected = at.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert [f["utc"] for f in desktop.json("next", "--count", "50") if f["reminderName"] == pills][:1] == [expected]

    # Both fire at the same instant.
    for device in devices:
        fired = device.journald.wait_for(timeout=30, REMINDER_NAME=pills, _PID=device.daemon.process.pid)
        assert [(e["REMINDER_ANNOUNCEMENT"], e["SCHEDULED_UTC"]) for e in fired][:1] == [("fired", expected)], device.name

    # Taken on the laptop after both fired: after the desktop's sync it is taken there (its notification closes,
    # its repeats stop), at the laptop's time, and neither records it missed. (A log in the firing's own second
    # counts as logged ahead of it: the test waits for the next second.)
    wait_until(lambda: utc_now() >= at + dt.timedelta(seconds=1))
    laptop.ctl("done", pills)
    sync_all(laptop, desktop)
    taken = wait_until(lambda: desktop.entries(REMINDER_NAME=pills, MESSAGE_ID=ACKNOWLEDGED))
    assert taken and taken[0]["REMINDER_STATE"] == "taken", taken
    # The days asked for by date (the firing's, the user's: `day` lists the occurrences on the user's clock's date,
    # whatever a reminder's zone calls it): a run near midnight UTC asks the right one (the walk, 2 hours on, falls
    # on the next UTC date from 22:00 UTC).
    occurrences = {d.name: [o for o in d.json("day", user_day(at))["occurrences"] if o["reminderName"] == pills]
                   for d in devices}
    assert [o["state"] for o in occurrences["desktop"]] == ["taken"], occurrences
    assert occurrences["desktop"][0]["loggedUtc"] == occurrences["laptop"][0]["loggedUtc"]
    # Past its next repeat's time (at most a minute away), the desktop announced no more repeats. That is the
    # daemon's answer to the log the sync brought, whichever server carried it: waited for with Radicale only
    # (a minute of the CI's time), the taken state above being checked with both.
    if server.kind == "radicale":
        repeats_then = len(desktop.entries(REMINDER_NAME=pills, REMINDER_ANNOUNCEMENT="repeated"))
        marker = pills + "-later"
        after_a_later_firing(desktop.ctl, marker, (at + dt.timedelta(seconds=62) - utc_now()).total_seconds(),
                             lambda: desktop.entries(REMINDER_NAME=marker))
        assert len(desktop.entries(REMINDER_NAME=pills, REMINDER_ANNOUNCEMENT="repeated")) == repeats_then

    # Skipped on the desktop: skipped on the laptop.
    desktop.ctl("skip", walk, "--reason", "rain")
    sync_all(laptop, desktop)
    walk_day = user_day(at + dt.timedelta(hours=2))
    walk_today = wait_until(lambda: [o["state"] for o in laptop.json("day", walk_day)["occurrences"] if o["reminderName"] == walk] == ["skipped"])
    assert walk_today, laptop.json("day", walk_day)

    # Every log made on either side exists once on each.
    logs = same_logs(devices, pills)
    assert logs["laptop"] == logs["desktop"] and len(logs["laptop"]) == 1, logs

    # Synced again with nothing changed: every file keeps its mtime and inode.
    sync_all(laptop, desktop)
    settled(laptop, desktop)
    before = (laptop.files(), desktop.files())
    sync_all(laptop, desktop)
    assert (laptop.files(), desktop.files()) == before
    # Two reminders, the rest check-in, a log and a skip (vdirsyncer names the files it fetches its own way).
    assert len(before[0]) == len(before[1]) == 5


def test_edited_on_both_between_syncs_ends_identical_with_the_conflict_in_the_journal_and_no_log_lost(devices, unique_name):
    laptop, desktop = devices
    name = unique_name + "-meds"
    laptop.ctl("add", name, "--daily", "--at", "08:00", "--tz", "Europe/Berlin")
    sync_all(laptop, desktop)
    assert wait_until(lambda: name in [r["name"] for r in desktop.json("list")])

    laptop.ctl("log", "add", name)
    laptop.ctl("update", name, "--daily", "--at", "08:30")
    time.sleep(1.1)  # LAST-MODIFIED has whole seconds: the desktop's change is the later one
    desktop.ctl("log", "add", name)
    desktop.ctl("update", name, "--daily", "--at", "09:00")
    sync_all(laptop, desktop)
    desktop.sync()
    assert wait_until(lambda: same_reminders(laptop) == same_reminders(desktop)), (same_reminders(laptop), same_reminders(desktop))
    assert [r["rule"]["at"] for r in laptop.json("list") if r["name"] == name] == ["09:00"]
    conflicts = wait_until(lambda: [e for e in laptop.journald.entries(MESSAGE_ID=CONFLICT) if name in e.get("MESSAGE", "")])
    assert conflicts and "08:30" in conflicts[0]["REMINDD_OTHER_VERSION"].replace("\\,", ","), conflicts
    logs = same_logs(devices, name)
    assert logs["laptop"] == logs["desktop"] and len(logs["laptop"]) == 2, logs


def test_updated_on_one_and_deleted_on_the_other_ends_the_same_on_both(devices, unique_name):
    laptop, desktop = devices
    name = unique_name + "-stretch"
    laptop.ctl("add", name, "--daily", "--at", "18:00", "--tz", "UTC")
    sync_all(laptop, desktop)
    assert wait_until(lambda: name in [r["name"] for r in desktop.json("list")])
    laptop.ctl("update", name, "--daily", "--at", "19:00")
    desktop.ctl("delete", name, "--yes")
    sync_all(laptop, desktop)
    desktop.sync()
    assert wait_until(lambda: same_reminders(laptop) == same_reminders(desktop)), (same_reminders(laptop), same_reminders(desktop))


def test_the_sync_command_runs_after_a_change_and_brings_it_to_the_server(journald, server, tmp_path, unique_name):
    calendar = server.make_calendar()
    laptop = Device(tmp_path, "laptop", calendar, journald, sync_command=True)
    desktop = Device(tmp_path, "desktop", calendar, journald)
    try:
        laptop.ctl("add", unique_name, "--daily", "--at", "07:00", "--tz", "UTC")

        # No vdirsyncer run by the test on the laptop: its daemon runs it about 2 s after the change.
        def arrived():
            desktop.sync()
            return unique_name in [r["name"] for r in desktop.json("list")]
        assert wait_until(arrived, timeout=20)
    finally:
        laptop.stop()
        desktop.stop()


def test_a_task_todoman_adds_to_the_collection_fires_and_todo_done_takes_it(devices, tmp_path, unique_name):
    laptop, desktop = devices
    config = tmp_path / "todoman.py"
    config.write_text(f'path = "{laptop.vdir}"\ndefault_list = "vdir"\ndate_format = "%Y-%m-%d"\ntime_format = "%H:%M"\n')
    env = dict(laptop.daemon.env, TZ="UTC")
    due = (utc_now() + dt.timedelta(days=1)).replace(hour=18, minute=0, second=0, microsecond=0)
    made = subprocess.run(["todoman", "--config", str(config), "new", "--due", due.strftime("%Y-%m-%d %H:%M"), unique_name],
                          env=env, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr
    firings = wait_until(lambda: [f for f in laptop.json("next", "--count", "50") if f["reminderName"] == unique_name])
    assert [f["utc"] for f in firings] == [due.strftime("%Y-%m-%dT%H:%M:%SZ")]

    # remindd writes the task back as its reminder; todoman still shows it due at its time, not an hour later.
    assert wait_until(lambda: any("X-REMINDD-RULE" in p.read_text() and unique_name in p.read_text() for p in Path(laptop.vdir).glob("*.ics")))
    listed = subprocess.run(["todoman", "--config", str(config), "--porcelain", "list"], env=env, capture_output=True, text=True, timeout=120)
    task = next(t for t in json.loads(listed.stdout) if t["summary"] == unique_name)
    assert task["due"] == int(due.timestamp()), task
    done = subprocess.run(["todoman", "--config", str(config), "done", str(task["id"])], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    logs = wait_until(lambda: [l for l in laptop.json("log", "list") if l["reminderName"] == unique_name])
    assert len(logs) == 1, logs
    # The other device learns it with the next sync, once.
    sync_all(laptop, desktop)
    assert wait_until(lambda: [l["utc"] for l in desktop.json("log", "list") if l["reminderName"] == unique_name]) == [logs[0]["utc"]]

    # A one-off added and taken with remindctl leaves todoman's open tasks (it stayed there for ever).
    def open_tasks():
        listed = subprocess.run(["todoman", "--config", str(config), "--porcelain", "list"], env=env, capture_output=True, text=True, timeout=120)
        return [t["summary"] for t in json.loads(listed.stdout)]
    pills = unique_name + " pills"
    laptop.ctl("add", pills, "--once", due.strftime("%Y-%m-%dT%H:%M"), "--tz", "UTC")
    assert wait_until(lambda: pills in open_tasks())
    laptop.ctl("log", pills)
    assert wait_until(lambda: pills not in open_tasks())


def comparable(device, name):
    """`show --json` of a reminder, without what each device numbers itself."""
    shown = device.json("show", name)
    shown = shown.get("reminder", shown)
    return {k: v for k, v in shown.items() if k not in ("id", "next")}


def test_every_setting_at_its_extremes_survives_the_server_both_ways(devices, unique_name):
    """Through the real server (Radicale's parser keeps only the first value of a TEXT property with a bare comma):
    dose limits, refill and order days, a repeat maximum, a taper, a dose and unit and names with `,;\\` and
    non-ASCII arrive whole, and an edit on the other device comes back whole."""
    laptop, desktop = devices
    painkiller = unique_name + ", Ibuprofen; 400\\mg — Schmerz"
    pills = unique_name + "-Prednisolon äöü 💊"
    laptop.ctl("add", painkiller, "--as-needed", "--dose", "400mg", "--min-interval", "6h", "--max-per-day", "3", "--refill-days", "12",
               "--order-days", "4")
    laptop.ctl("add", pills, "--daily", "--at", "08:00,20:00", "--tz", "Europe/Berlin", "--window", "2h", "--repeat", "10m",
               "--repeat-max", "3", "--urgency", "critical", "--steps", "40mg until 2027-01-01; 30mg until 2027-01-08; 20mg until 2027-01-15")
    # #61 item 3: whom it is for, a strength, a gap from another medicine and following the local zone travel too.
    iron = unique_name + "-Eisen"
    laptop.ctl("add", iron, "--daily", "--at", "09:00", "--tz", "local", "--dose", "1", "--unit", "tablet", "--strength", "100mg",
               "--for", "Anna, Müller; Jr.", "--apart-from", pills, "4h")
    before = {name: comparable(laptop, name) for name in (painkiller, pills, iron)}
    assert before[iron]["strength"] == 100 and before[iron]["person"] == "Anna, Müller; Jr." and before[iron]["apart"] == [{"reminder": pills, "seconds": 14400}], before[iron]
    assert before[painkiller]["maxPerDay"] == 3 and before[pills].get("repeatMax") == 3, before
    assert (before[painkiller]["refillDays"], before[painkiller]["orderDays"]) == (12, 4), before  # #61: they travel too
    sync_all(laptop, desktop)
    assert wait_until(lambda: {painkiller, pills, iron} <= {r["name"] for r in desktop.json("list")})
    for name in (painkiller, pills, iron):
        assert comparable(desktop, name) == before[name], name
    # Edited on the desktop: the change and everything else reach the laptop whole.
    desktop.ctl("update", painkiller, "--max-per-day", "2", "--refill-days", "20")
    desktop.ctl("update", pills, "--repeat-max", "5")
    sync_all(desktop, laptop)
    assert wait_until(lambda: comparable(laptop, painkiller)["maxPerDay"] == 2)
    assert comparable(laptop, painkiller)["refillDays"] == 20
    assert wait_until(lambda: comparable(laptop, pills).get("repeatMax") == 5)
    for name in (painkiller, pills):
        assert comparable(laptop, name) == comparable(desktop, name), name


def test_a_pause_travels_with_its_reminder_and_so_does_its_end(devices, unique_name):
    """A pause with dates made on the laptop is on the desktop after a sync, its reason the same on both (a `;`
    is kept as `,`: it separates pauses in the item); resumed on the desktop, it ends on the laptop too."""
    import datetime as dt
    laptop, desktop = devices
    laptop.ctl("add", unique_name, "--daily", "--at", "08:00", "--tz", "UTC")
    until = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(days=5)).date().isoformat()
    laptop.ctl("pause", unique_name, "--until", until, "--reason", "Klinik; Station 3, Bett 2")
    paused = laptop.json("pause", "list")
    assert [p["reason"] for p in paused] == ["Klinik, Station 3, Bett 2"], paused
    sync_all(laptop, desktop)
    expected = [(p["from"], p["until"], p["reason"]) for p in paused]
    assert wait_until(lambda: [(p["from"], p["until"], p["reason"]) for p in desktop.json("pause", "list")] == expected), desktop.json("pause", "list")
    desktop.ctl("resume", unique_name)
    sync_all(desktop, laptop)
    assert wait_until(lambda: laptop.json("pause", "list") == []), laptop.json("pause", "list")


@pytest.fixture
def phone_devices(journald, server, tmp_path):
    calendar = server.make_calendar()
    mode = 'collection-mode = "occurrences"\n'
    made = [Device(tmp_path, "laptop", calendar, journald, settings=mode), Device(tmp_path, "desktop", calendar, journald, settings=mode)]
    yield made, PhoneApp(calendar)
    for device in made:
        device.stop()


def test_a_phone_closes_the_loop_through_the_server_with_occurrence_tasks(phone_devices, unique_name):
    """The phone completes one occurrence task as Tasks.org does (STATUS and COMPLETED), another as jtx Board does
    (PERCENT-COMPLETE and COMPLETED), cancels a third: after each computer's sync each dose is taken at its
    COMPLETED time, once, and the third skipped. A dose logged on the laptop: after its sync the phone reads its
    task completed before the task's alarm."""
    (laptop, desktop), phone = phone_devices
    zone, offset = DAY_ZONE, DAY_TZINFO.utcoffset(None)
    local_now = (utc_now() + offset).replace(microsecond=0)
    # Two doses due in 20 and 40 seconds (each ticked once it was due, the first before the second came: a task
    # ticked ahead of its time is no dose) and one in 3 hours (cancelled ahead: a skip).
    times = [(local_now + dt.timedelta(seconds=s)).strftime("%H:%M:%S") for s in (20, 40, 3 * 3600)]
    laptop.ctl("add", unique_name, "--daily", "--at", ",".join(times), "--tz", zone, "--dose", "500mg", "--window", "30m")
    occurrences = [f["utc"] for f in laptop.json("next", "--count", "50") if f["reminderName"] == unique_name][:3]
    sync_all(laptop, desktop)
    compact = [o.replace("-", "").replace(":", "") for o in occurrences]
    tasks = wait_until(lambda: (lambda t: t if set(compact) <= set(t) else None)(phone.tasks(unique_name)), timeout=20)
    assert "DUE:" + compact[0] in tasks[compact[0]].data and "SUMMARY:" + unique_name + "\\, 500 mg" in tasks[compact[0]].data

    due = [dt.datetime.strptime(o, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc) for o in occurrences[:2]]
    time.sleep(max(0.0, (due[1] - utc_now()).total_seconds() + 5))
    completed = [due[0] + dt.timedelta(seconds=5), due[1] + dt.timedelta(seconds=3)]
    stamp = [c.strftime("%Y%m%dT%H%M%SZ") for c in completed]
    PhoneApp.mark(tasks[compact[0]], ["STATUS:COMPLETED", "COMPLETED:" + stamp[0]])               # Tasks.org
    PhoneApp.mark(tasks[compact[1]], ["PERCENT-COMPLETE:100", "COMPLETED:" + stamp[1]])           # jtx Board
    PhoneApp.mark(tasks[compact[2]], ["STATUS:CANCELLED"])
    expected = sorted(c.strftime("%Y-%m-%dT%H:%M:%SZ") for c in completed)

    def logs(device):
        days = sorted({c.strftime("%Y-%m-%d") for c in completed})
        return sorted(l["utc"] for day in days for l in device.json("log", "list", "--date", day) if l["reminderName"] == unique_name)

    def states(device):
        # The three doses' dates on the user's clock (3 hours apart, they may span two).
        days = sorted({user_day(o) for o in occurrences})
        listed = {o["utc"]: o["state"] for day in days for o in device.json("day", day)["occurrences"] if o["reminderName"] == unique_name}
        return [listed[utc] for utc in sorted(listed)]

    for device in (laptop, desktop):
        device.sync()
        assert wait_until(lambda: logs(device) == expected, timeout=20), (device.name, logs(device))
        assert wait_until(lambda: states(device)[2:] == ["skipped"]), (device.name, states(device))
    sync_all(laptop, desktop)
    settled(laptop, desktop)
    for device in (laptop, desktop):
        assert logs(device) == expected, device.name  # once: reading each other's items added none

    # A dose logged on the laptop ahead of its time: after the laptop's sync the phone has its task completed,
    # before the alarm rings.
    early = unique_name + " early"
    laptop.ctl("add", early, "--daily", "--at", time_of_day(utc_now() + dt.timedelta(seconds=120)), "--tz", zone)
    occurrence = next(f["utc"] for f in laptop.json("next", "--count", "50") if f["reminderName"] == early)
    laptop.ctl("log", early)
    laptop.sync()
    task = phone.tasks(early)[occurrence.replace("-", "").replace(":", "")]
    assert "STATUS:COMPLETED" in task.data and "X-REMINDD-CLOSED:TAKEN" in task.data, task.data
    assert utc_now() < dt.datetime.strptime(occurrence, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=dt.timezone.utc)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_operations_on_two_devices_converge_through_the_server(devices, unique_name, seed):
    """#61: random adds, changes, deletions, logs (at past times of today), log deletions and skips on either
    device, with random syncs of one device between them, through the real server (Radicale, then Xandikos):
    after both sync, both list the same reminders and the same logs, and every log made and not deleted is
    there exactly once (as `CollectionConvergenceTests` checks in-process with many more seeds). Seed 2 with
    Xandikos found a dose left on one device 3 runs in 4: a log read before its reminder, which a later scan of
    the named entries did not apply."""
    import random
    rng = random.Random(seed)
    laptop, desktop = devices
    names, made, deleted, trace = [], {}, {}, []
    now = utc_now().replace(microsecond=0)
    days = [(now - dt.timedelta(days=back)).strftime("%Y-%m-%d") for back in (1, 0)]  # every log is of the 10 hours before `now`
    for step in range(24):
        device = rng.choice(devices)
        name = rng.choice(names) if names else None
        op = rng.randrange(8)
        trace.append((step, device.name, op, name))
        if op in (0, 1) or name is None:
            new = f"{unique_name}-{step}"
            device.ctl("add", new, "--daily", "--at", f"{rng.randrange(6, 23):02d}:{15 * rng.randrange(4):02d}", "--tz", "UTC", "--window", "1h")
            names.append(new)
        elif op == 2:
            device.daemon.ctl("update", name, "--at", f"{rng.randrange(6, 23):02d}:00", check=False)
        elif op == 3:
            if device.daemon.ctl("delete", name, "--yes", check=False).returncode == 0:
                names.remove(name)
        elif op in (4, 5):
            at = now - dt.timedelta(minutes=rng.randrange(1, 600))
            if device.daemon.ctl("log", name, "--at", at.strftime("%Y-%m-%dT%H:%M:%SZ"), "--force", check=False).returncode == 0:
                key = (name, at.strftime("%Y-%m-%dT%H:%M:%SZ"))
                made[key] = made.get(key, 0) + 1
        elif op == 6:
            own = [l for day in days for l in device.json("log", "list", "--date", day) if l["reminderName"] in names]
            if own:
                log = rng.choice(own)
                if device.daemon.ctl("log", "delete", str(log["id"]), check=False).returncode == 0:
                    key = (log["reminderName"], log["utc"])
                    deleted[key] = deleted.get(key, 0) + 1
        else:
            device.daemon.ctl("skip", name, check=False)
        if rng.random() < 0.3:
            syncing = rng.choice(devices)
            syncing.sync()
            trace.append(("sync", syncing.name))
    def logs(device):
        return sorted((l["reminderName"], l["utc"]) for day in days for l in device.json("log", "list", "--date", day)
                      if l["reminderName"].startswith(unique_name))
    # Synced until both agree (a change published after a device's last run goes with its next one), 5 rounds at most.
    def agreed():
        sync_all(laptop, desktop)
        settled(laptop, desktop)
        return same_reminders(laptop) == same_reminders(desktop) and logs(laptop) == logs(desktop)
    assert wait_until(agreed, timeout=60), (same_reminders(laptop), same_reminders(desktop), logs(laptop), logs(desktop), trace)
    kept = {key: count - deleted.get(key, 0) for key, count in made.items() if key[0] in {r[0] for r in same_reminders(laptop)}}
    expected = sorted(key for key, count in kept.items() for _ in range(count))
    assert logs(laptop) == expected, (seed, logs(laptop), expected)
