import Translation

/// Everything the daemon says to a person that is translated, in one table: the notification's summary, body and
/// buttons, the spoken words, the journal's MESSAGE lines of firings, intakes, skips, misses and stock. The
/// journal's fields, the hooks' environment and the service's STATUS stay English: scripts read them.
/// `po/extract-messages` reads this table into `po/remindd.pot`.
enum DaemonMessages {
    // How often: a reminder's kind in the notification and the journal.
    static let daily = Message("daily")
    static let weekly = Message("weekly")
    static let monthly = Message("monthly")
    static let yearly = Message("yearly")
    static let once = Message("once")
    static let onCalendar = Message("on calendar")
    static let asNeeded = Message("as needed")
    static let everyDays = Message("every %1$d day", plural: "every %1$d days")
    static let everyWeeks = Message("every %1$d week", plural: "every %1$d weeks")

    // An event's alarm: `at Wed 21:34, in 15m`.
    static let eventIn = Message("in %1$s")
    static let eventStarted = Message("started %1$s ago")
    /// An event whose alarm is at its start.
    static let eventNow = Message("starting now")
    static let eventAt = Message("at %1$s, %2$s")
    static let forTheEvent = Message("%1$s, for the event %2$s")

    // The notification.
    static let taken = Message("Taken")
    static let skip = Message("Skip")
    static let dismiss = Message("Dismiss")
    static let snoozeMinutes = Message("Snooze %1$d min")
    static let takeAll = Message("Take all")
    static let takeThese = Message("Take %1$d")
    static let snoozeAll = Message("Snooze all")
    static let snoozeThese = Message("Snooze %1$d")
    static let skipAll = Message("Skip all")
    static let skipThese = Message("Skip %1$d")
    static let takenLate = Message("Taken late")
    static let nameTakenLate = Message("%1$s taken late")
    static let markRestDay = Message("Mark rest day")
    static let dueSummary = Message("%1$d due: %2$s", plural: "%1$d due: %2$s")
    static let andMore = Message("and %1$d more: remindctl today")
    static let stillNotTaken = Message("%1$s (still not taken)")
    static let shownAgain = Message("%1$s (shown again)")
    static let noteLine = Message("%1$s: %2$s")
    static let missedTitle = Message("Missed: %1$s")
    static let runningLowTitle = Message("Running low: %1$s")
    static let travelledTitle = Message("Following %1$s now")
    static let travelledLine = Message(
        "Following %1$s now (was %2$s): %3$d reminder moves to local time", plural: "Following %1$s now (was %2$s): %3$d reminders move to local time")
    static let movedText = Message("%1$d reminder moves to local time", plural: "%1$d reminders move to local time")
    static let staysLine = Message("%1$s stays at %2$s %3$s, which is %4$s here")
    static let moreStay = Message("and %1$d more keep their zones")
    static let restTitle = Message("Consider a rest day")
    static let restText = Message("6 active days in a row: rest is part of training.")
    static let takeDose = Message("Take %1$s.")
    static let kindDetail = Message("%1$s, %2$s")
    static let nothingLoggedBy = Message("%1$s: nothing logged by %2$s")
    static let comingUpTitle = Message("%1$s in %2$s")
    static let takeDoseAt = Message("Take %1$s at %2$s")
    static let comingUpAt = Message("At %1$s")
    static let nothingDue = Message("Nothing is due now.")

