"""`remindctl preview --on-calendar` against `systemd-analyze calendar --iterations=N`, systemd's own reading of
its calendar expressions.

Random expressions (weekday lists and ranges, years, months, days counted from the start or the month's end,
lists, ranges, repetitions, stars, shorthands, a trailing zone; seeded, so a failure reproduces), from random
instants in random zones, many of them just before a DST change: the same instants, or both refuse. Also
random text close to an expression (a character dropped, doubled or changed), which systemd mostly refuses:
remindd must refuse what systemd refuses, and read the same instants from what it accepts.
"""
import concurrent.futures
import json
import os
import random
import re
import subprocess
import zoneinfo
import datetime as dt

from conftest import BIN

ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Asia/Kolkata", "UTC", "Europe/London",
         "America/Sao_Paulo", "Pacific/Chatham"]
WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun", "Monday", "friday", "SAT"]
SHORTHANDS = ["minutely", "hourly", "daily", "weekly", "monthly", "yearly", "annually", "quarterly", "semiannually", "semi-annually",
              "biannually"]
ITERATIONS = 6


def chain(rng, low, high, width=2, star=0.4):
    """A field: '*', or items (value, range, repetition) separated by commas."""
    if rng.random() < star:
        return "*"
    items = []
    for _ in range(rng.choice([1, 1, 1, 2, 3])):
        start = rng.randint(low, high)
        roll = rng.random()
        if roll < 0.5:
            items.append(f"{start:0{width}d}")
        elif roll < 0.75:
            stop = rng.randint(start, min(high, start + rng.randint(0, 12)))
            items.append(f"{start:0{width}d}..{stop:0{width}d}" + (f"/{rng.randint(1, 5)}" if rng.random() < 0.4 else ""))
        else:
            items.append(f"{start:0{width}d}/{rng.randint(1, max(1, (high - low) // 2))}")
    return ",".join(items)


def weekdays(rng):
    parts = []
    for _ in range(rng.choice([1, 1, 2])):
        a, b = sorted(rng.sample(range(7), 2))
        parts.append(WEEKDAYS[a] if rng.random() < 0.5 else f"{WEEKDAYS[a]}..{WEEKDAYS[b]}")
    return ",".join(parts)


def expression(rng):
    roll = rng.random()
    if roll < 0.08:
        text = rng.choice(SHORTHANDS)
    else:
        parts = []
        if rng.random() < 0.35:
            parts.append(weekdays(rng))
        date_roll = rng.random()
        if date_roll < 0.45:
            year = chain(rng, 2026, 2031, width=4, star=0.8)
            month = chain(rng, 1, 12, star=0.5)
            if rng.random() < 0.2:
                parts.append(f"{year}-{month}~{chain(rng, 1, 7, star=0.0)}")
            else:
                parts.append(f"{year}-{month}-{chain(rng, 1, 31, star=0.4)}")
        elif date_roll < 0.55:
            parts.append(f"{chain(rng, 1, 12, star=0.3)}-{chain(rng, 1, 31, star=0.3)}")
        if rng.random() < 0.85:
            time = f"{chain(rng, 0, 23)}:{chain(rng, 0, 59, star=0.2)}"
            if rng.random() < 0.3:
                time += ":" + chain(rng, 0, 59, star=0.2)
            parts.append(time)
        text = " ".join(parts) or "daily"
    if rng.random() < 0.15:
        text += " " + rng.choice(["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"])
    return text


def mangled(rng, text):
    """The text with one character dropped, doubled or replaced: mostly what systemd refuses."""
    i = rng.randrange(len(text))
    roll = rng.random()
    if roll < 0.33:
        return text[:i] + text[i + 1:]
    if roll < 0.66:
        return text[:i] + text[i] + text[i:]
    return text[:i] + rng.choice("0123456789*-~:,./ aZ") + text[i + 1:]


def base_instant(rng, zone_name):
    """An instant in 2026-2030, often a few hours before one of the zone's offset changes."""
    zone = zoneinfo.ZoneInfo(zone_name)
    base = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc) + dt.timedelta(seconds=rng.randint(0, 4 * 365 * 86400))
    if rng.random() < 0.5:
        # Walk hour by hour to the next offset change (none in UTC and Kolkata: keep the instant).
        t = base
        for _ in range(24 * 200):
            if t.astimezone(zone).utcoffset() != (t + dt.timedelta(hours=1)).astimezone(zone).utcoffset():
                base = t - dt.timedelta(hours=rng.randint(0, 5), minutes=rng.choice([0, 7, 30, 59]))
                break
            t += dt.timedelta(hours=1)
    return int(base.timestamp())


