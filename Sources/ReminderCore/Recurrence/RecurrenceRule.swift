/// An RFC 5545 recurrence rule (`RRULE`, §3.3.10), parsed and checked, with RFC 7529's `RSCALE=GREGORIAN`
/// and `SKIP`. What it produces from a start is ``RecurrenceRule/expansion(from:in:)``; a rule with the
/// start, RDATEs and EXDATEs is a ``RecurrenceSet``.
public struct RecurrenceRule: Hashable, Sendable {
    /// FREQ, from the finest to the coarsest.
    public enum Frequency: Int, Comparable, CaseIterable, Sendable {
        case secondly, minutely, hourly, daily, weekly, monthly, yearly

        public var name: String { ["SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY"][rawValue] }

        public static func < (lhs: Frequency, rhs: Frequency) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// One BYDAY entry: a weekday, with an ordinal (`2MO`, `-1FR`) or without (0: every one).
    public struct WeekdayNumber: Hashable, Sendable {
        public let ordinal: Int
        public let weekday: Weekday
    }

    /// UNTIL: a date, a floating local date-time (read in the start's zone), or a UTC instant.
    public enum Until: Hashable, Sendable {
        case date(LocalDate)
        case local(LocalDateTime)
        case utc(Instant)
    }

    /// RFC 7529's SKIP: what becomes of a date the rule names that does not exist (the 31st of a 30-day month,
    /// 29 February in a common year): left out (RFC 5545), or moved to the day before or after.
    public enum Skip: String, Sendable {
        case omit = "OMIT", backward = "BACKWARD", forward = "FORWARD"
    }

    public private(set) var frequency: Frequency
    public private(set) var interval = 1
    public private(set) var count: Int?
    public private(set) var until: Until?
    public private(set) var bySecond: [Int] = []
    public private(set) var byMinute: [Int] = []
    public private(set) var byHour: [Int] = []
    public private(set) var byDay: [WeekdayNumber] = []
    public private(set) var byMonthDay: [Int] = []
    public private(set) var byYearDay: [Int] = []
    public private(set) var byWeekNumber: [Int] = []
    public private(set) var byMonth: [Int] = []
    public private(set) var bySetPosition: [Int] = []

    /// The rule for a DTSTART that is a date: RFC 5545 (3.3.10) says BYSECOND, BYMINUTE and BYHOUR "MUST be
    /// ignored" then, so `FREQ=DAILY;BYMINUTE=1,2` from 2024-10-18 fires at the start's midnight, once a day.
    public var forDateOnlyStart: RecurrenceRule {
        var rule = self
        (rule.bySecond, rule.byMinute, rule.byHour) = ([], [], [])
        return rule
    }
    public private(set) var weekStart: Weekday = .monday
    public private(set) var skip: Skip = .omit
    /// The rule as it was given (what export writes back, unchanged).
    public let text: String

    /// The RFC's two-letter weekday codes, Sunday first (as `Weekday`'s raw values).
    static let weekdayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

