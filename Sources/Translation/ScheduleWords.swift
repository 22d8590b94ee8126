import ReminderCore

/// A rule's summary in the user's language (`täglich 20:16`, `wöchentlich So, Do 09:00`): the common rules
/// are said in words; a preset's name and the rule languages (an RRULE, an OnCalendar expression) stay as
/// written, as their summary does (``ReminderRule/summary``).
public enum ScheduleWords {
    static let daily = Message("daily %1$s")
    static let weekly = Message("weekly %1$s %2$s")
    static let monthly = Message("monthly %1$s %2$s")
    static let lastDay = Message("last")
    static let everyDays = Message("every %1$d day %2$s", plural: "every %1$d days %2$s")
    static let everyWeeks = Message("every %1$d week %2$s %3$s", plural: "every %1$d weeks %2$s %3$s")
    static let once = Message("once %1$s %2$s")
    static let yearly = Message("yearly %1$s %2$s")
    static let asNeeded = Message("as needed")
}

extension MessageCatalog {
    /// `daily 20:16` in this language; the English summary for a preset, an RRULE or an OnCalendar expression.
    public func schedule(_ rule: ReminderRule) -> String {
        let at = rule.times.map(\.description).joined(separator: ", ")
        let days = { (set: WeekdaySet) in set.weekdays.map { self.name(of: $0, abbreviated: true) }.joined(separator: ", ") }
        guard rule.preset == nil else { return rule.summary }
        switch rule.days {
        case .daily: return self(ScheduleWords.daily, at)
        case .weekly(let set): return self(ScheduleWords.weekly, days(set), at)
        case .monthly(let set):
            let listed = set.days.map(String.init) + (set.includesLastDay ? [self(ScheduleWords.lastDay)] : [])
            return self(ScheduleWords.monthly, listed.joined(separator: ", "), at)
        case .everyDays(let n): return self(ScheduleWords.everyDays, count: n, n, at)
        case .everyWeeks(let n, let set): return self(ScheduleWords.everyWeeks, count: n, n, days(set), at)
        case .once(let date): return self(ScheduleWords.once, date, at)
        case .yearly(let month, let day): return self(ScheduleWords.yearly, ISO8601.pad(month, 2) + "-" + ISO8601.pad(day, 2), at)
        case .asNeeded: return self(ScheduleWords.asNeeded)
        case .nthWeekday, .recurrence, .calendar: return rule.summary
        }
    }
}
