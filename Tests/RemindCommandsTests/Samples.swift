/// Canned daemon replies in the catalogue's wire format: one of each record, as the daemon sends them.
enum Samples {
    static let firing = #"{"reminderId": 1, "reminderName": "Vitamin D", "slot": "1@2026-11-22T09:00", "local": "2026-11-22T09:00:00+00:00", "utc": "2026-11-22T09:00:00Z"}"#
    /// Due at 10:00 UTC, written in Tokyo's time (19:00 +09:00).
    static let tokyoFiring = #"{"reminderId": 2, "reminderName": "Call Akiko", "slot": "2@2026-11-22T19:00", "local": "2026-11-22T19:00:00+09:00", "utc": "2026-11-22T10:00:00Z"}"#
    static let reminder = #"{"id": 1, "name": "Vitamin D", "rule": {"daily": true, "at": "09:00"}, "summary": "daily 09:00", "effectiveTimeZone": "UTC", "enabled": true, "next": \#(firing), "streak": 1, "urgency": "normal", "snoozeMinutes": 10}"#
    static let intake = #"{"id": 7, "reminderId": 1, "reminderName": "Vitamin D", "utc": "2026-11-22T07:40:00Z", "local": "2026-11-22T07:40:00+00:00", "suppresses": "2026-11-22T09:00:00+00:00"}"#
    static let occurrence = #"{"reminderId": 1, "reminderName": "Vitamin D", "slot": "1@2026-11-22T09:00", "local": "2026-11-22T09:00:00+00:00", "utc": "2026-11-22T09:00:00Z", "state": "upcoming", "windowEndUtc": "2026-11-22T23:59:59Z"}"#
    static let entry = #"{"reminderId": 1, "reminderName": "Vitamin D", "slot": "1@2026-11-21T09:00", "kind": "fired", "scheduledUtc": "2026-11-21T09:00:00Z", "handledUtc": "2026-11-21T09:00:00Z", "lateSeconds": 0, "slotsDue": 1, "replanned": false}"#
    static let status = #"{"version": "0.2.0", "reminders": 2, "enabled": 2, "next": \#(firing), "status": "2 reminders, next: Vitamin D at 09:00", "storePath": "/home/u/.local/state/remindd/remindd.sqlite", "journal": true, "systemTimeZone": "UTC", "timeZone": "UTC", "timeZoneSource": "system", "collection": {"folder": "/home/u/.local/share/remindd/collection", "heldBecause": "the folder does not exist"}}"#
    static let run = #"{"length": 3, "start": "2026-11-20", "end": "2026-11-22"}"#
    static let streak = #"{"current": \#(run), "best": \#(run), "freezes": 1, "strength": 42, "recoveryAvailable": false}"#
    static let calendar = #"{"month": "2026-11", "days": [{"date": "2026-11-21", "state": "active", "today": false}, {"date": "2026-11-22", "state": "open", "today": true}], "streak": 3, "freezes": 1, "strength": 42}"#
    static let exercise = #"{"id": "running", "name": "Running", "category": "cardio", "levels": [{"intensity": "light", "met": 6.0, "code": "12020", "derived": false}, {"intensity": "moderate", "met": 8.3, "code": "12030", "derived": false}, {"intensity": "vigorous", "met": 11.0, "code": "12090", "derived": false}]}"#
    static let workout = #"{"id": 3, "name": "Running", "kcal": 290, "local": "2026-11-22T07:00:00+00:00", "minutes": 30, "intensity": "moderate"}"#
    static let food = #"{"id": 4, "name": "Oatmeal", "kcal": 350, "local": "2026-11-22T07:30:00+00:00"}"#
    static let day = #"{"date": "2026-11-22", "food": [\#(food)], "workouts": [\#(workout)], "consumed": 350, "burned": 290, "net": 60}"#
    static let routine = #"{"id": "beginner-full-body", "name": "Beginner Full Body", "description": "Three days", "difficulty": "beginner", "days": [{"number": 1, "title": "Full Body A", "description": "Squats", "exercises": ["Squats"], "rest": false}, {"number": 2, "title": "Rest", "description": "Walk", "exercises": [], "rest": true}]}"#
    static let selection = #"{"routine": "beginner-full-body", "start": "2026-11-23", "at": "18:00", "reminders": [5, 6, 7], "restDays": ["2026-11-24"]}"#

