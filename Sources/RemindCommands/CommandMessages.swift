import Translation

/// What remindctl's everyday commands say that is translated, in one table: `today` and `day`, `next`, `list`,
/// `log`, `done`, `skip`, `snooze`, `stock show`, their errors and the daemon's errors they put in words. Left
/// English on purpose: `--help`, the rule languages (`--daily`, RRULE, OnCalendar), JSON and CSV keys.
/// `po/extract-messages` reads this table into `po/remindd.pot`.
enum CommandMessages {
    // Times.
    static let dayTitle = Message("%1$s %2$d %3$s %4$d")
    static let tomorrowAt = Message("tomorrow %1$s")
    static let yesterdayAt = Message("yesterday %1$s")
    static let now = Message("now")
    static let inTime = Message("in %1$s")
    static let timeAgo = Message("%1$s ago")

    // Column headings.
    static let time = Message("TIME")
    static let reminder = Message("REMINDER")
    static let state = Message("STATE")
    static let when = Message("WHEN")
    static let left = Message("LEFT")
    static let slot = Message("SLOT")
    static let id = Message("ID")
    static let name = Message("NAME")
    static let schedule = Message("SCHEDULE")
    static let zone = Message("ZONE")
    static let streak = Message("STREAK")
    static let next = Message("NEXT")
    static let amount = Message("AMOUNT")
    static let effect = Message("EFFECT")
    static let dose = Message("DOSE")
    static let stock = Message("STOCK")
    static let kind = Message("KIND")
    static let entry = Message("ENTRY")
    static let kcal = Message("KCAL")

    // An occurrence's state.
    static let upcoming = Message("upcoming")
    static let due = Message("due")
    static let taken = Message("taken")
    static let takenLate = Message("taken late")
    static let skipped = Message("skipped")
    static let missed = Message("missed")
    static let suppressed = Message("suppressed")
    static let loggedAt = Message("%1$s (logged %2$s)")

    // today and day.
    static let doses = Message("Doses: %1$s")
    static let doseCount = Message("%1$s %2$d of %3$d taken")
    static let dosesMissed = Message("%1$s, %2$d missed")
    static let dosesSkipped = Message("%1$s, %2$d skipped")
    static let asNeeded = Message("As needed:")
    static let allowedNow = Message("allowed now")
    static let allowedFrom = Message("allowed from %1$s")
    static let moreInADay = Message("%1$s, %2$d more in 24 hours")
    static let noFoodOrWorkouts = Message("No food or workouts logged on %1$s.")
    static let food = Message("food")
    static let workout = Message("workout")
    static let deficit = Message("%1$d kcal (deficit)")
    static let surplus = Message("+%1$d kcal (surplus)")
    static let zeroKcal = Message("0 kcal")
    static let netLine = Message("consumed %1$d kcal · burned %2$d kcal · net %3$s")

    // next and list.
    static let nothingScheduled = Message("Nothing scheduled.")
    static let snoozedMark = Message("%1$s (snoozed)")
    static let badCount = Message("invalid --count %1$d: give 1 or more")
    static let noReminders = Message("No reminders. Add one with: remindctl add \"Vitamin D\" --weekly sun --at 09:00")
    static let disabled = Message("disabled")

    // log, done, skip, snooze.
    static let logged = Message("Logged %1$s at %2$s (log %3$d)")
    static let loggedForced = Message("Logged %1$s at %2$s (log %3$d, forced past its limits)")
    static let takenNow = Message("Taken: %1$s at %2$s (log %3$d)")
    static let takenNowForced = Message("Taken: %1$s at %2$s (log %3$d, forced past its limits)")
    static let takesOccurrence = Message("%1$s: takes the %2$s occurrence")
    static let suppressesOccurrence = Message("%1$s: the %2$s occurrence will not be announced (already logged)")
    static let cancelledSnooze = Message("Cancelled its pending snooze.")
    static let badDate = Message("invalid --date '%1$s': write YYYY-MM-DD")
    static let nothingLoggedToday = Message("Nothing logged today.")
    static let nothingLoggedOn = Message("Nothing logged on %1$s.")
    static let takes = Message("takes %1$s")
    static let suppresses = Message("suppresses %1$s")
    static let forced = Message("%1$s (forced)")
    static let nothingDeleted = Message("Nothing deleted.")
    static let deletedLog = Message("Deleted log %1$d: %2$s at %3$s")
    static let noLongerTaken = Message("%1$s; the %2$s occurrence is no longer taken")
    static let announcedAgain = Message("%1$s; the %2$s occurrence will be announced again")
    static let lateWithAmount = Message("--late takes the reminder's dose: leave --amount out, or log it with remindctl log \"%1$s\" --amount %2$s")
    static let takenLateLine = Message("Taken late: %1$s, the occurrence of %2$s")
    static let skippedLine = Message("Skipped %1$s at %2$s")
    static let withReason = Message("%1$s: %2$s")
    static let badMinutes = Message("invalid --minutes %1$d: snooze for 1 to 1440 minutes")
    static let postponedLine = Message("Postponed %1$s (%2$s) to %3$s")
    static let snoozedLine = Message("Snoozed %1$s (%2$s) until %3$s")
    static let replacesSnooze = Message("%1$s; replaces the snooze until %2$s")

    // stock show.
    static let noDoses = Message("No reminder has a dose: add one with remindctl update NAME --dose 2 --unit tablet")
    static let notCounted = Message("not counted yet: remindctl stock set \"%1$s\" 30")
    static let outlasts = Message("%1$s: more than the reminder's schedule needs")
    static let notEnough = Message("%1$s: not enough for the next dose (%2$s)")
    static let enoughThrough = Message("%1$s: enough through %2$s (%3$d day)", plural: "%1$s: enough through %2$s (%3$d days)")

    // Errors.
    static let error = Message("Error: %1$s")
    // The daemon's errors, in words.
    static let noSuchReminder = Message("no reminder '%1$s': see 'remindctl list' for names and ids")
    static let didYouMean = Message("%1$s (did you mean '%2$s'?)")
    static let nameTaken = Message("a reminder named '%1$s' already exists: choose another name, or change it with 'remindctl update'")
    static let parameterRefused = Message("the daemon refused the parameter '%1$s'")
    static let notYourDaemon = Message("remindd refused the connection: it serves only the user it runs as")
    static let notAccepting = Message("remindd did not accept the connection within %1$d s (too many open connections?): try again, and see 'journalctl --user -u remindd'")
    static let noAnswer = Message("remindd did not answer within %1$d s: see 'systemctl --user status remindd' and 'journalctl --user -u remindd'")
    static let cannotTalk = Message("cannot talk to remindd: %1$s")
    static let notRunning = Message("remindd is not running (nothing listens on %1$s): start it with 'systemctl --user enable --now remindd.socket remindd.service'")
}
