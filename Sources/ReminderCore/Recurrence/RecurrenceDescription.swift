/// RFC 5545 recurrences in words, for `list`, `show` and the journal: "the last weekday of the month at
/// 09:00", "every 8 hours from 2026-12-01 08:00", "every week on Mon, Wed, Fri at 18:00, 10 times".
///
/// Every part of the rule is said; what has no short wording (BYSETPOS over times of day, BYSECOND) is said
/// plainly ("the last of those in each month"), so the words never claim less than the rule does.
extension RecurrenceSet {
    public var summary: String {
        guard let rule else { return "once \(start.date) \(Self.clock(start.time))" + extras }
        return rule.words(start: start) + extras
    }

    private var extras: String {
        var text = ""
        if let alarm { text += ", alarm \(alarm.words)" }
        if !dates.isEmpty { text += ", and on \(Self.plural(dates.count, "more date"))" }
        if !exceptions.isEmpty { text += ", except \(Self.plural(exceptions.count, "date"))" }
        return text
    }

    static func plural(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }

    /// `09:00`, or `09:00:30` with seconds.
    static func clock(_ time: TimeOfDay) -> String { time.description }
}

extension RecurrenceRule {
    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    private static let units: [Frequency: String] = [
        .secondly: "second", .minutely: "minute", .hourly: "hour", .daily: "day", .weekly: "week", .monthly: "month", .yearly: "year",
    ]

    /// How often, by FREQ and INTERVAL alone: `daily`, `every 8 hours` (the full wording is ``RecurrenceSet/summary``).
    public var howOften: String {
        let unit = Self.units[frequency]!
        if interval > 1 { return "every \(interval) \(unit)s" }
        switch frequency {
        case .secondly, .minutely: return "every \(unit)"
        case .daily: return "daily"
        default: return unit + "ly"
        }
    }

    func words(start: LocalDateTime) -> String {
        let unit = Self.units[frequency]!
        var text: String
        if let chosen = chosenDays(start: start) {
            // "the last weekday of the month", "the 2nd Sun of every 3rd month"
            let period = frequency == .monthly ? "month" : "year"
            text = chosen + (interval == 1 ? " of the \(period)" : " of every \(Self.ordinal(interval)) \(period)")
        } else {
            text = interval == 1 ? "every \(unit)" : "every \(interval) \(unit)s"
            if frequency == .minutely && interval > 60 { text = "every \(interval / 60)h\(interval % 60)m" }  // --every 2h30m
            text += dayWords(start: start)
        }
        if !byMonth.isEmpty { text += " in " + Self.list(byMonth.map { Self.monthNames[$0 - 1] }) }
        text += timeWords(start: start)
        if !bySetPosition.isEmpty && chosenDays(start: start) == nil {
            text += ", only the " + Self.list(bySetPosition.map(Self.position)) + " of those each \(unit)"
        }
        // Where the instances fall depends on the start: said when the steps count from it.
        if frequency < .daily {
            text += " from \(start.date) \(RecurrenceSet.clock(start.time))"
        } else if interval > 1 || count != nil {
            text += " from \(start.date)"
        }
        if let count { text += ", \(count == 1 ? "once" : "\(count) times")" }
        switch until {
        case .date(let date)?: text += ", until \(date)"
        case .local(let local)?: text += ", until \(local.date) \(local.time)"
        case .utc(let instant)?: text += ", until \(instant) UTC"
        case nil: break
        }
        if skip != .omit { text += ", days that do not exist moved \(skip == .forward ? "forward" : "back")" }
        return text
    }

    /// "the last weekday", "the 2nd Sun and last Fri": a month's or year's days picked by BYSETPOS over weekdays,
    /// or by weekday ordinals alone; nil for other rules.
    private func chosenDays(start: LocalDateTime) -> String? {
        guard frequency == .monthly || frequency == .yearly, byMonthDay.isEmpty, byYearDay.isEmpty, byWeekNumber.isEmpty, !byDay.isEmpty,
            frequency == .monthly || !byMonth.isEmpty || bySetPosition.isEmpty
        else { return nil }
        if bySetPosition.isEmpty {
            guard byDay.allSatisfy({ $0.ordinal != 0 }) else { return nil }
            return "the " + Self.list(byDay.map { Self.position($0.ordinal) + " " + $0.weekday.displayName })
        }
        guard byDay.allSatisfy({ $0.ordinal == 0 }), byHour.count <= 1, byMinute.count <= 1, bySecond.count <= 1 else { return nil }
        let kind: String
        switch Set(byDay.map(\.weekday)) {
        case Set([.monday, .tuesday, .wednesday, .thursday, .friday]): kind = "weekday"
        case Set([.saturday, .sunday]): kind = "weekend day"
        case Set(Weekday.allCases): kind = "day"
        case let days: kind = "of " + Self.list(Weekday.allCases.filter(days.contains).map(\.displayName))
        }
        return "the " + Self.list(bySetPosition.map(Self.position)) + " " + kind
    }

