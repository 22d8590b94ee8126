/// When a reminder fires: a day selector, the times of day on each selected day, and optional bounds.
///
/// Rules are plain values; ``nextOccurrence(after:in:)`` computes the next firing in a zone.
public struct ReminderRule: Hashable, Sendable {
    /// Which local dates the rule fires on.
    public var days: DaySelector
    /// The wall-clock times on each selected day, ascending and without duplicates.
    public private(set) var times: TimeList
    /// The parts most rules do not have, out of line (nil when none is set): a daemon may hold 100,000 rules.
    private var bounds: OutOfLine<Bounds>?

    private struct Bounds: Hashable, Sendable {
        var start: LocalDateTime?
        var until: LocalDate?
        var skippedDayNumbers: [Int] = []
        var preset: Preset?
        var countsFromLastDose = false
    }

    /// When it fires relative to each instance of a calendar event (its VALARM), or nil: it fires at its times.
    public var alarmOffset: AlarmOffset? {
        guard case .recurrence(let set) = days else { return nil }
        return set.alarm
    }

    /// No firing before this local date-time (the first day, and the anchor of `every` rules).
    public var start: LocalDateTime? {
        get { bounds?.value.start }
        set { updateBounds { $0.start = newValue } }
    }
    /// No firing after this local date (inclusive last day).
    public var until: LocalDate? {
        get { bounds?.value.until }
        set { updateBounds { $0.until = newValue } }
    }
    /// Local dates on which the rule does not fire (holidays, vacations), ascending day numbers.
    public var skippedDayNumbers: [Int] { bounds?.value.skippedDayNumbers ?? [] }
    /// Its start is one interval after the last dose logged (`--from-last-dose`): the logs before it are the
    /// dose it counts from, and suppress none of its occurrences.
    public var countsFromLastDose: Bool {
        get { bounds?.value.countsFromLastDose ?? false }
        set { updateBounds { $0.countsFromLastDose = newValue } }
    }
    /// The preset the rule was expanded from ("Twice a Day"), kept for display.
    public var preset: Preset? {
        get { bounds?.value.preset }
        set { updateBounds { $0.preset = newValue } }
    }

    public init(
        days: DaySelector, times: [TimeOfDay], start: LocalDateTime? = nil, until: LocalDate? = nil,
        skip: [LocalDate] = [], preset: Preset? = nil
    ) {
        self.days = days
        self.times = TimeList(Self.sortedUnique(times))
        updateBounds {
            $0 = Bounds(start: start, until: until, skippedDayNumbers: Self.sortedUnique(skip.map(\.dayNumber)), preset: preset)
        }
    }

    /// Changes the out-of-line parts; a rule left with none keeps no box (so that equal rules are equal).
    private mutating func updateBounds(_ change: (inout Bounds) -> Void) {
        var value = bounds?.value ?? Bounds()
        change(&value)
        bounds = value == Bounds() ? nil : OutOfLine(value)
    }

    private static func sortedUnique<T: Comparable>(_ values: [T]) -> [T] {
        guard values.count > 1 else { return values }
        var result: [T] = []
        for value in values.sorted() where result.last != value { result.append(value) }
        return result
    }


    /// A short human description: `daily 08:00, 20:00`, `weekly Sun 09:00`, `Twice Monthly`.
    public var summary: String {
        if times.isEmpty { return days.summary }  // a recurrence or a calendar expression
        let at = times.map(\.description).joined(separator: ", ")
        if let preset { return "\(preset.rawValue.lowercased()), \(at)" }
        return "\(days.summary) \(at)"
    }
}

extension ReminderRule {
    /// The reminder's zone when `given` (its `--tz`, nil or empty: none) is given: a calendar expression's own
    /// zone (`Sat 10:00 Europe/Berlin`) is the reminder's, and another one given with it is refused.
    public func zoneName(given: String?) throws(RuleSpecError) -> String? {
        guard case .calendar(let expression) = days, let named = expression.zone?.name else { return given }
        if let given, !given.isEmpty, given != named {
            throw RuleSpecError("the expression names the zone \(named) but the time zone given is \(given): give one of them")
        }
        return named
    }
}

/// A value kept behind one pointer, for the parts most values lack, so that those lacking them stay small (an
/// optional of it is one word). Immutable, compared and hashed by its value: it behaves as the value would.
public final class OutOfLine<Value: Hashable & Sendable>: Hashable, Sendable {
    public let value: Value

    public init(_ value: Value) { self.value = value }