    /// Parses `FREQ=...;...` (an `RRULE:` prefix is allowed). Part names and values are case-insensitive.
    /// - Throws: ``RecurrenceError`` with one line that says what is wrong and what to write.
    public init(parsing text: String) throws(RecurrenceError) {
        self.text = text
        var body = Substring(text.withoutSurroundingSpaces)
        if body.uppercased().hasPrefix("RRULE:") { body = body.dropFirst(6) }
        guard !body.isEmpty else { throw RecurrenceError("the rule is empty: write at least FREQ, e.g. FREQ=DAILY") }
        guard body.utf8.count <= 4096 else { throw RecurrenceError("the rule is longer than 4096 characters") }
        var parts: [String: Substring] = [:]
        // One empty part at the end (`FREQ=WEEKLY;COUNT=2;`) is taken, as libical and dateutil take it ("seen in
        // the wild", libical's own vectors); an empty part anywhere else is refused.
        var split = body.split(separator: ";", omittingEmptySubsequences: false)
        if split.count > 1, split.last?.isEmpty == true { split.removeLast() }
        for part in split {
            guard let equals = part.firstIndex(of: "=") else {
                throw RecurrenceError("'\(part)' is not NAME=VALUE: parts are separated by ';', e.g. FREQ=WEEKLY;BYDAY=MO")
            }
            let name = part[..<equals].uppercased()
            let value = part[part.index(after: equals)...]
            guard Self.partNames.contains(name) else {
                throw RecurrenceError("unknown part '\(part[..<equals])': a rule has \(Self.partNames.joined(separator: ", "))")
            }
            guard parts[name] == nil else { throw RecurrenceError("\(name) is given twice: give each part once") }
            guard !value.isEmpty else { throw RecurrenceError("\(name) has no value") }
            parts[name] = value
        }
        guard let frequencyText = parts["FREQ"] else { throw RecurrenceError("FREQ is missing: say how often, e.g. FREQ=DAILY") }
        guard let frequency = Frequency.allCases.first(where: { $0.name == frequencyText.uppercased() }) else {
            throw RecurrenceError("FREQ=\(frequencyText) is not a frequency: write SECONDLY, MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY")
        }
        self.frequency = frequency
        if let value = parts["INTERVAL"] { interval = try Self.number(value, "INTERVAL", 1...100_000) }
        if let value = parts["COUNT"] { count = try Self.number(value, "COUNT", 1...1_000_000) }
        if let value = parts["UNTIL"] { until = try Self.until(value) }
        guard count == nil || until == nil else { throw RecurrenceError("COUNT and UNTIL cannot both be given (RFC 5545): give one") }
        if let value = parts["BYSECOND"] { bySecond = try Self.numbers(value, "BYSECOND", 0...60, negative: false) }
        if let value = parts["BYMINUTE"] { byMinute = try Self.numbers(value, "BYMINUTE", 0...59, negative: false) }
        if let value = parts["BYHOUR"] { byHour = try Self.numbers(value, "BYHOUR", 0...23, negative: false) }
        if let value = parts["BYMONTHDAY"] { byMonthDay = try Self.numbers(value, "BYMONTHDAY", 1...31, negative: true) }
        if let value = parts["BYYEARDAY"] { byYearDay = try Self.numbers(value, "BYYEARDAY", 1...366, negative: true) }
        if let value = parts["BYWEEKNO"] { byWeekNumber = try Self.numbers(value, "BYWEEKNO", 1...53, negative: true) }
        if let value = parts["BYMONTH"] { byMonth = try Self.numbers(value, "BYMONTH", 1...12, negative: false) }
        if let value = parts["BYSETPOS"] { bySetPosition = try Self.numbers(value, "BYSETPOS", 1...366, negative: true) }
        if let value = parts["BYDAY"] { byDay = try Self.weekdays(value) }
        if let value = parts["WKST"] {
            guard let index = Self.weekdayCodes.firstIndex(of: value.uppercased()) else {
                throw RecurrenceError("WKST=\(value) is not a weekday: write MO, TU, WE, TH, FR, SA or SU")
            }
            weekStart = Weekday(rawValue: index + 1)!
        }
        if let value = parts["RSCALE"], value.uppercased() != "GREGORIAN" {
            throw RecurrenceError("RSCALE=\(value) is not supported: remindd's calendar is GREGORIAN")
        }
        if let value = parts["SKIP"] {
            guard parts["RSCALE"] != nil else { throw RecurrenceError("SKIP goes with RSCALE (RFC 7529): add RSCALE=GREGORIAN") }
            guard let skip = Skip(rawValue: value.uppercased()) else { throw RecurrenceError("SKIP=\(value): write OMIT, BACKWARD or FORWARD") }
            self.skip = skip
        }
        try checkCombinations()
    }

    static let partNames = [
        "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYMONTH",
        "BYSETPOS", "WKST", "RSCALE", "SKIP",
    ]

    /// The RFC's restrictions on which parts go with which FREQ.
    private func checkCombinations() throws(RecurrenceError) {
        if byDay.contains(where: { $0.ordinal != 0 }) {
            guard frequency == .monthly || frequency == .yearly else {
                throw RecurrenceError("BYDAY with a number (2MO, -1FR) goes with FREQ=MONTHLY or YEARLY, not \(frequency.name)")
            }
            guard byWeekNumber.isEmpty else { throw RecurrenceError("BYDAY with a number cannot go with BYWEEKNO (RFC 5545)") }
        }
        if !byMonthDay.isEmpty && frequency == .weekly { throw RecurrenceError("BYMONTHDAY cannot go with FREQ=WEEKLY (RFC 5545)") }
        if !byYearDay.isEmpty && [.daily, .weekly, .monthly].contains(frequency) {
            throw RecurrenceError("BYYEARDAY cannot go with FREQ=\(frequency.name) (RFC 5545)")
        }
        if !byWeekNumber.isEmpty && frequency != .yearly { throw RecurrenceError("BYWEEKNO goes with FREQ=YEARLY only (RFC 5545)") }
        if !bySetPosition.isEmpty
            && [bySecond.isEmpty, byMinute.isEmpty, byHour.isEmpty, byDay.isEmpty, byMonthDay.isEmpty, byYearDay.isEmpty, byWeekNumber.isEmpty, byMonth.isEmpty]
                .allSatisfy({ $0 })
        {
            throw RecurrenceError("BYSETPOS needs another BY part to choose from, e.g. BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
        }
    }

    private static func number(_ text: Substring, _ name: String, _ range: ClosedRange<Int>) throws(RecurrenceError) -> Int {
        guard text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), range.contains(value) else {
            throw RecurrenceError("\(name)=\(text.prefix(30)) is not a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    private static func numbers(_ text: Substring, _ name: String, _ range: ClosedRange<Int>, negative: Bool) throws(RecurrenceError) -> [Int] {
        var result: [Int] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            var digits = item
            var sign = 1
            if let first = digits.first, first == "+" || (first == "-" && negative) {
                sign = first == "-" ? -1 : 1
                digits = digits.dropFirst()
            }
            guard digits.count <= 3, !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits), range.contains(value) else {
                let allowed = negative ? "\(range.lowerBound) to \(range.upperBound) or -\(range.upperBound) to -\(range.lowerBound)" : "\(range.lowerBound) to \(range.upperBound)"
                throw RecurrenceError("\(name): '\(item.prefix(30))' is not a number from \(allowed)")
            }
            result.append(sign * value)
        }
        return Array(Set(result)).sorted()
    }

