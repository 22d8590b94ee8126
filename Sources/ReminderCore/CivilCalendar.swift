/// An instant on the UTC time line, to the second: seconds since 1970-01-01T00:00:00Z.
///
/// The engine never reads a clock; every "now" arrives as an `Instant` parameter.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the Unix epoch (leap seconds are not counted, as in POSIX time).
    public var secondsSinceEpoch: Int64

    /// Later than any instant a rule yields: the open end of a range in a query.
    public static let endOfTime = Instant(secondsSinceEpoch: .max)

    /// The instants remindd stores and computes with: 1900-01-01T00:00:00Z to 9999-12-31T23:59:59Z. A stored
    /// value outside (a hand-edited or damaged row) is refused where it is read, so that no arithmetic on it
    /// can overflow.
    public static let storable = Instant(secondsSinceEpoch: -2_208_988_800)...Instant(secondsSinceEpoch: 253_402_300_799)

    public init(secondsSinceEpoch: Int64) {
        self.secondsSinceEpoch = secondsSinceEpoch
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
    }

    /// The instant `seconds` later (earlier when negative).
    public func adding(seconds: Int64) -> Instant {
        Instant(secondsSinceEpoch: secondsSinceEpoch + seconds)
    }

    /// ISO 8601 in UTC, e.g. `2024-03-10T07:30:00Z`.
    public var description: String { ISO8601.format(self, offsetSeconds: 0) }
}

/// A day of the week, numbered as in the slot ids: 1 = Sunday ... 7 = Saturday.
public enum Weekday: Int, CaseIterable, Sendable, Comparable {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The weekday of a day number (days since 1970-01-01, a Thursday).
    public init(dayNumber: Int) {
        self = Weekday(rawValue: CivilCalendar.floorMod(dayNumber + 4, 7) + 1)!
    }

    /// Three-letter English abbreviation in lower case (`sun`, `mon`, ...), as the CLI writes it.
    public var shortName: String {
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][rawValue - 1]
    }

    /// The days of a week as a calendar grid shows them, Monday first.
    public static let mondayFirst: [Weekday] = [.monday, .tuesday, .wednesday, .thursday, .friday, .saturday, .sunday]

    /// Its place in a week from Monday: Monday 0 ... Sunday 6.
    public var mondayFirstIndex: Int { (rawValue + 5) % 7 }

    /// Title-case abbreviation for human output (`Sun`, `Mon`, ...).
    public var displayName: String {
        ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][rawValue - 1]
    }

    /// Parses `sun`, `Sunday`, `SU` and similar: two letters or more of a day's English name, in any case.
    /// Compared as ASCII bytes (the names are ASCII, and no other letter lower-cases to one of theirs): a weekly
    /// rule's days are read at every start.
    public init?(name: some StringProtocol) {
        let given = name.utf8
        guard given.count >= 2, let index = Self.fullNames.firstIndex(where: { full in
            given.count <= full.count && zip(given, full).allSatisfy { ($0 | 0x20) == $1 }
        }) else { return nil }
        self = Weekday(rawValue: index + 1)!
    }

    private static let fullNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"].map { Array($0.utf8) }
}