def systemd_instants(text, zone, base):
    """systemd's next instants (epoch seconds), or None when it refuses the expression."""
    result = subprocess.run(["systemd-analyze", "calendar", f"--iterations={ITERATIONS}", f"--base-time=@{base}", "--", text],
                            env={**os.environ, "TZ": zone, "SYSTEMD_COLORS": "0"}, capture_output=True, text=True, timeout=30)
    if "Failed to determine next elapse" in result.stderr:
        # systemd's own search gave up ("Infinite loop in calendar calculation"): it has no answer.
        return "gave up"
    if result.returncode != 0:
        assert "Failed to parse" in result.stderr + result.stdout, result.stderr
        return None
    instants = []
    lines = result.stdout.splitlines()
    for index, line in enumerate(lines):
        m = re.match(r"\s*(Next elapse|Iter\. #\d+): (.*)$", line)
        if not m:
            continue
        if m.group(2).strip() == "never":
            break
        # The UTC form follows on the next line unless the elapse is printed in UTC already.
        utc_line = lines[index + 1] if index + 1 < len(lines) and "(in UTC)" in lines[index + 1] else line
        stamp = re.search(r"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d) UTC", utc_line)
        assert stamp, f"no UTC time in {utc_line!r}"
        instants.append(int(dt.datetime.strptime(stamp.group(1), "%Y-%m-%d %H:%M:%S").replace(tzinfo=dt.timezone.utc).timestamp()))
    return instants


def remindd_instants(text, zone, base):
    """remindd's next instants, or None when it refuses (with one line on stderr)."""
    after = dt.datetime.fromtimestamp(base, dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    args = [str(BIN / "remindctl"), "preview", f"--on-calendar={text}", "--after", after, "--count", str(ITERATIONS), "--json"]
    # A zone the expression names is its own; --tz only when it names none.
    env = {**os.environ, "TZ": zone}
    result = subprocess.run(args, env=env, capture_output=True, text=True, timeout=30)
    if result.returncode != 0:
        assert result.returncode == 1 and result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
        # remindd fires on whole seconds and at most once a minute: a fraction of a second, and several seconds of a
        # minute, are refused (the README says so), where systemd reads them.
        if "fractions of a second" in result.stderr or "at most once a minute" in result.stderr:
            return "refused by design"
        return None
    return [int(dt.datetime.fromisoformat(f["utc"].replace("Z", "+00:00")).timestamp()) for f in json.loads(result.stdout)]


def compare(cases):
    mismatches = []
    accepted = 0
    # Each case is two processes (the debug remindctl starts in about 75 ms): run them on every core.
    with concurrent.futures.ThreadPoolExecutor(max_workers=(os.cpu_count() or 2) + 1) as pool:
        answers = list(pool.map(lambda case: (systemd_instants(*case), remindd_instants(*case)), cases))
    for (text, zone, base), (expected, got) in zip(cases, answers):
        if expected is not None:
            accepted += 1
        if got == "refused by design":
            if isinstance(expected, list):
                continue
            got = None  # refused by both
        if expected == "gave up":
            # Where systemd's search loops (a DST change it cannot get past), remindd must still fire: later
            # instants, each after the last.
            if not got or any(b <= a for a, b in zip([base] + got, got)):
                mismatches.append(f"{text!r} TZ={zone} after @{base}: systemd gave up, remindd {got}")
            continue
        if expected != got:
            mismatches.append(f"{text!r} TZ={zone} after @{base}: systemd {expected}, remindd {got}")
    return accepted, mismatches


def test_random_expressions_fire_at_the_instants_systemd_gives():
    rng = random.Random(20261124)
    cases = [(expression(rng), rng.choice(ZONES), 0) for _ in range(260)]
    cases = [(text, zone, base_instant(rng, zone)) for text, zone, _ in cases]
    accepted, mismatches = compare(cases)
    assert accepted >= 180, f"only {accepted} of {len(cases)} expressions were valid: the generator is off"
    assert not mismatches, "\n".join(mismatches[:20])


def test_what_systemd_refuses_remindd_refuses_and_what_it_reads_is_read_alike():
    rng = random.Random(5545)
    cases = []
    for _ in range(200):
        zone = rng.choice(ZONES)
        cases.append((mangled(rng, expression(rng)), zone, base_instant(rng, zone)))
    accepted, mismatches = compare(cases)
    assert 20 <= accepted <= 180, f"{accepted} of 200 mangled expressions were valid: the mangling is off"
    assert not mismatches, "\n".join(mismatches[:20])


def test_the_issue_examples():
    """The expressions the issue names, in Europe/Berlin from a fixed instant."""
    cases = [(text, "Europe/Berlin", 1795500000) for text in
             ["Mon..Fri *-*-* 09:00", "*-*~01", "*-*-31", "*-02-29 08:00", "Sat,Sun 10:00", "*:0/15", "daily", "weekly", "monthly",
              "quarterly", "semiannually", "*-*-* 02:30", "Mon *-05~07/1", "*-*-1..7/2 12:00 Asia/Tokyo"]]
    accepted, mismatches = compare(cases)
    assert accepted == len(cases)
    assert not mismatches, "\n".join(mismatches)


def test_expressions_that_fire_more_often_than_once_a_minute_are_refused_in_one_line():
    for text in ["*-*-* *:*:*", "*:*:0/10", "*:*:0,30", "minutely"]:
        result = subprocess.run([str(BIN / "remindctl"), "preview", f"--on-calendar={text}", "--tz", "UTC"], capture_output=True, text=True, timeout=30)
        if text == "minutely":  # second 0 of every minute: once a minute, allowed
            assert result.returncode == 0, result.stderr
            continue
        assert result.returncode == 1 and result.stderr.count("\n") == 1, (text, result.stderr)
        assert "at most once a minute" in result.stderr, result.stderr
