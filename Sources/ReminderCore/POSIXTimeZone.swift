/// A POSIX TZ rule string as found in TZif footers: `EST5EDT,M3.2.0,M11.1.0`, `<+1030>-10:30<+11>-11,M10.1.0,M4.1.0`.
///
/// Supports the RFC 8536 extensions: hours up to ±167 in rule times (`M3.2.0/-1`, `J365/25`).
struct POSIXTimeZone: Hashable, Sendable {
    /// Seconds east of UTC (the POSIX string writes them west-positive; this is already negated).
    var standardOffset: Int
    var daylight: Daylight?

    struct Daylight: Hashable, Sendable {
        var offset: Int
        var start: DateRule
        var startTime: Int
        var end: DateRule
        var endTime: Int

        /// The two changes of a year as UTC instants with the offset after each, in time order.
        func transitions(year: Int, standardOffset: Int) -> [(time: Int64, offset: Int)] {
            let startLocal = Int64(start.dayNumber(year: year)) * 86400 + Int64(startTime)
            let endLocal = Int64(end.dayNumber(year: year)) * 86400 + Int64(endTime)
            let onset = (time: startLocal - Int64(standardOffset), offset: offset)
            let ending = (time: endLocal - Int64(offset), offset: standardOffset)
            return onset.time < ending.time ? [onset, ending] : [ending, onset]
        }
    }

    enum DateRule: Hashable, Sendable {
        /// `Jn`: day 1...365, February 29 never counted.
        case julianNoLeap(Int)
        /// `n`: day 0...365, February 29 counted in leap years.
        case zeroBased(Int)
        /// `Mm.w.d`: day d (0 = Sunday) of week w (5 = last) of month m.
        case monthWeekDay(month: Int, week: Int, weekday: Int)

        func dayNumber(year: Int) -> Int {
            let jan1 = CivilCalendar.dayNumber(year: year, month: 1, day: 1)
            switch self {
            case .julianNoLeap(let n):
                let leapShift = CivilCalendar.isLeapYear(year) && n >= 60 ? 1 : 0
                return jan1 + n - 1 + leapShift
            case .zeroBased(let n):
                return jan1 + n
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
                let firstWeekday = Weekday(dayNumber: first).rawValue - 1
                var day = first + CivilCalendar.floorMod(weekday - firstWeekday, 7) + (week - 1) * 7
                let length = CivilCalendar.daysInMonth(year: year, month: month)
                while day >= first + length { day -= 7 }
                return day
            }
        }
    }

    init?(_ text: String) {
        var scanner = Scanner(Array(text.utf8))
        guard scanner.skipName(), let std = scanner.offset() else { return nil }
        standardOffset = -std
        if scanner.atEnd {
            daylight = nil
            return
        }
        guard scanner.skipName() else { return nil }
        var dstOffset = standardOffset + 3600
        if let explicit = scanner.offset() { dstOffset = -explicit }
        guard scanner.consume(","), let start = scanner.dateRule() else { return nil }
        let startTime = scanner.consume("/") ? scanner.offset() : 7200
        guard let startTime, scanner.consume(","), let end = scanner.dateRule() else { return nil }
        let endTime = scanner.consume("/") ? scanner.offset() : 7200
        guard let endTime, scanner.atEnd else { return nil }
        daylight = Daylight(offset: dstOffset, start: start, startTime: startTime, end: end, endTime: endTime)
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }
        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func consume(_ character: Character) -> Bool {
            guard current == character.asciiValue else { return false }
            index += 1
            return true
        }

        /// `EST` or `<+0530>`.
        mutating func skipName() -> Bool {
            if consume("<") {
                while let c = current, c != UInt8(ascii: ">") { index += 1 }
                return consume(">")
            }
            let start = index
            while let c = current, (c | 0x20) >= UInt8(ascii: "a"), (c | 0x20) <= UInt8(ascii: "z") { index += 1 }
            return index - start >= 3
        }

        mutating func number() -> Int? {
            var value: Int?
            while let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                value = (value ?? 0) * 10 + Int(c - UInt8(ascii: "0"))
                index += 1
            }
            return value
        }

        /// `[+-]hh[:mm[:ss]]` in seconds.
        mutating func offset() -> Int? {
            var sign = 1
            if consume("-") { sign = -1 } else { _ = consume("+") }
            guard let hours = number() else { return nil }
            var seconds = hours * 3600
            if consume(":") {
                guard let minutes = number() else { return nil }
                seconds += minutes * 60
                if consume(":") {
                    guard let s = number() else { return nil }
                    seconds += s
                }
            }
            return sign * seconds
        }

        mutating func dateRule() -> DateRule? {
            if consume("J") { return number().map(DateRule.julianNoLeap) }
            if consume("M") {
                guard let m = number(), consume("."), let w = number(), consume("."), let d = number(),
                    (1...12).contains(m), (1...5).contains(w), (0...6).contains(d)
                else { return nil }
                return .monthWeekDay(month: m, week: w, weekday: d)
            }
            return number().map(DateRule.zeroBased)
        }
    }
}