    private func dayWords(start: LocalDateTime) -> String {
        var parts: [String] = []
        if !byWeekNumber.isEmpty { parts.append("in week " + Self.list(byWeekNumber.map(Self.signed))) }
        if !byYearDay.isEmpty { parts.append("on day " + Self.list(byYearDay.map(Self.signed)) + " of the year") }
        if !byMonthDay.isEmpty {
            let days = byMonthDay.filter { $0 > 0 } + byMonthDay.filter { $0 < 0 }.reversed()
            parts.append("on the " + Self.list(days.map { $0 == -1 ? "last day" : $0 < 0 ? "\(Self.position($0)) day" : Self.ordinal($0) }))
        }
        if !byDay.isEmpty {
            let plain = byDay.filter { $0.ordinal == 0 }.map(\.weekday)
            var names = Set(plain) == Set([.monday, .tuesday, .wednesday, .thursday, .friday]) && plain.count == 5
                ? ["weekdays"] : Weekday.allCases.filter(plain.contains).map(\.displayName)
            names += byDay.filter { $0.ordinal != 0 }.map { "the " + Self.position($0.ordinal) + " " + $0.weekday.displayName }
            parts.append((byMonthDay.isEmpty ? "on " : "if a ") + Self.list(names))
        }
        if parts.isEmpty {
            // The day the rule takes from its start.
            switch frequency {
            case .weekly: parts.append("on \(start.date.weekday.displayName)")
            case .monthly: parts.append("on the \(Self.ordinal(start.date.day))")
            case .yearly where byMonth.isEmpty: parts.append("on \(Self.monthNames[start.date.month - 1]) \(start.date.day)")
            case .yearly: parts.append("on the \(Self.ordinal(start.date.day))")
            default: break
            }
        }
        return parts.isEmpty ? "" : " " + parts.joined(separator: " ")
    }

    private func timeWords(start: LocalDateTime) -> String {
        let hours = byHour.isEmpty ? (frequency <= .hourly ? nil : [start.time.hour]) : byHour
        let minutes = byMinute.isEmpty ? (frequency <= .minutely ? nil : [start.time.minute]) : byMinute
        let seconds = bySecond.isEmpty ? (frequency == .secondly ? nil : [start.time.second]) : bySecond
        guard let hours, let minutes, let seconds else {
            // A rule finer than a day steps from the start's time (said with the start); BY parts limit it.
            var limits: [String] = []
            if !byHour.isEmpty { limits.append("in hour " + Self.list(byHour.map(String.init))) }
            if !byMinute.isEmpty { limits.append("at minute " + Self.list(byMinute.map(String.init))) }
            if !bySecond.isEmpty { limits.append("at second " + Self.list(bySecond.map(String.init))) }
            return limits.isEmpty ? "" : " " + limits.joined(separator: ", ")
        }
        let times = hours.flatMap { h in minutes.flatMap { m in seconds.compactMap { s in TimeOfDay(hour: h, minute: m, second: min(s, 59)) } } }
        guard times.count <= 6 else { return " at \(times.count) times a day, \(RecurrenceSet.clock(times[0])) to \(RecurrenceSet.clock(times[times.count - 1]))" }
        return " at " + Self.list(times.map(RecurrenceSet.clock))
    }

    /// 1st, 2nd, 3rd, 4th, 11th, 21st ...
    static func ordinal(_ n: Int) -> String {
        let suffix = (11...13).contains(n % 100) ? "th" : [1: "st", 2: "nd", 3: "rd"][n % 10] ?? "th"
        return "\(n)\(suffix)"
    }

    /// 1 → 1st, -1 → last, -2 → 2nd last.
    static func position(_ n: Int) -> String { n == -1 ? "last" : n < 0 ? "\(ordinal(-n)) last" : ordinal(n) }

    private static func signed(_ n: Int) -> String { n < 0 ? position(n) : String(n) }

    /// "a", "a and b", "a, b and c".
    static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items[items.count - 1]
    }
}
