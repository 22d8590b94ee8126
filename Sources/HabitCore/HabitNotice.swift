import ReminderCore

/// Something about the user's habits worth telling them once: decided here from a ``StreakReport``, announced
/// by the daemon, and remembered by its ``key`` so that it is never announced twice.
public enum HabitNotice: Hashable, Sendable {
    /// An achievement was unlocked.
    case achievement(Achievement.ID)
    /// A streak freeze was earned on `date` at a streak of `streak` days; `banked` are now banked.
    case freezeEarned(date: LocalDate, streak: Int, banked: Int)
    /// A banked freeze covered the missed day `date`; `banked` are left.
    case freezeUsed(date: LocalDate, streak: Int, banked: Int)
    /// A streak of `streak` days ended; `firstMissedDay` is the day number of the first day missed.
    case streakBroken(firstMissedDay: Int, streak: Int)
    /// "Consider a rest day" on `date`, after 6 active days in a row.
    case restSuggestion(date: LocalDate)

    /// The notice's identity: a notice whose key was announced before is not announced again.
    public var key: String {
        switch self {
        case .achievement(let id): return "achievement:\(id.rawValue)"
        case .freezeEarned(let date, _, _): return "freeze-\(FreezeEvent.Kind.earned.rawValue):\(date)"
        case .freezeUsed(let date, _, _): return "freeze-\(FreezeEvent.Kind.used.rawValue):\(date)"
        case .streakBroken(let first, _): return "streak-broken:\(first)"
        case .restSuggestion(let date): return "rest-suggestion:\(date)"
        }
    }

    /// The notices a report holds: every achievement, and freezes earned or used and a streak broken on
    /// yesterday or today (older ones come from back-filled logs: history, not news).
    public static func notices(in report: StreakReport, today: Int) -> [HabitNotice] {
        var notices = report.achievements.map { HabitNotice.achievement($0.id) }
        for event in report.freezeHistory where event.date.dayNumber >= today - 1 {
            switch event.kind {
            case .earned: notices.append(.freezeEarned(date: event.date, streak: event.streak, banked: event.banked))
            case .used: notices.append(.freezeUsed(date: event.date, streak: event.streak, banked: event.banked))
            case .maxReached: break
            }
        }
        if let broken = report.lastBreak, broken.missed.upperBound >= today - 1 {
            notices.append(.streakBroken(firstMissedDay: broken.missed.lowerBound, streak: broken.streak.length))
        }
        return notices
    }
}

/// When to suggest a rest day: at the configured morning after 6 active days in a row.
public enum RestSuggestion {
    /// What to do about the suggestion at an instant.
    public struct Plan: Hashable, Sendable {
        /// Suggest rest on this day now (its morning has come and the 6 days before it were active).
        public var suggest: LocalDate?
        /// When to look again: this morning, or tomorrow's when today completes 6 active days; nil: only
        /// when the habits change.
        public var wakeAt: Instant?
    }

    /// Decides from the report, today's day number, "now" and the instant of a day's morning.
    /// - Parameter morning: the instant of a day's morning (config `morning` after `day-start`, in the habit zone).
    public static func plan(_ report: StreakReport, today: Int, now: Instant, morning: (Int) -> Instant) -> Plan {
        var suggest: LocalDate?
        if GoalStreak.suggestsRest(report, today: today) {
            let thisMorning = morning(today)
            guard now >= thisMorning else { return Plan(suggest: nil, wakeAt: thisMorning) }
            suggest = LocalDate(dayNumber: today)
        }
        let sixActive = ((today - 5)...today).allSatisfy { report.days[$0] == .active }
        return Plan(suggest: suggest, wakeAt: sixActive ? morning(today + 1) : nil)
    }
}