    public static func == (a: OutOfLine, b: OutOfLine) -> Bool { a === b || a.value == b.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

/// A rule's times of day, ascending: the first one inline, any others in an array, so the common
/// one-time rule needs no allocation of its own (a daemon may hold 100,000 rules).
public struct TimeList: RandomAccessCollection, Hashable, Sendable {
    private let head: TimeOfDay?
    private let tail: [TimeOfDay]

    init(_ sorted: [TimeOfDay]) {
        head = sorted.first
        tail = Array(sorted.dropFirst())
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { head == nil ? 0 : 1 + tail.count }
    public subscript(position: Int) -> TimeOfDay { position == 0 ? head! : tail[position - 1] }
}

/// The local dates a rule fires on.
public enum DaySelector: Hashable, Sendable {
    /// Every day.
    case daily
    /// Every week on these weekdays.
    case weekly(WeekdaySet)
    /// Every month on these days (a day past the month's end clamps to its last day).
    case monthly(MonthDaySet)
    /// Every month on the nth weekday: `ordinal` 1...5, or -1 for the last (a missing 5th is skipped).
    case nthWeekday(ordinal: Int, weekday: Weekday)
    /// Every year on a month and day; 29 February clamps to 28 February in common years.
    case yearly(month: Int, day: Int)
    /// Every `interval` days, counted from the rule's start date.
    case everyDays(interval: Int)
    /// Every `interval` weeks (Monday-based, counted from the start date's week) on these weekdays.
    case everyWeeks(interval: Int, WeekdaySet)
    /// Once, on this date.
    case once(LocalDate)
    /// An RFC 5545 recurrence (RRULE, RDATE, EXDATE from its DTSTART), which names its own times of day: a rule
    /// with it has no `times`, and its instances come from the set (see ``ReminderRule/nextOccurrence(after:in:)``).
    /// Out of line, as `calendar`: inline, the set (200 bytes) made every rule as wide, and a scheduler of
    /// 100,000 daily reminders held 17 MB of it.
    indirect case recurrence(RecurrenceSet)
    /// A systemd calendar expression (`OnCalendar=`), which names its own times too; its zone, if it names
    /// one, is the reminder's.
    indirect case calendar(CalendarExpression)
    /// No days and no times: a medication taken when needed (`--as-needed`), logged but never announced.
    case asNeeded

    /// `daily`, `weekly Mon, Thu`, `monthly 1, 15, last`, `every 3 days` ...
    public var summary: String {
        switch self {
        case .daily: return "daily"
        case .weekly(let set): return "weekly \(set)"
        case .monthly(let set): return "monthly \(set)"
        case .nthWeekday(let ordinal, let weekday):
            return "monthly on the \(NthWeekday.ordinalName(ordinal)) \(weekday.displayName)"
        case .yearly(let month, let day): return "yearly " + ISO8601.pad(month, 2) + "-" + ISO8601.pad(day, 2)
        case .everyDays(let n): return "every \(n) days"
        case .everyWeeks(let n, let set): return "every \(n) weeks \(set)"
        case .once(let date): return "once \(date)"
        case .recurrence(let set): return set.summary
        case .calendar(let expression): return "on calendar \(expression.normalized)"
        case .asNeeded: return "as needed"
        }
    }
}


/// A set of weekdays, stored as a bit mask (bit 1 = Sunday ... bit 7 = Saturday).
public struct WeekdaySet: Hashable, Sendable, CustomStringConvertible {
    public private(set) var mask: UInt8

    public init(_ weekdays: some Sequence<Weekday>) {
        mask = weekdays.reduce(0) { $0 | 1 << UInt8($1.rawValue) }
    }

    public func contains(_ weekday: Weekday) -> Bool { mask & 1 << UInt8(weekday.rawValue) != 0 }
    public var isEmpty: Bool { mask == 0 }
    public var weekdays: [Weekday] { Weekday.allCases.filter(contains) }
    public var description: String { weekdays.map(\.displayName).joined(separator: ", ") }
}

/// A set of days of month 1...31 plus "last", as a bit mask (bit n = day n, bit 0 = last day).
public struct MonthDaySet: Hashable, Sendable, CustomStringConvertible {
    public private(set) var mask: UInt32

    public init(days: some Sequence<Int>, includesLastDay: Bool = false) {
        mask = days.reduce(includesLastDay ? 1 : 0) { $0 | 1 << UInt32($1) }
    }

    public var days: [Int] { (1...31).filter { mask & 1 << UInt32($0) != 0 } }
    public var includesLastDay: Bool { mask & 1 != 0 }
    public var isEmpty: Bool { mask == 0 }

    /// The days this set fires on in a month of `length` days, as a mask: days past the end clamp to the last day.
    @inlinable
    func effectiveMask(monthLength length: Int) -> UInt32 {
        let withinMonth: UInt32 = (1 << UInt32(length)) - 2  // bits 1 ..< length
        var result = mask & withinMonth
        if mask & ~withinMonth != 0 { result |= 1 << UInt32(length) }  // 'last', or days >= length
        return result
    }

    /// The listed day that an effective day came from (the smallest one that clamps to it), or 0 for "last".
    func sourceDay(effectiveDay day: Int, monthLength length: Int) -> Int {
        if day < length { return day }
        return days.first { $0 >= length } ?? 0
    }

    public var description: String {
        (days.map(String.init) + (includesLastDay ? ["last"] : [])).joined(separator: ", ")
    }
}

/// Names of nth-weekday ordinals, shared by parsing and display.
public enum NthWeekday {
    static let ordinals = ["1st": 1, "2nd": 2, "3rd": 3, "4th": 4, "5th": 5, "last": -1]

    static func ordinalName(_ ordinal: Int) -> String {
        ordinals.first { $0.value == ordinal }?.key ?? "\(ordinal)th"
    }
}