    // Stock.
    static let stockThrough = Message("%1$s left: enough through %2$s (%3$d day)", plural: "%1$s left: enough through %2$s (%3$d days)")
    static let stockNotEnough = Message("%1$s left: not enough for the next dose")
    static let orderBy = Message("%1$s; order by %2$s")
    static let doseOfStrength = Message("%1$s of %2$s")
    // The daemon's own journal entries a person reads.
    static let stockShort = Message("%1$s: a dose was logged with less left than it took, so the stock is at 0: count it again with remindctl stock set \"%1$s\" N")
    static let packExpired = Message("%1$s: the %2$s of the pack that expired on %3$s are not counted any more: put them aside, and count the stock again if it is off")
    static let waitsApart = Message("%1$s waits: %2$s")
    static let unskipped = Message("Unskipped: %1$s at %2$s is announced at its time")
    static let clockBack = Message(
        "The clock is now before the last firing handled: %1$d reminder planned again from %2$s; their slots after now fire again",
        plural: "The clock is now before the last firing handled: %1$d reminders planned again from %2$s; their slots after now fire again")
    static let systemZoneNow = Message("System time zone is now %1$s")
    static let zoneDataChanged = Message(
        "Time zone data changed (a tzdata update): %1$d reminder re-planned with the new rules",
        plural: "Time zone data changed (a tzdata update): %1$d reminders re-planned with the new rules")
    static let actionNotCarriedOut = Message("Notification action %1$s not carried out: %2$s")
    static let collectionRelinked = Message("Collection %1$s relinked (it was not used: %2$s); %3$s items written back into it")
    static let collectionBack = Message("Collection %1$s is back (it was not used: %2$s); its changes apply again")
    static let storeAnswersAgain = Message("The store answers again; every waiting firing was handled")
    static let goneSinceRestart = Message("%1$s was recorded before a restart but its reminder is gone or disabled now: not announced")
    static let unconfirmedAnnounced = Message(
        "%1$d announcement was recorded before a restart but not confirmed: %2$d of them had not reached the journal and were announced now",
        plural: "%1$d announcements were recorded before a restart but not confirmed: %2$d of them had not reached the journal and were announced now")
    static let unconfirmedAllAgain = Message(
        "%1$d announcement was recorded before a restart but not confirmed: the journal cannot be read back, so all were announced again",
        plural: "%1$d announcements were recorded before a restart but not confirmed: the journal cannot be read back, so all were announced again")
    static let cannotSchedule = Message("Reminder %1$s (id %2$s) cannot be scheduled: %3$s")
    static let invalidNow = Message("Reminder %1$s (id %2$s) cannot be scheduled: its rule or zone is invalid now")
    static let lateLogsMatched = Message(
        "Logs recorded before late takes were matched: %1$d now takes its missed occurrence late (today, history and reports say taken late)",
        plural: "Logs recorded before late takes were matched: %1$d now take their missed occurrences late (today, history and reports say taken late)")
    /// The counts other than the items' stand after a colon: the plural follows the items only ("1 alarms").
    static let calendarsReadInOne = Message(
        "Calendars read: %1$d item in 1 folder; new or changed: %2$d; alarms added, changed or removed: %3$d (%4$d ms)",
        plural: "Calendars read: %1$d items in 1 folder; new or changed: %2$d; alarms added, changed or removed: %3$d (%4$d ms)")
    static let calendarsRead = Message(
        "Calendars read: %1$d item in %5$d folders; new or changed: %2$d; alarms added, changed or removed: %3$d (%4$d ms)",
        plural: "Calendars read: %1$d items in %5$d folders; new or changed: %2$d; alarms added, changed or removed: %3$d (%4$d ms)")
    static let removedElsewhere = Message(
        "Collection: a reminder (item %1$s) was removed on another device; %2$d of its logs are kept here, and come back with it if its item does")
    static let forcedElsewhere = Message(
        "Collection: the dose of %1$s at %2$s is past its reminder's dose limits here: recorded as forced, as --force records it")
    // The habit's journal entries.
    static let achievement = Message("Achievement unlocked: %1$s (+%2$d XP)")
    static let freezeEarned = Message("Streak freeze earned: %1$d-day streak, %2$d banked")
    static let freezeUsed = Message("Streak protected by a freeze on %1$s: %2$d left")
    static let streakBroken = Message("Streak broken after %1$d day", plural: "Streak broken after %1$d days")
    static let considerRest = Message("Consider a rest day: 6 active days in a row (rest is part of training; 'remindctl rest mark %1$s')")

    // The journal's MESSAGE lines.
    static let fired = Message("Reminder: %1$s")
    static let snoozed = Message("Reminder (snoozed): %1$s")
    static let repeated = Message("Reminder (repeat %1$d, still not taken): %2$s")
    static let postponed = Message("Postponed reminder: %1$s")
    static let late = Message("Reminder: %1$s, late by %2$s")
    static let missedTimes = Message("%1$s (missed %2$d times)")
    static let suppressed = Message("Suppressed reminder: %1$s")
    static let missedReminder = Message("Missed reminder: %1$s")
    static let withDetail = Message("%1$s: %2$s")
    static let keptApartTaken = Message("kept %1$s apart from %2$s, taken at %3$s")
    static let keptApartDue = Message("kept %1$s apart from %2$s, due at %3$s")
    static let clockWentBack = Message("%1$s (again: the clock went back)")
    static let quietHours = Message("%1$s (quiet hours: no sound)")
    static let announcedAgain = Message("%1$s (announced again after a restart: the journal could not tell whether it was before)")
    static let takenLine = Message("Taken: %1$s")
    static let takenLateLine = Message("Taken late: %1$s")
    static let loggedAt = Message("%1$s (logged %2$s)")
    static let skippedLine = Message("Skipped: %1$s")
    static let missedLine = Message("Missed: %1$s: nothing logged by %2$s")
    static let runningLowLine = Message("Running low: %1$s, %2$s; refill within %3$d day", plural: "Running low: %1$s, %2$s; refill within %3$d days")
    static let escalated = Message("Not taken %1$s after its time, escalated: %2$s")
    static let escalatedLate = Message("%1$s (late: remindd was not running at %2$s)")
    static let comingUpLine = Message("Coming up in %1$s: %2$s")

    // Spoken.
    static let timeFor = Message("Time for %1$s.")
    static let andMoreSaid = Message("%1$s; and %2$d more")
    static let milligrams = Message("%1$s milligram", plural: "%1$s milligrams")
    static let micrograms = Message("%1$s microgram", plural: "%1$s micrograms")
    static let grams = Message("%1$s gram", plural: "%1$s grams")
    static let millilitres = Message("%1$s millilitre", plural: "%1$s millilitres")
    static let internationalUnits = Message("%1$s international unit", plural: "%1$s international units")
}
