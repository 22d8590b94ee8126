#!/usr/bin/env python3
"""Fills a remindd store with years of habit history, as a long-time user's would be.

The store must exist (start remindd once on it: that creates the schema) and the daemon must be stopped. Rows go
in through sqlite3, as remindd writes them: per goal one daily reminder with `logs_per_day` slots, one intake
log per slot a few minutes after it and one fired record per slot; rest days, workouts and food entries.

Usage: history_store.py STORE [--goals 10] [--years 10] [--logs-per-day 3] [--rest-days-per-month 2]
                              [--workouts-per-week 3] [--food-per-day 3]
"""
import argparse
import json
import random
import sqlite3
import time

DAY = 86400


def fill(path, goals=10, years=10, logs_per_day=3, rest_days_per_month=2, workouts_per_week=3, food_per_day=3, seed=1, days=None):
    """Writes the history ending yesterday (UTC), `days` long (default `years` of 365); returns how many rows went
    into each table."""
    rng = random.Random(seed)
    today = int(time.time()) // DAY
    days = days if days is not None else years * 365
    first = today - days
    if logs_per_day > 24:  # spread over the whole day (96: every 15 minutes)
        minutes = [i * 1440 // logs_per_day for i in range(logs_per_day)]
    else:  # from 08:00 to 20:00
        minutes = [(8 + i * (12 // max(1, logs_per_day - 1))) * 60 for i in range(logs_per_day)] if logs_per_day > 1 else [480]
    at = ",".join(f"{m // 60:02d}:{m % 60:02d}" for m in minutes)
    latest = min(1800, 1440 * 60 // logs_per_day // 2)  # a log lands in its own slot's window
    counts = {"reminder": 0, "intake": 0, "firing": 0, "restDay": 0, "workout": 0, "food": 0}
    db = sqlite3.connect(path)
    with db:
        for goal in range(1, goals + 1):
            created = first * DAY
            cursor = db.execute(
                "INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES (?, ?, 'UTC', 1, ?, ?)",
                (f"Goal {goal}", json.dumps({"daily": True, "at": at}), created, today * DAY))
            reminder = cursor.lastrowid
            counts["reminder"] += 1
            intakes, firings = [], []
            for day in range(first, today):
                for minute in minutes:
                    scheduled = day * DAY + minute * 60
                    intakes.append((reminder, scheduled + rng.randint(60, latest), "UTC"))
                    firings.append((reminder, f"Goal {goal}", f"{reminder}@{scheduled}", scheduled, scheduled, "fired", 0, 1))
            db.executemany("INSERT INTO intake (reminderId, at, timeZone) VALUES (?, ?, ?)", intakes)
            db.executemany(
                "INSERT INTO firing (reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                firings)
            counts["intake"] += len(intakes)
            counts["firing"] += len(firings)
        rest = sorted({rng.randrange(first, today) for _ in range(days * 12 * rest_days_per_month // 365)})
        db.executemany("INSERT INTO restDay (date, reason, lightActivities) VALUES (?, 'Recovery', '')",
                       [(time.strftime("%Y-%m-%d", time.gmtime(day * DAY)),) for day in rest])
        counts["restDay"] = len(rest)
        workouts = [(day * DAY + 18 * 3600, rng.choice([20, 30, 45, 60])) for day in range(first, today) if rng.random() < workouts_per_week / 7]
        db.executemany(
            "INSERT INTO workout (exercise, minutes, intensity, met, kcal, at, timeZone) VALUES ('running', ?, 'moderate', 8.3, ?, ?, 'UTC')",
            [(minutes, minutes * 10, at) for at, minutes in workouts])
        counts["workout"] = len(workouts)
        food = [(rng.choice(["Oatmeal", "Salad", "Pasta", "Apple"]), rng.randint(80, 900), day * DAY + (7 + 5 * i) * 3600)
                for day in range(first, today) for i in range(food_per_day)]
        db.executemany("INSERT INTO food (name, kcal, at, timeZone) VALUES (?, ?, ?, 'UTC')", food)
        counts["food"] = len(food)
    db.close()
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("store")
    parser.add_argument("--goals", type=int, default=10)
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--logs-per-day", type=int, default=3)
    parser.add_argument("--rest-days-per-month", type=int, default=2)
    parser.add_argument("--workouts-per-week", type=int, default=3)
    parser.add_argument("--food-per-day", type=int, default=3)
    options = parser.parse_args()
    counts = fill(options.store, options.goals, options.years, options.logs_per_day, options.rest_days_per_month,
                  options.workouts_per_week, options.food_per_day)
    print(", ".join(f"{count} {table}" for table, count in counts.items()))


if __name__ == "__main__":
    main()