    /// A backup with a reminder in Berlin (a dose of 1 capsule), two intakes (on two pages; the first of half a
    /// capsule, the second a late take of the missed occurrence from before amounts were kept), a food entry with a comma and quotes, and a
    /// workout, as the daemon streams it: the header, then pages of rows.
    static let backup = #"""
        [{"header": {"format": "remindd-backup", "version": 1, "schema": "v8-repeats-and-skips", "exportedAt": "2026-11-22T07:45:00Z"}},
         {"table": "reminder", "rows": [{"id": 1, "name": "Vitamin D", "timeZone": "Europe/Berlin", "delivery": "{\"doseThousandths\":1000,\"doseUnit\":\"capsule\"}"}]},
         {"table": "intake", "rows": [{"id": 7, "reminderId": 1, "at": 1795330800, "timeZone": "Europe/Berlin", "amount": 500}]},
         {"table": "intake", "rows": [{"id": 8, "reminderId": 1, "at": 1795334400, "timeZone": "UTC", "forScheduledAt": 1795248000}]},
         {"table": "firing", "rows": [{"id": 1, "reminderId": 1, "reminderName": "Vitamin D", "slot": "reminder-1-09-00", "scheduledAt": 1795334400, "handledAt": 1795334400, "kind": "fired"}]},
         {"table": "outcome", "rows": [{"id": 1, "reminderId": 1, "reminderName": "Vitamin D", "slot": "reminder-1-09-00", "scheduledAt": 1795248000, "state": "missed", "decidedAt": 1795255200, "reason": null}]},
         {"table": "food", "rows": [{"id": 4, "name": "Oatmeal, \"large\"", "kcal": 350, "at": 1795330800, "timeZone": "UTC"}]},
         {"table": "restDay", "rows": []},
         {"table": "workout", "rows": [{"id": 3, "exercise": "running", "minutes": 30, "intensity": "moderate", "met": 8.3, "kcal": 290, "at": 1795327200, "timeZone": "UTC"}]}]
        """#

    /// Every method's reply, by qualified name.
    static let stock = #"{"reminderId": 1, "reminderName": "Vitamin D", "left": 12, "unit": "capsule", "dose": 1, "doses": 12, "through": "2026-12-03", "throughLocal": "2026-12-03T09:00:00+01:00", "days": 11, "outlastsTheRule": false, "refillDays": 7, "short": 0}"#

    static let replies: [String: String] = [
        "io.remindd.Medication.Stock": #"{"stocks": [\#(stock)]}"#,
        "io.remindd.Reminders.Report": #"{"from": "2026-08-27", "to": "2026-11-24", "timeZone": "Europe/Berlin", "madeUtc": "2026-11-24T21:00:00Z", "reminders": [{"reminderId": 1, "reminderName": "Vitamin D", "due": 90, "onTime": 84, "loggedAhead": 2, "late": 2, "lateMinutesMedian": 95, "lateMinutesP90": 180, "skipped": 1, "skipReasons": [{"reason": "travel", "count": 1}], "missed": ["2026-09-01T09:00:00+02:00", "2026-10-12T09:00:00+02:00", "2026-11-02T09:00:00+01:00"], "adherence": 0.955, "days": [{"date": "2026-08-27", "states": ["taken"]}]}]}"#,
        "io.remindd.Medication.StockSet": #"{"stock": \#(stock)}"#,
        "io.remindd.Medication.StockAdd": #"{"stock": \#(stock)}"#,
        "io.remindd.Reminders.Add": #"{"reminder": \#(reminder)}"#,
        "io.remindd.Reminders.Update": #"{"reminder": \#(reminder)}"#,
        "io.remindd.Reminders.Remove": #"{"reminder": \#(reminder)}"#,
        "io.remindd.Reminders.Enable": #"{"reminder": \#(reminder)}"#,
        "io.remindd.Reminders.Disable": #"{"reminder": \#(reminder)}"#,
        "io.remindd.Reminders.List": #"{"reminders": [\#(reminder)]}"#,
        "io.remindd.Reminders.Get": #"{"reminder": \#(reminder), "ladder": [{"afterSeconds": 0, "what": "announced", "urgency": "normal", "sound": "message-new-instant", "spoken": false, "commands": []}, {"what": "missed", "urgency": "normal", "spoken": false, "commands": []}]}"#,
        "io.remindd.Reminders.Occurrences": #"{"date": "2026-11-22", "occurrences": [\#(occurrence)]}"#,
        "io.remindd.Reminders.Next": #"{"firings": [\#(firing), \#(tokyoFiring)]}"#,
        "io.remindd.Reminders.Log": #"{"log": \#(intake), "cancelledSnoozes": 0}"#,
        "io.remindd.Reminders.Done": #"{"log": \#(intake), "cancelledSnoozes": 0}"#,
        "io.remindd.Reminders.Skip": #"{"occurrence": \#(occurrence)}"#,
        "io.remindd.Reminders.Unskip": #"{"occurrence": \#(occurrence)}"#,
        "io.remindd.Reminders.Pause": #"{"reminders": [\#(reminder)], "count": 1, "loggedWithin": 0, "from": "2026-11-22T09:00:00Z", "until": "2026-12-08T00:00:00Z"}"#,
        "io.remindd.Reminders.Resume": #"{"reminders": [\#(reminder)], "count": 1}"#,
        "io.remindd.Reminders.Snooze": #"{"occurrence": \#(firing), "until": "2026-11-22T09:10:00+00:00", "postponed": true}"#,
        "io.remindd.Reminders.Logs": #"{"logs": [\#(intake)]}"#,
        "io.remindd.Reminders.DeleteLog": #"{"log": \#(intake)}"#,
        "io.remindd.Reminders.History": #"{"entries": [\#(entry)]}"#,
        "io.remindd.Reminders.Status": status,
        "io.remindd.Reminders.RelinkCollection": #"{"folder": "/home/u/.local/share/remindd/collection", "restored": 12}"#,
        "io.remindd.Reminders.Watch": #"[{"entry": \#(entry)}]"#,
        "io.remindd.Habits.Streak": streak,
        "io.remindd.Habits.RestMark": #"{"dates": ["2026-11-24"]}"#,
        "io.remindd.Habits.RestUnmark": "{}",
        "io.remindd.Habits.RestList": #"{"restDays": [{"date": "2026-11-24", "reason": "Travel", "light": ["walk"], "planned": true}]}"#,
        "io.remindd.Habits.RestStats": #"{"restDaysThisMonth": 1, "activeDaysThisWeek": 3, "restDaysThisWeek": 1}"#,
        "io.remindd.Habits.FreezeHistory": #"{"events": [{"date": "2026-11-20", "kind": "earned", "banked": 1, "streak": 7}]}"#,
        "io.remindd.Habits.Recover": #"{"streak": \#(run)}"#,
        "io.remindd.Habits.Achievements": #"{"achievements": [{"id": "first", "title": "First Step", "xp": 10, "requirement": "Log once", "unlocked": "2026-11-20"}, {"id": "week", "title": "Week", "xp": 50, "requirement": "7 days"}]}"#,
        "io.remindd.Habits.Calendar": calendar,
        "io.remindd.Fitness.ExerciseSearch": #"{"exercises": [\#(exercise)]}"#,
        "io.remindd.Fitness.ExerciseList": #"{"exercises": [\#(exercise)]}"#,
        "io.remindd.Fitness.ExerciseShow": #"{"exercise": \#(exercise)}"#,
        "io.remindd.Fitness.WorkoutAdd": #"{"workout": \#(workout)}"#,
        "io.remindd.Fitness.WorkoutEdit": #"{"workout": \#(workout)}"#,
        "io.remindd.Fitness.WorkoutDelete": #"{"workout": \#(workout)}"#,
        "io.remindd.Fitness.FoodAdd": #"{"food": \#(food)}"#,
        "io.remindd.Fitness.FoodDelete": #"{"food": \#(food)}"#,
        "io.remindd.Fitness.Day": day,
        "io.remindd.Fitness.DayHistory": #"{"days": [\#(day)]}"#,
        "io.remindd.Fitness.ProfileGet": #"{"weightKg": 70, "weightSet": false}"#,
        "io.remindd.Fitness.ProfileSet": #"{"weightKg": 82}"#,
        "io.remindd.Routines.List": #"{"routines": [\#(routine)]}"#,
        "io.remindd.Routines.Show": #"{"routine": \#(routine)}"#,
        "io.remindd.Routines.Select": #"{"selection": \#(selection)}"#,
        "io.remindd.Routines.Current": #"{"selection": \#(selection)}"#,
        "io.remindd.Routines.Clear": "{}",
        "io.remindd.Backup.Export": backup,
        "io.remindd.Backup.Upload": #"{"upload": "u1", "size": 1}"#,
        "io.remindd.Backup.Import": #"{"tables": [{"table": "reminder", "added": 1, "skipped": 0}, {"table": "intake", "added": 2, "skipped": 0}]}"#,
    ]
}
