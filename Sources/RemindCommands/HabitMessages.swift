import Translation

/// What the habit commands (`rest`, `freeze`, `recover`, `achievements`) and fitness and food say, in one table
/// beside ``CommandMessages``. `po/extract-messages` reads it into `po/remindd.pot`.
enum HabitMessages {
    // rest
    static let restUnmarked = Message("%1$s is no longer a rest day")
    static let noRestDays = Message("No rest days: mark one with remindctl rest mark YYYY-MM-DD")
    static let noRestDaysInRange = Message("No rest days in that range: mark one with remindctl rest mark YYYY-MM-DD")
    static let dateHeading = Message("DATE")
    static let reasonHeading = Message("REASON")
    static let lightHeading = Message("LIGHT ACTIVITIES")
    static let planned = Message("planned")
    static let past = Message("past")
    static let restThisMonth = Message("Rest days this month: %1$d")
    static let thisWeek = Message("This week: %1$s, %2$s")
    static let activeDays = Message("%1$d active day", plural: "%1$d active days")
    static let restDays = Message("%1$d rest day", plural: "%1$d rest days")
    // freeze, recover, achievements
    static let noFreezes = Message("No freezes yet: one is earned every 7 days of a streak.")
    static let eventHeading = Message("EVENT")
    static let bankedHeading = Message("BANKED")
    static let streakHeading = Message("STREAK")
    static let earned = Message("earned")
    static let used = Message("used (missed day covered)")
    static let maxReached = Message("not earned: 5 banked (max reached)")
    static let streakDays = Message("%1$d day", plural: "%1$d days")
    static let recoverOnce = Message("Recovery can be used only once, ever. Restore your most recent streak? [y/N] ")
    static let nothingChanged = Message("Nothing changed.")
    static let restored = Message("Streak restored: %1$d day since %2$s", plural: "Streak restored: %1$d days since %2$s")
    static let achievementHeading = Message("ACHIEVEMENT")
    static let unlockedHeading = Message("UNLOCKED / HOW")
    static let totalXP = Message("Total: %1$d XP")
    // workouts and food
    static let loggedWorkout = Message("Logged workout %1$d: %2$s, %3$d min %4$s, %5$d kcal")
    static let workoutLine = Message("Workout %1$d: %2$s, %3$d min %4$s, %5$d kcal")
    static let deletedWorkout = Message("Deleted workout %1$d: %2$s, %3$d min %4$s, %5$d kcal at %6$s")
    static let nothingDeleted = Message("Nothing deleted.")
    static let noWorkouts = Message("No workouts logged on %1$s.")
    static let noFood = Message("No food logged on %1$s.")
    static let totalKcal = Message("Total: %1$d kcal")
    static let loggedFood = Message("Logged food %1$d: %2$s, %3$d kcal")
    static let deletedFood = Message("Deleted food entry %1$d: %2$s, %3$d kcal at %4$s")
    static let exerciseHeading = Message("EXERCISE")
    static let foodHeading = Message("FOOD")
    static let minHeading = Message("MIN")
    static let intensityHeading = Message("INTENSITY")
    static let kcalHeading = Message("KCAL")
}