    private static func weekdays(_ text: Substring) throws(RecurrenceError) -> [WeekdayNumber] {
        var result: [WeekdayNumber] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let code = item.suffix(2).uppercased()
            var ordinalText = item.dropLast(2)
            guard let index = weekdayCodes.firstIndex(of: code) else {
                throw RecurrenceError("BYDAY: '\(item.prefix(30))' is not a weekday: write MO, TU, WE, TH, FR, SA or SU, with a number before it for the nth (2MO, -1FR)")
            }
            var ordinal = 0
            if !ordinalText.isEmpty {
                var sign = 1
                if ordinalText.first == "+" || ordinalText.first == "-" {
                    sign = ordinalText.first == "-" ? -1 : 1
                    ordinalText = ordinalText.dropFirst()
                }
                guard ordinalText.count <= 2, !ordinalText.isEmpty, ordinalText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(ordinalText),
                    (1...53).contains(value)
                else { throw RecurrenceError("BYDAY: '\(item.prefix(30))' has no number from 1 to 53 (or -53 to -1) before its weekday") }
                ordinal = sign * value
            }
            result.append(WeekdayNumber(ordinal: ordinal, weekday: Weekday(rawValue: index + 1)!))
        }
        return result
    }

    private static func until(_ text: Substring) throws(RecurrenceError) -> Until {
        let upper = text.uppercased()
        if let date = ICalendarTime.date(upper) { return .date(date) }
        if let local = ICalendarTime.dateTime(upper.hasSuffix("Z") ? String(upper.dropLast()) : upper) {
            return upper.hasSuffix("Z") ? .utc(Instant(secondsSinceEpoch: local.localSeconds)) : .local(local)
        }
        throw RecurrenceError("UNTIL=\(text.prefix(30)) is not a date (19971224) or a date-time (19971224T000000Z)")
    }
}

/// Why a recurrence rule, an OnCalendar expression or a calendar file was refused: one line, with what to write.
public struct RecurrenceError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// iCalendar's basic date and date-time forms (`19970902`, `19970902T090000`), without a zone.
public enum ICalendarTime {
    public static func date(_ text: String) -> LocalDate? {
        let digits = Array(text.utf8)
        guard digits.count == 8, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let value = { (range: Range<Int>) in digits[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
        return LocalDate(year: value(0..<4), month: value(4..<6), day: value(6..<8))
    }

    public static func dateTime(_ text: String) -> LocalDateTime? {
        let bytes = Array(text.utf8)
        guard bytes.count == 15, bytes[8] == UInt8(ascii: "T"), let date = date(String(decoding: bytes[0..<8], as: UTF8.self)),
            bytes[9...].allSatisfy({ (48...57).contains($0) })
        else { return nil }
        let value = { (range: Range<Int>) in bytes[range].reduce(0) { $0 * 10 + Int($1 - 48) } }
        // Second 60 (a leap second) is read as 59: POSIX time has none.
        guard let time = TimeOfDay(hour: value(9..<11), minute: value(11..<13), second: min(59, value(13..<15))) else { return nil }
        return LocalDateTime(date: date, time: time)
    }
}

extension RecurrenceRule {
    /// The instances from `start` (DTSTART, on the wall clock of `zone`), in order.
    public func expansion(from start: LocalDateTime, in zone: TimeZoneRules) -> RecurrenceExpansion {
        RecurrenceExpansion(rule: self, start: start, zone: zone)
    }

    /// The first instance strictly after `after`, or nil when there is none (COUNT or UNTIL reached, or a rule
    /// that names no date before the year 10000). Without COUNT, only the periods around `after` are expanded.
    public func nextInstance(after: Instant, from start: LocalDateTime, in zone: TimeZoneRules) -> RecurrenceExpansion.Instance? {
        var instances = expansion(from: start, in: zone)
        if zone.resolve(start) <= after { instances.skip(toNear: after) }
        // A time shifted out of a DST gap can fire after the next one on the wall clock: look on until no later
        // wall-clock time can resolve before the best found.
        var best: RecurrenceExpansion.Instance?
        while let instance = instances.next() {
            if let best, instance.local.localSeconds - Int64(zone.maximumOffset) > best.instant.secondsSinceEpoch { break }
            if instance.instant > after, best.map({ instance.instant < $0.instant }) ?? true { best = instance }
        }
        return best
    }
}
