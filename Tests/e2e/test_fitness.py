"""Workouts and food through the real daemon: calories, validation that stores nothing, the day's totals."""
import datetime as dt


def yesterday(daemon):
    """The day before the daemon's today (from its `day` answer), read once per test: the test's times agree
    with each other and with the daemon, whatever the wall clock says."""
    return dt.date.fromisoformat(daemon.ctl_json("day")["date"]) - dt.timedelta(days=1)


def at(day, hour):
    return f"{day.isoformat()}T{hour:02d}:00"


def test_workout_calories_and_day_totals(daemon):
    daemon.start()
    day = yesterday(daemon)
    # 30 minutes of running (9.8 MET) at the default 70 kg: 360 kcal (ACSM: minutes x MET x 3.5 x kg / 200).
    workout = daemon.ctl_json("workout", "add", "Running", "--minutes", "30", "--intensity", "vigorous", "--at", at(day, 7))
    assert workout["kcal"] == 360
    food = daemon.ctl("food", "add", "Oatmeal", "--kcal", "350", "--at", at(day, 8))
    assert "Logged food" in food.stdout
    date = day.isoformat()
    totals = daemon.ctl_json("day", date)
    assert (totals["consumed"], totals["burned"], totals["net"]) == (350, 360, -10)
    assert [w["name"] for w in totals["workouts"]] == ["Running"] and [f["name"] for f in totals["food"]] == ["Oatmeal"]
    # Deleting answers the entry as it was and changes the totals at once.
    assert daemon.ctl_json("workout", "delete", str(workout["id"]), "--yes") == workout
    assert daemon.ctl_json("day", date)["burned"] == 0
    # Weight from the profile, in pounds too; editing recomputes.
    daemon.ctl("profile", "set", "--weight", "180lb")
    again = daemon.ctl_json("workout", "add", "Running", "--minutes", "30", "--intensity", "vigorous", "--at", at(day, 9))
    assert again["kcal"] == round(30 * 9.8 * 3.5 * 81.6 / 200)
    text = daemon.ctl("day", date).stdout
    assert "consumed 350 kcal · burned 420 kcal · net -70 kcal (deficit)" in text
    deleted = daemon.ctl("workout", "delete", str(again["id"]), "--yes").stdout
    assert deleted.startswith(f"Deleted workout {again['id']}: Running, 30 min vigorous, 420 kcal at "), deleted
    oatmeal = daemon.ctl_json("day", date)["food"][0]
    assert daemon.ctl_json("food", "delete", str(oatmeal["id"]), "--yes") == oatmeal
    assert daemon.ctl_json("day", date)["consumed"] == 0


def test_workouts_count_as_activity_for_the_streak(daemon):
    (daemon.config / "remindd").mkdir(exist_ok=True)
    (daemon.config / "remindd" / "config.toml").write_text("grace-minutes = 0\n")
    daemon.start()
    day = yesterday(daemon)
    daemon.ctl("workout", "add", "Yoga", "--minutes", "45", "--intensity", "light", "--at", at(day, 18))
    assert daemon.ctl_json("streak")["current"]["length"] == 1


def test_bad_workouts_are_refused_and_nothing_is_saved(daemon):
    daemon.start()
    day = yesterday(daemon)
    date = day.isoformat()
    for args, words in [
        (["Running", "--minutes", "0", "--intensity", "vigorous"], "1 to 1440 minutes"),
        (["Running", "--minutes", "1441", "--intensity", "vigorous"], "1 to 1440 minutes"),
        (["Running", "--minutes", "-30", "--intensity", "vigorous"], "1 to 1440 minutes"),
        (["Swiming", "--minutes", "30", "--intensity", "light"], "did you mean 'Swimming'"),
        (["Nope", "--minutes", "30", "--intensity", "light"], "unknown exercise 'Nope': did you mean 'Jump Rope'?"),
        (["swim", "--minutes", "30", "--intensity", "light"], "unknown exercise 'swim': did you mean 'Swimming"),
        (["Running", "--minutes", "30"], "missing intensity"),
        (["Running", "--minutes", "30", "--intensity", "vigorous", "--at", "2099-01-01T10:00"], "in the future"),
    ]:
        result = daemon.ctl("workout", "add", *args, "--at", at(day, 10), check=False) if "--at" not in args else daemon.ctl("workout", "add", *args, check=False)
        assert result.returncode == 1 and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    assert daemon.ctl_json("day", date)["workouts"] == []
    assert daemon.ctl_json("day")["workouts"] == []


def test_the_only_exercise_with_every_word_is_picked_and_said(daemon):
    daemon.start()
    day = yesterday(daemon)
    result = daemon.ctl("workout", "add", "jump", "--minutes", "10", "--intensity", "vigorous", "--at", at(day, 10))
    assert "Jump Rope (the only exercise matching 'jump'), 10 min vigorous" in result.stdout, result.stdout
    exact = daemon.ctl("workout", "add", "Jump Rope", "--minutes", "10", "--intensity", "vigorous", "--at", at(day, 11))
    assert ": Jump Rope, 10 min" in exact.stdout, exact.stdout


def test_calories_group_days_and_say_when_there_is_nothing(daemon):
    daemon.start()
    day = yesterday(daemon)
    daemon.ctl("workout", "add", "Swimming", "--minutes", "30", "--intensity", "vigorous", "--at", at(day, 7))
    two_days_ago = day - dt.timedelta(days=1)
    lines = daemon.ctl("calories", "--from", two_days_ago.isoformat(), "--to", day.isoformat()).stdout.splitlines()
    empty_day = f"{two_days_ago.strftime('%a')} {two_days_ago.day} {two_days_ago.strftime('%b')}"
    assert lines[0] == f"No workouts logged on {empty_day}"
    assert "360 kcal burned (Swimming 30 min)" in lines[1]  # 30 x 9.8 x 3.5 x 70 / 200 = 360.15
    backwards = daemon.ctl("calories", "--from", day.isoformat(), "--to", two_days_ago.isoformat(), check=False)
    assert backwards.returncode == 1 and "before it starts" in backwards.stderr


def test_updating_a_workout_recomputes_its_calories_and_keeps_its_time(daemon):
    daemon.start()
    day = yesterday(daemon)
    workout = daemon.ctl_json("workout", "add", "Running", "--minutes", "30", "--intensity", "vigorous", "--at", at(day, 7))
    updated = daemon.ctl_json("workout", "update", str(workout["id"]), "--minutes", "40")
    assert updated == dict(workout, minutes=40, kcal=round(40 * 9.8 * 3.5 * 70 / 200)), updated
    missing = daemon.ctl("workout", "update", str(workout["id"] + 1), "--minutes", "40", check=False)
    assert missing.returncode == 1 and f"no workout {workout['id'] + 1}" in missing.stderr, missing.stderr


def test_negative_calories_are_refused_with_their_range(daemon):
    """`food add --kcal -5` said "Missing value for '--kcal'"."""
    daemon.start()
    result = daemon.ctl("food", "add", "Tea", "--kcal", "-5", check=False)
    assert result.returncode == 1 and "kcal must be 0 to 20000, not -5" in result.stderr, result.stderr
    assert daemon.ctl_json("day")["food"] == []
