import ReminderCore

/// A date or a time the user typed, read as every call reads it, or refused with the parameter's error.
enum TypedTime {
    /// How far back a log, a workout or a food entry may be dated: as far as rest days can be marked. (A log at
    /// the year 0 was taken, and every habit answer then counted twenty centuries, taking seconds.)
    static let historyYears = 10

    /// A date (YYYY-MM-DD), or the parameter's error.
    static func date(_ text: String, parameter: String) throws(ServiceError) -> LocalDate {
        guard let date = ISO8601.parseDate(text) else {
            throw .invalidTime(parameter: parameter, message: "invalid date \(quotedInput(text)): write YYYY-MM-DD, e.g. 2026-11-24", unreadable: text, date: true)
        }
        return date
    }

    /// When something happened: now, or the time the user typed (`TimeText`, read in `zone` unless it gives its
    /// offset, as remindctl sends it), neither in the future (`future` says what may be given instead) nor more
    /// than ``historyYears`` back. Errors show the time as it was typed, at its offset.
    static func pastInstant(_ text: String?, parameter: String, now: Instant, zone: TimeZoneRules, future: String) throws(ServiceError) -> Instant {
        guard let text else { return now }
        guard let instant = TimeText.instant(text, now: now, zone: zone) else {
            throw .invalidTime(parameter: parameter, message: "invalid \(parameter) \(quotedInput(text)): write \(TimeText.forms)", unreadable: text)
        }
        guard instant <= now else {
            throw .invalidTime(parameter: parameter, message: "\(TimeText.display(instant, typed: text, zone: zone)) is in the future: \(future)")
        }
        let today = LocalDate(dayNumber: zone.localDayNumber(at: now))
        let earliest = today.adding(years: -historyYears)
        guard instant < zone.resolve(LocalDateTime(date: earliest, time: TimeOfDay(hour: 0, minute: 0)!)) else { return instant }
        throw .invalidTime(
            parameter: parameter, message: "\(text) is more than \(historyYears) years ago: give a time since \(earliest), as rest days are")
    }
}
