"""`remindctl preview` against an independent oracle: Python's zoneinfo over the same system tzdata.

Random rules, zones and instants (seeded, so a failure reproduces). The oracle applies the policy the
README states: a local time in a DST gap resolves with the offset before the gap (shifted forward by
the gap), a repeated local time resolves to its first occurrence (fold=0), days 29-31 clamp to the
month's end, identical instants fire once.
"""
import calendar
import datetime as dt
import json
import random
import subprocess
import zoneinfo

import pytest

UTC = dt.timezone.utc
WEEKDAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]  # Python's weekday() order
ZONES = sorted(
    z for z in zoneinfo.available_timezones()
    if not z.startswith(("posix/", "right/", "SystemV/")) and z not in ("localtime", "Factory")
)


def resolve(local: dt.datetime, zone: zoneinfo.ZoneInfo) -> dt.datetime:
    return local.replace(tzinfo=zone, fold=0).astimezone(UTC)


def candidate_days(kind, params, day: dt.date):
    """Whether `day` is selected by the rule."""
    if kind == "daily":
        return True
    if kind == "weekly":
        return WEEKDAYS[day.weekday()] in params
    if kind == "monthly":
        last = calendar.monthrange(day.year, day.month)[1]
        return any(min(d, last) == day.day for d in params)
    if kind == "nth":
        ordinal, weekday = params
        if WEEKDAYS[day.weekday()] != weekday:
            return False
        last = calendar.monthrange(day.year, day.month)[1]
        if ordinal == "last":
            return day.day + 7 > last
        return (day.day - 1) // 7 + 1 == int(ordinal[0])
    if kind == "every":
        interval, anchor = params
        return day >= anchor and (day - anchor).days % interval == 0
    raise AssertionError(kind)


def oracle(kind, params, times, zone_name, after: dt.datetime, count: int):
    zone = zoneinfo.ZoneInfo(zone_name)
    found = set()
    day = after.astimezone(zone).date() - dt.timedelta(days=2)
    results = []
    while len(results) < count:
        if candidate_days(kind, params, day):
            for t in times:
                instant = resolve(dt.datetime.combine(day, t), zone)
                if instant > after and instant not in found:
                    found.add(instant)
        # Anything found more than two days back is final: shifts never exceed a day.
        horizon = resolve(dt.datetime.combine(day - dt.timedelta(days=2), dt.time(0)), zone)
        for instant in sorted(i for i in found if i < horizon):
            results.append(instant)
            found.discard(instant)
        day += dt.timedelta(days=1)
    return [i.astimezone(zone).isoformat() for i in sorted(results)[:count]]


def random_case(rng: random.Random):
    kind = rng.choice(["daily", "weekly", "monthly", "nth", "every"])
    times = sorted({dt.time(rng.choice([0, 0, 1, 2, 2, 3, 12, 23]), rng.choice([0, 15, 30, 45])) for _ in range(rng.randint(1, 3))})
    at = ",".join(t.strftime("%H:%M") for t in times)
    if kind == "daily":
        params, flags = None, ["--daily"]
    elif kind == "weekly":
        params = sorted(set(rng.sample(WEEKDAYS, rng.randint(1, 3))))
        flags = ["--weekly", ",".join(params)]
    elif kind == "monthly":
        params = sorted(set(rng.choice([1, 15, 28, 29, 30, 31]) for _ in range(rng.randint(1, 2))))
        flags = ["--monthly", ",".join(map(str, params))]
    elif kind == "nth":
        params = (rng.choice(["1st", "2nd", "3rd", "4th", "5th", "last"]), rng.choice(WEEKDAYS))
        flags = ["--monthly-on", f"{params[0]}-{params[1]}"]
    else:
        anchor = dt.date(rng.randint(1975, 2036), rng.randint(1, 12), rng.randint(1, 28))
        params = (rng.randint(1, 10), anchor)
        flags = ["--every", f"{params[0]}d", "--start", anchor.isoformat()]
    zone = rng.choice(ZONES)
    after = dt.datetime(rng.randint(1975, 2036), rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23), tzinfo=UTC)
    if kind == "every" and after.date() < params[1]:
        after = dt.datetime.combine(params[1], dt.time(0), tzinfo=UTC) - dt.timedelta(days=3)
    return kind, params, times, flags + ["--at", at], zone, after


def preview(remindctl, flags, zone, after, count):
    out = subprocess.run(
        [remindctl, "preview", *flags, "--tz", zone, "--after", after.strftime("%Y-%m-%dT%H:%M:%SZ"), "--count", str(count), "--json"],
        check=True, capture_output=True, text=True,
    ).stdout
    return [item["local"] for item in json.loads(out)]


@pytest.mark.parametrize("seed", range(300))
def test_random_rule_matches_zoneinfo(remindctl, seed):
    rng = random.Random(seed)
    kind, params, times, flags, zone, after = random_case(rng)
    expected = oracle(kind, params, times, zone, after, 6)
    assert preview(remindctl, flags, zone, after, 6) == expected, f"{flags} --tz {zone} --after {after.isoformat()}"


# Transitions are where engines go wrong: aim rules right at them in zones with odd rules.
ODD_ZONES = ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Havana", "America/Santiago",
             "Asia/Beirut", "Pacific/Apia", "America/St_Johns", "Asia/Tehran", "Africa/Casablanca", "Pacific/Chatham",
             "Europe/Dublin", "America/Godthab", "Antarctica/Troll"]


@pytest.mark.parametrize("zone_name", ODD_ZONES)
def test_daily_through_every_transition_of_2020s(remindctl, zone_name):
    zone = zoneinfo.ZoneInfo(zone_name)
    start = dt.datetime(2020, 1, 1, tzinfo=UTC)
    instant, seen = start, 0
    # Walk hour by hour through 2020-2030 looking for offset changes; probe the hour before each.
    while instant < dt.datetime(2030, 1, 1, tzinfo=UTC) and seen < 12:
        nxt = instant + dt.timedelta(hours=1)
        if instant.astimezone(zone).utcoffset() != nxt.astimezone(zone).utcoffset():
            seen += 1
            local = nxt.astimezone(zone)
            times = sorted({(local - dt.timedelta(minutes=m)).time().replace(second=0, microsecond=0) for m in (0, 15, 45, 75)})
            at = ",".join(t.strftime("%H:%M") for t in times)
            after = instant - dt.timedelta(days=1)
            expected = oracle("daily", None, times, zone_name, after, 8)
            assert preview(remindctl, ["--daily", "--at", at], zone_name, after, 8) == expected, f"--daily --at {at} --tz {zone_name} --after {after.isoformat()}"
        instant = nxt
    assert seen > 0 or zone_name in ("Asia/Tehran",), "no transition found: the probe would prove nothing"
