import Translation

/// What `status`, `history`, `add`, `streak` and `calendar` say, in one table beside ``CommandMessages``.
/// `po/extract-messages` reads it into `po/remindd.pot`.
enum StatusMessages {
    // status
    static let headline = Message("remindd %1$s: %2$d reminder", plural: "remindd %1$s: %2$d reminders")
    static let headlineNext = Message("%1$s, next: %2$s at %3$s")
    static let remindersLine = Message("reminders: %1$d (%2$d enabled)")
    static let storeLine = Message("store:     %1$s")
    static let journalYes = Message("journal:   yes")
    static let journalNo = Message("journal:   no (firings go to stderr)")
    static let zoneLine = Message("zone:      %1$s (%2$s)")
    static let yourZoneLine = Message("your zone: %1$s (%2$s): times are shown and read in it")
    static let nextLine = Message("next:      %1$s (%2$s) %3$s")
    static let collectionLine = Message("collection: %1$s")
    static let collectionHeld = Message("collection: %1$s (not used: %2$s; see 'remindctl collection')")
    // the status bar's line (waybar)
    static let barDue = Message("Due: %1$s")
    static let barMissed = Message("Missed today: %1$s")
    static let barToday = Message("Today: %1$d of %2$d done")
    static let barNext = Message("Next: %1$s at %2$s (%3$s)")
    static let barNone = Message("no reminders")
    // history
    static let nothingSince = Message("Nothing happened since %1$s.")
    static let whatHeading = Message("WHAT")
    static let occurrenceHeading = Message("OCCURRENCE")
    static let lateHeading = Message("LATE")
    static let fired = Message("fired")
    static let late = Message("late")
    static let postponed = Message("postponed")
    static let loggedAhead = Message("logged ahead")
    static let logged = Message("logged")
    static let forcedPast = Message("%1$s, forced past its limits")
    static let announcedAgain = Message("%1$s, announced again %2$dx")
    static let lastAnnounced = Message("%1$s (last %2$s)")
    static let replanned = Message("%1$s (re-planned)")
    // add
    static let added = Message("Added reminder %1$d: %2$s, %3$s")
    static let nextAt = Message("Next: %1$s")
    static let zoneNote = Message("Its times are in %1$s, your zone (remindd follows %2$s); --tz names another.")
    // streak
    static let goalStreak = Message("%1$s: %2$d day in a row with every slot logged", plural: "%1$s: %2$d days in a row with every slot logged")
    static let currentStreak = Message("Current streak: %1$d day (since %2$s)", plural: "Current streak: %1$d days (since %2$s)")
    static let noStreak = Message("No current streak: log something today to start one.")
    static let bestStreak = Message("Best streak:    %1$d day (%2$s to %3$s)", plural: "Best streak:    %1$d days (%2$s to %3$s)")
    static let freezes = Message("Freezes:        %1$d banked (max 5)")
    static let strength = Message("Strength:       %1$d%%")
    static let keepGoing = Message("Keep it going:  log something by the end of %1$s")
    static let recoverable = Message("A broken streak can be restored once with 'remindctl recover'.")
    // calendar
    static let calendarLine = Message("streak %1$d · %2$d freeze · strength %3$d%%", plural: "streak %1$d · %2$d freezes · strength %3$d%%")
    static let calendarLegend = Message("# active  R rest  r rest planned  * frozen  + recovered  . missed  ? open  > today")
}
