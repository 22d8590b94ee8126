/// A VALARM's relative TRIGGER (RFC 5545 §3.8.6.3, a §3.3.6 duration): `-PT15M`, `-P1D`, `PT0S`, `+PT1H30M`.
/// Weeks and days move the wall clock (the RFC's nominal durations: "-P1D" is the same local time the day
/// before, across a DST change too); hours, minutes and seconds are exact time.
public struct AlarmOffset: Hashable, Sendable {
    /// Weeks times 7 plus days, signed.
    public let days: Int
    /// Hours, minutes and seconds, signed.
    public let seconds: Int

    public static let zero = AlarmOffset(days: 0, seconds: 0)

    public init(days: Int, seconds: Int) {
        (self.days, self.seconds) = (days, seconds)
    }

    /// Parses a duration (`[+-]P[nW]` or `[+-]P[nD][T[nH][nM][nS]]`).
    public init(parsing text: String) throws(RecurrenceError) {
        var bytes = Substring(text.uppercased()).utf8
        var sign = 1
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") {
            sign = first == UInt8(ascii: "-") ? -1 : 1
            bytes = bytes.dropFirst()
        }
        let bad = RecurrenceError("'\(text.prefix(30))' is not a duration: write e.g. -PT15M (15 minutes before), -P1D or PT0S")
        guard bytes.first == UInt8(ascii: "P") else { throw bad }
        bytes = bytes.dropFirst()
        var (days, seconds, inTime, digits, any) = (0, 0, false, 0, false)
        var number = 0
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                guard digits < 7 else { throw bad }
                number = number * 10 + Int(byte - 48)
                digits += 1
                continue
            case UInt8(ascii: "T"):
                guard !inTime, digits == 0 else { throw bad }
                inTime = true
                continue
            case UInt8(ascii: "W") where !inTime: days += number * 7
            case UInt8(ascii: "D") where !inTime: days += number
            case UInt8(ascii: "H") where inTime: seconds += number * 3600
            case UInt8(ascii: "M") where inTime: seconds += number * 60
            case UInt8(ascii: "S") where inTime: seconds += number
            default: throw bad
            }
            guard digits > 0 else { throw bad }
            (number, digits, any) = (0, 0, true)
        }
        guard any, digits == 0 else { throw bad }
        guard days <= Self.maximumDays, seconds <= Self.maximumDays * 86400 else { throw Self.tooLong(text) }
        self.init(days: sign * days, seconds: sign * seconds)
    }

    /// The longest offset a trigger may say: about 10 years.
    private static let maximumDays = 3660

    private static func tooLong(_ text: String) -> RecurrenceError { RecurrenceError("'\(text.prefix(30))' is longer than 10 years") }

    /// The offset, refused as ``init(parsing:)`` refuses its ``text`` when longer than 10 years. An offset of one
    /// sign (as ``init(parsing:)`` and ``adding(seconds:)`` make) reads back from its text as itself.
    public func checkedLength() throws(RecurrenceError) -> AlarmOffset {
        guard abs(days) <= Self.maximumDays, abs(seconds) <= Self.maximumDays * 86400 else { throw Self.tooLong(text) }
        return self
    }

    /// This offset moved by `extra` seconds of exact time (an alarm related to an event's end: by its length).
    /// ``text`` has one sign, so when the days and the seconds would have opposite signs the days become exact
    /// time too: `-P1D` before the end of a one-hour event is `-PT23H` from its start (an hour off from the wall
    /// clock's day only when a DST change lies between). Mixed, the text said `-P1DT1H`, a day and an hour before.
    public func adding(seconds extra: Int) -> AlarmOffset {
        let total = seconds + extra
        guard days != 0, total != 0, (days < 0) != (total < 0) else { return AlarmOffset(days: days, seconds: total) }
        return AlarmOffset(days: 0, seconds: days * 86400 + total)
    }

    /// The duration as RFC 5545 writes it.
    public var text: String {
        guard self != .zero else { return "PT0S" }
        let negative = days < 0 || seconds < 0
        let (d, s) = (abs(days), abs(seconds))
        var result = (negative ? "-" : "") + "P" + (d > 0 ? "\(d)D" : "")
        if s > 0 {
            result += "T" + (s >= 3600 ? "\(s / 3600)H" : "") + (s % 3600 >= 60 ? "\(s / 60 % 60)M" : "") + (s % 60 > 0 ? "\(s % 60)S" : "")
        }
        return result
    }

    /// `15 minutes before`, `1 day before`, `2 hours after`, `at the time`.
    public var words: String {
        guard self != .zero else { return "at the time" }
        let (d, s) = (abs(days), abs(seconds))
        var parts: [String] = []
        if d > 0 { parts.append(d % 7 == 0 ? RecurrenceSet.plural(d / 7, "week") : RecurrenceSet.plural(d, "day")) }
        if s >= 3600 { parts.append(RecurrenceSet.plural(s / 3600, "hour")) }
        if s % 3600 >= 60 { parts.append(RecurrenceSet.plural(s / 60 % 60, "minute")) }
        if s % 60 > 0 { parts.append(RecurrenceSet.plural(s % 60, "second")) }
        return parts.joined(separator: " ") + (days < 0 || seconds < 0 ? " before" : " after")
    }

    /// When the alarm of an instance at local time `local` fires.
    public func instant(for local: LocalDateTime, in zone: TimeZoneRules) -> Instant {
        let moved = LocalDateTime(localSeconds: local.localSeconds + Int64(days) * 86400)
        return zone.resolve(moved).adding(seconds: Int64(seconds))
    }

    /// The instance an alarm at `instant` is for (``instant(for:in:)`` undone): the event's own time.
    public func instance(ofAlarmAt instant: Instant, in zone: TimeZoneRules) -> Instant {
        let shifted = zone.localDateTime(at: instant.adding(seconds: -Int64(seconds)))
        return zone.resolve(LocalDateTime(localSeconds: shifted.localSeconds - Int64(days) * 86400))
    }
}