/// A calendar date without a time zone (proleptic Gregorian calendar).
///
/// Stored in 8 bytes (a daemon holds one or two per reminder, and may hold 100,000 reminders).
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    /// Creates a date, or returns nil when the day does not exist (30 February, day 32) or the year is
    /// outside ±2,000,000.
    public init?(year: Int, month: Int, day: Int) {
        guard abs(year) <= 2_000_000, (1...12).contains(month), day >= 1, day <= CivilCalendar.daysInMonth(year: year, month: month) else {
            return nil
        }
        storedYear = Int32(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// The date of a day number (days since 1970-01-01).
    public init(dayNumber: Int) {
        let (year, month, day) = CivilCalendar.civil(fromDayNumber: dayNumber)
        storedYear = Int32(truncatingIfNeeded: year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// Days since 1970-01-01.
    public var dayNumber: Int { CivilCalendar.dayNumber(year: year, month: month, day: day) }

    /// The same date `years` later (or earlier), clamped to the month's end: 29 February goes to the 28th.
    public func adding(years: Int) -> LocalDate {
        LocalDate(year: year + years, month: month, day: min(day, CivilCalendar.daysInMonth(year: year + years, month: month)))!
    }

    public var weekday: Weekday { Weekday(dayNumber: dayNumber) }

    /// The Monday of its week.
    public var monday: LocalDate { LocalDate(dayNumber: dayNumber - weekday.mondayFirstIndex) }

    public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
        (lhs.storedYear, lhs.storedMonth, lhs.storedDay) < (rhs.storedYear, rhs.storedMonth, rhs.storedDay)
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        guard (0...9999).contains(year) else { return ISO8601.pad(year, 4) + "-" + ISO8601.pad(month, 2) + "-" + ISO8601.pad(day, 2) }
        return String(unsafeUninitializedCapacity: 10) { write($0) }
    }

    /// Writes `YYYY-MM-DD` (a year of four digits) at the start of `buffer`; returns the bytes written: a
    /// calendar read at start writes a date-time for each alarm (a string per part was 4% of planning an item).
    fileprivate func write(_ buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var writer = DigitWriter(buffer: buffer)
        writer.digits(year, 4, then: "-")
        writer.digits(month, 2, then: "-")
        writer.digits(day, 2)
        return writer.count
    }
}

/// A wall-clock time of day, to the second (00:00:00 ... 23:59:59), in 4 bytes.
public struct TimeOfDay: Hashable, Comparable, Sendable, CustomStringConvertible {
    private let storedSeconds: Int32

    /// Seconds since local midnight, 0 ..< 86400.
    public var secondsSinceMidnight: Int { Int(storedSeconds) }

    public init?(hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        storedSeconds = Int32(hour * 3600 + minute * 60 + second)
    }

    /// Wraps past midnight: 25:00 becomes 01:00 (used by the presets, never by user input).
    public init(wrappingSeconds seconds: Int) {
        storedSeconds = Int32(CivilCalendar.floorMod(seconds, 86400))
    }

    public var hour: Int { secondsSinceMidnight / 3600 }
    public var minute: Int { secondsSinceMidnight / 60 % 60 }
    public var second: Int { secondsSinceMidnight % 60 }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool {
        lhs.storedSeconds < rhs.storedSeconds
    }

    /// `HH:MM`, or `HH:MM:SS` when the seconds are not zero.
    public var description: String {
        let base = ISO8601.pad(hour, 2) + ":" + ISO8601.pad(minute, 2)
        return second == 0 ? base : base + ":" + ISO8601.pad(second, 2)
    }
}

/// A date and a wall-clock time, without a zone.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let date: LocalDate
    public let time: TimeOfDay

    public init(date: LocalDate, time: TimeOfDay) {
        self.date = date
        self.time = time
    }

    /// Seconds since 1970-01-01T00:00:00 of the local clock (as if the zone were UTC).
    public var localSeconds: Int64 {
        Int64(date.dayNumber) * 86400 + Int64(time.secondsSinceMidnight)
    }

    public init(localSeconds: Int64) {
        let days = CivilCalendar.floorDiv(localSeconds, 86400)
        date = LocalDate(dayNumber: Int(days))
        time = TimeOfDay(wrappingSeconds: Int(localSeconds - days * 86400))
    }

    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        lhs.localSeconds < rhs.localSeconds
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String {
        guard (0...9999).contains(date.year) else {
            return "\(date)T" + ISO8601.pad(time.hour, 2) + ":" + ISO8601.pad(time.minute, 2) + ":" + ISO8601.pad(time.second, 2)
        }
        return String(unsafeUninitializedCapacity: 19) { buffer in
            var writer = DigitWriter(buffer: buffer, count: date.write(buffer))
            writer.digits(time.hour, 2, before: "T", then: ":")
            writer.digits(time.minute, 2, then: ":")
            writer.digits(time.second, 2)
            return writer.count
        }
    }
}

/// Writes numbers of a fixed width, in ASCII, into a string's bytes.
private struct DigitWriter {
    let buffer: UnsafeMutableBufferPointer<UInt8>
    var count = 0

    /// `value` (0 ≤ value < 10^width) as `width` digits, with a separator before and after when given.
    mutating func digits(_ value: Int, _ width: Int, before: Unicode.Scalar? = nil, then: Unicode.Scalar? = nil) {
        if let before { append(UInt8(ascii: before)) }
        var rest = value
        for place in stride(from: width - 1, through: 0, by: -1) {
            buffer[count + place] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += width
        if let then { append(UInt8(ascii: then)) }
    }

    private mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }
}

/// Proleptic Gregorian arithmetic on day numbers (Howard Hinnant's algorithms): exact, allocation-free.
public enum CivilCalendar {
    @inlinable
    public static func floorDiv<T: BinaryInteger>(_ a: T, _ b: T) -> T {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }

    @inlinable
    public static func floorMod<T: BinaryInteger>(_ a: T, _ b: T) -> T {
        a - floorDiv(a, b) * b
    }

    public static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a civil date (which must be valid).
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number.
    public static func civil(fromDayNumber days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
