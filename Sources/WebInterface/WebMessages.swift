import Translation

/// What remindd-web's pages say, in one table: read by `po/extract-messages` into `po/remindd.pot` like the
/// daemon's and remindctl's (a text they share is one entry).
enum WebMessages {
    static let pages = Message("Pages")
    static let today = Message("Today")
    static let logOut = Message("Log out")
    static let dueNow = Message("Due now")
    static let nothingDue = Message("Nothing is due now.")
    static let taken = Message("Taken")
    static let skip = Message("Skip")
    static let snoozeMinutes = Message("Snooze %1$d min")
    static let takeAll = Message("Take all")
    static let takenLabel = Message("Taken: %1$s")
    static let skipLabel = Message("Skip: %1$s")
    static let snoozeLabel = Message("Snooze %1$s for %2$d min")
    static let dayHeading = Message("The day, %1$s")
    static let nothingToday = Message("Nothing is scheduled today.")
    static let timeHeading = Message("Time")
    static let reminderHeading = Message("Reminder")
    static let stateHeading = Message("State")
    static let unreachable = Message("remindd does not answer: %1$s")
    static let notLoggedIn = Message("Not logged in: open remindd-web with 'remindctl ui' (its login link works once).")
    // The states of an occurrence.
    static let upcoming = Message("upcoming")
    static let due = Message("due")
    static let takenState = Message("taken")
    static let takenLate = Message("taken late")
    static let skipped = Message("skipped")
    static let missed = Message("missed")
    static let suppressed = Message("already taken")
    static let paused = Message("paused")
}
