/// A systemd calendar event expression (`OnCalendar=`, systemd.time(7)): `Mon..Fri *-*-* 09:00`, `*-*~01`,
/// `*:0/15`, `quarterly`, `Sat 10:00 Europe/Berlin`, with systemd's own semantics:
///
/// - `[WEEKDAYS] [[YEAR-]MONTH-DAY] [HOUR:MINUTE[:SECOND]] [ZONE]`; each number a value, a list (`1,15`), a
///   range (`1..5`), a repetition (`0/15`, `1..20/5`) or `*`; `~` before the day counts from the month's end
///   (`~01` the last day, `~03` the third last); a two-digit year is 19xx from 70, else 20xx; a date alone is
///   at 00:00:00; a time without seconds is at second 0; weekday names in English, whole or in three letters.
/// - A date that does not exist is not a firing (`*-*-31` skips short months, `*-02-29` fires in leap years).
/// - A local time a DST gap skips does not fire: the search goes on from where the gap puts it (02:30 on the
///   spring night: from 03:30); a repeated local time fires once, at its first occurrence.
/// - Years 1970 to 2199, as systemd.
///
/// What systemd accepts and remindd does not: fractions of a second (remindd fires on whole seconds), and a
/// zone written as the local zone's abbreviation (`CET`): write its name.
public struct CalendarExpression: Hashable, Sendable {
    /// The zone the expression names at its end, if any.
    public enum Zone: Hashable, Sendable {
        case utc
        case named(String)

        public var name: String {
            switch self {
            case .utc: return "UTC"
            case .named(let name): return name
            }
        }
    }

    /// Weekdays as bits, Monday = bit 0 ... Sunday = bit 6; nil: any day.
    private var weekdays: UInt8?
    private var years: [Item]?
    private var months: [Item]?
    private var days: [Item]?
    private var hours: [Item]?
    private var minutes: [Item]?
    private var seconds: [Item]?
    /// Days count back from the month's end (`~`).
    private var fromMonthEnd = false
    public private(set) var zone: Zone?
    /// The expression as the user wrote it.
    public let text: String

    static let minimumYear = 1970
    static let maximumYear = 2199

    /// Parses an expression.
    ///
    /// The last word is its zone when it names one (systemd checks the zone files; no word that names a zone can
    /// be read as a date or a time, so here a last word of letters that is not a weekday or a shorthand is
    /// taken for a zone, and whoever loads the zone refuses one that does not exist).
    /// - Throws: ``RecurrenceError`` saying what is wrong, the way systemd would refuse it.
    public init(parsing text: String) throws(RecurrenceError) {
        self.text = text
        guard text.utf8.count <= 1024 else { throw RecurrenceError("the expression is longer than 1024 characters") }
        var body = Substring(text)
        if body.count > 4, body.suffix(4).uppercased() == " UTC" {
            zone = .utc
            body = body.dropLast(4)
        } else if let space = body.lastIndex(of: " "), Self.isZoneName(body[body.index(after: space)...]) {
            zone = .named(String(body[body.index(after: space)...]))
            body = body[..<space]
        }
        guard !body.isEmpty else { throw RecurrenceError("the expression is empty: write e.g. 'Mon..Fri *-*-* 09:00' or 'daily'") }
        if !shorthand(body.lowercased()) {
            var reader = CalendarExpressionReader(body)
            weekdays = try reader.weekdays()
            if !(try readDate(&reader)) { try readTime(&reader) }
            guard reader.atEnd else { throw Self.unreadable(text, at: reader.rest) }
            try normalizeAndCheck()
            if let fraction = reader.fraction {
                throw RecurrenceError("fractions of a second are not supported: remindd fires on whole seconds; drop the '\(fraction)'")
            }
        } else {
            try normalizeAndCheck()
        }
    }

    private static func isZoneName(_ word: Substring) -> Bool {
        guard let first = word.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        var expression = CalendarExpression(empty: "")
        var reader = CalendarExpressionReader(word)
        // Nil for a word that is no weekday list, whether it starts like none or only like one (Monrovia).
        let isWeekday = (try? reader.weekdays()) != nil
        return !isWeekday && !expression.shorthand(word.lowercased())
    }

    private init(empty text: String) { self.text = text }

    /// `minutely` ... `semiannually`: systemd's shorthands.
    private mutating func shorthand(_ word: String) -> Bool {
        let zero = [Item(start: 0)]
        switch word {
        case "minutely": seconds = zero
        case "hourly": (minutes, seconds) = (zero, zero)
        case "daily": (hours, minutes, seconds) = (zero, zero, zero)
        case "weekly": (weekdays, hours, minutes, seconds) = (1, zero, zero, zero)
        case "monthly": (days, hours, minutes, seconds) = ([Item(start: 1)], zero, zero, zero)
        case "yearly", "annually", "anually": (months, days, hours, minutes, seconds) = ([Item(start: 1)], [Item(start: 1)], zero, zero, zero)
        case "quarterly": (months, days, hours, minutes, seconds) = ([1, 4, 7, 10].map { Item(start: $0) }, [Item(start: 1)], zero, zero, zero)
        case "semiannually", "semi-annually", "biannually", "bi-annually":
            (months, days, hours, minutes, seconds) = ([Item(start: 1), Item(start: 7)], [Item(start: 1)], zero, zero, zero)
        default: return false
        }
        return true
    }

    /// `[YEAR-]MONTH-DAY` (or `@SECONDS`, a UTC instant): true when it was all (an `@` instant has no time part).
    private mutating func readDate(_ reader: inout CalendarExpressionReader) throws(RecurrenceError) -> Bool {
        if reader.peek == UInt8(ascii: "@") {
            reader.advance()
            guard let value = reader.number(), value <= Int64(Self.maximumYear - 1969) * 366 * 86400 else { throw Self.unreadable(text, at: reader.rest) }
            let local = LocalDateTime(localSeconds: value)
            (years, months, days) = ([Item(start: local.date.year)], [Item(start: local.date.month)], [Item(start: local.date.day)])
            (hours, minutes, seconds) = ([Item(start: local.time.hour)], [Item(start: local.time.minute)], [Item(start: local.time.second)])
            zone = .utc
            return true
        }
        var lookahead = reader
        guard !lookahead.atEnd else { return false }
        let first = try lookahead.chain(self)
        // A ':' next (or nothing): it was a time, read again as one.
        if lookahead.atEnd || lookahead.peek == UInt8(ascii: ":") { return false }
        if lookahead.peek == UInt8(ascii: "~") { fromMonthEnd = true } else if lookahead.peek != UInt8(ascii: "-") { throw Self.unreadable(text, at: lookahead.rest) }
        lookahead.advance()
        let second = try lookahead.chain(self)
        if lookahead.atEnd || lookahead.peek == UInt8(ascii: " ") {
            (months, days) = (first, second)
            lookahead.skipSpaces()
            reader = lookahead
            return false
        }
        guard !fromMonthEnd else { throw Self.unreadable(text, at: lookahead.rest) }
        if lookahead.peek == UInt8(ascii: "~") { fromMonthEnd = true } else if lookahead.peek != UInt8(ascii: "-") { throw Self.unreadable(text, at: lookahead.rest) }
        lookahead.advance()
        let third = try lookahead.chain(self)
        guard lookahead.atEnd || lookahead.peek == UInt8(ascii: " ") else { throw Self.unreadable(text, at: lookahead.rest) }
        (years, months, days) = (first, second, third)
        lookahead.skipSpaces()
        reader = lookahead
        return false
    }

    /// `HOUR:MINUTE[:SECOND]`, or nothing (00:00:00).
    private mutating func readTime(_ reader: inout CalendarExpressionReader) throws(RecurrenceError) {
        let zero = [Item(start: 0)]
        guard !reader.atEnd else {
            (hours, minutes, seconds) = (zero, zero, zero)
            return
        }
        hours = try reader.chain(self)
        guard reader.peek == UInt8(ascii: ":") else { throw Self.unreadable(text, at: reader.rest) }
        reader.advance()
        minutes = try reader.chain(self)
        if reader.atEnd {
            seconds = zero
            return
        }
        guard reader.peek == UInt8(ascii: ":") else { throw Self.unreadable(text, at: reader.rest) }
        reader.advance()
        // A lone '*' for the seconds is every second.
        seconds = try reader.chain(self, isSeconds: true) ?? [Item(start: 0, stop: -1, step: 1)]
    }

    /// systemd's normalization (two-digit years, sorted lists without repeats, ranges cut to whole steps) and
    /// its checks of each field's bounds.
    private mutating func normalizeAndCheck() throws(RecurrenceError) {
        if weekdays == 0 || weekdays == 0x7F { weekdays = nil }
        if days == nil { fromMonthEnd = false }
        years = years?.map { item in
            var item = item
            func full(_ year: Int) -> Int { year < 0 ? year : year < 70 ? year + 2000 : year < 100 ? year + 1900 : year }
            (item.start, item.stop) = (full(item.start), full(item.stop))
            return item
        }
        func normalized(_ items: [Item]?) -> [Item]? {
            items.map { items in
                Array(Set(items.map { item in
                    var item = item
                    if item.stop > item.start && item.step > 0 { item.stop -= (item.stop - item.start) % item.step }
                    // A range of one value, or a step that does not repeat within its range: a single value.
                    if item.stop == item.start || (item.stop > item.start && item.step > 0 && item.start + item.step > item.stop) {
                        (item.stop, item.step) = (-1, 0)
                    }
                    return item
                })).sorted()
            }
        }
        (years, months, days) = (normalized(years), normalized(months), normalized(days))
        (hours, minutes, seconds) = (normalized(hours), normalized(minutes), normalized(seconds))
        try Self.check(years, "year", Self.minimumYear...Self.maximumYear, fromEnd: false)
        try Self.check(months, "month", 1...12, fromEnd: false)
        try Self.check(days, "day", 1...31, fromEnd: fromMonthEnd)
        try Self.check(hours, "hour", 0...23, fromEnd: false)
        try Self.check(minutes, "minute", 0...59, fromEnd: false)
        try Self.check(seconds, "second", 0...59, fromEnd: false)
    }

    private static func check(_ items: [Item]?, _ name: String, _ bounds: ClosedRange<Int>, fromEnd: Bool) throws(RecurrenceError) {
        // Counted from the month's end, a day is at most 28 from it.
        let upper = fromEnd ? bounds.upperBound - 3 : bounds.upperBound
        for item in items ?? [] {
            let shown = item.step > 0 ? "\(item.start)\(item.stop >= 0 ? "..\(item.stop)" : "")/\(item.step)" : "\(item.start)"
            guard (bounds.lowerBound...upper).contains(item.start), item.stop < 0 || (bounds.lowerBound...upper).contains(item.stop) else {
                throw RecurrenceError("\(name) \(shown) is out of range: \(name == "hour" ? "an" : "a") \(name) is \(bounds.lowerBound) to \(upper)\(fromEnd ? " days from the month's end" : "")")
            }
            guard item.step <= upper - bounds.lowerBound else { throw RecurrenceError("\(name) \(shown): the step \(item.step) is longer than a \(name)'s range") }
            let fits = item.stop >= 0 ? item.start + item.step <= item.stop
                : fromEnd ? item.start - item.step >= bounds.lowerBound : item.start + item.step <= upper
            guard fits else { throw RecurrenceError("\(name) \(shown) repeats not even once within its range (systemd refuses it too)") }
        }
    }

    /// The expression as systemd prints it normalized: `Mon..Fri *-*-* 09:00:00`.
    public var normalized: String {
        var text = ""
        if let weekdays {
            var runs: [String] = []
            var day = 0
            while day < 7 {
                guard weekdays & 1 << UInt8(day) != 0 else { day += 1; continue }
                var end = day
                while end + 1 < 7, weekdays & 1 << UInt8(end + 1) != 0 { end += 1 }
                let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
                runs.append(end == day ? names[day] : names[day] + (end == day + 1 ? "," : "..") + names[end])
                day = end + 1
            }
            text = runs.joined(separator: ",") + " "
        }
        func chain(_ items: [Item]?, width: Int, seconds: Bool = false) -> String {
            guard let items else { return "*" }
            if seconds, items == [Item(start: 0, stop: -1, step: 1)] { return "*" }
            return items.map { item in
                var part = ISO8601.pad(item.start, width)
                if item.stop > 0 { part += ".." + ISO8601.pad(item.stop, width) }
                if item.step > 0 && !(item.stop > 0 && item.step == 1) { part += "/\(item.step)" }
                return part
            }.joined(separator: ",")
        }
        text += chain(years, width: 4) + "-" + chain(months, width: 2) + (fromMonthEnd ? "~" : "-") + chain(days, width: 2)
        text += " " + chain(hours, width: 2) + ":" + chain(minutes, width: 2) + ":" + chain(seconds, width: 2, seconds: true)
        if let zone { text += " " + zone.name }
        return text
    }

    /// The expression as an RFC 5545 RRULE with the same days and times, for calendars (export): FREQ by the
    /// finest field left free, every other field as a BY part (days from the month's end as negative
    /// BYMONTHDAY); years as UNTIL, when they are one unbroken run (nil otherwise). Where the two differ: a
    /// calendar fires a time in a DST gap shifted by the gap, where systemd (and remindd) skip it.
    public var recurrenceRule: String? {
        let values = Self.values
        let everySecond = seconds == nil || seconds == [Item(start: 0, stop: -1, step: 1)]
        var parts = ["FREQ=" + (everySecond ? "SECONDLY" : minutes == nil ? "MINUTELY" : hours == nil ? "HOURLY" : "DAILY")]
        if let weekdays {
            let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
            parts.append("BYDAY=" + (0..<7).filter { weekdays & 1 << UInt8($0) != 0 }.map { codes[$0] }.joined(separator: ","))
        }
        if let months = values(months, 1...12) { parts.append("BYMONTH=" + months.map(String.init).joined(separator: ",")) }
        if let days = values(days, fromMonthEnd ? 1...28 : 1...31) {
            parts.append("BYMONTHDAY=" + days.map { String(fromMonthEnd ? -$0 : $0) }.joined(separator: ","))
        }
        if let hours = values(hours, 0...23) { parts.append("BYHOUR=" + hours.map(String.init).joined(separator: ",")) }
        if let minutes = values(minutes, 0...59) { parts.append("BYMINUTE=" + minutes.map(String.init).joined(separator: ",")) }
        if !everySecond, let seconds = values(seconds, 0...59) { parts.append("BYSECOND=" + seconds.map(String.init).joined(separator: ",")) }
        if let years = values(years, Self.minimumYear...Self.maximumYear) {
            guard let last = years.last, years.count == last - years[0] + 1 else { return nil }
            parts.append("UNTIL=\(last)1231T235959")
        }
        return parts.joined(separator: ";")
    }

    /// The values a field's items name within `range`, sorted (nil: the field is free).
    private static func values(_ items: [Item]?, _ range: ClosedRange<Int>) -> [Int]? {
        items.map { items in
            Set(items.flatMap { item -> [Int] in
                guard item.step > 0 else { return [item.start] }
                return Array(stride(from: item.start, through: item.stop >= 0 ? item.stop : range.upperBound, by: item.step))
            }).filter(range.contains).sorted()
        }
    }

    /// Whether it names more than one second of a minute (`*:*:*`, `*:*:0/10`, `*:*:0,30`): it would fire more
    /// often than once a minute, which remindd refuses.
    public var firesMoreThanOnceAMinute: Bool { (Self.values(seconds, 0...59) ?? Array(0...59)).count > 1 }

    // MARK: Next firing

    /// A broken-down local time, whose fields may run past their ranges until normalized (day 32, hour 24).
    private struct Fields {
        var year, month, day, hour, minute, second: Int
        /// The UTC offset these fields were last normalized with, which the next normalization reads them in
        /// (glibc's mktime takes `tm_isdst` from the struct: a time moved past a gap keeps its summer offset).
        var offset: Int?

        init(localSeconds: Int64) {
            let local = LocalDateTime(localSeconds: localSeconds)
            (year, month, day) = (local.date.year, local.date.month, local.date.day)
            (hour, minute, second) = (local.time.hour, local.time.minute, local.time.second)
        }

        /// Local seconds, carrying what runs over (month 13 is January next year, day 32 the next month's 1st).
        var localSeconds: Int64 {
            let months = year * 12 + (month - 1)
            let first = CivilCalendar.dayNumber(year: CivilCalendar.floorDiv(months, 12), month: CivilCalendar.floorMod(months, 12) + 1, day: 1)
            return Int64(first + day - 1) * 86400 + Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)
        }

        mutating func startOfDay() { (hour, minute, second) = (0, 0, 0) }
    }

    /// The first firing strictly after `after`, in `zone` (the expression's own zone, when it names one, is the
    /// caller's to load): the local time it matched and its instant. Nil when it never fires again.
    ///
    /// The search follows systemd's search (`find_next` in calendarspec.c) step for step, so that it meets DST
    /// changes as systemd does: field by field from the coarsest, each time normalizing the local time through
    /// the zone; a time a gap skips is normalized past the gap (02:15 to 03:15) and the search goes on from
    /// there with the finer fields reset (03:00), so it does not fire; a repeated time takes the offset the
    /// search started in (as glibc's mktime does): the first occurrence, or the second when the search starts
    /// inside the second.
    public func next(after: Instant, in zone: TimeZoneRules) -> (local: LocalDateTime, instant: Instant)? {
        switch search(after: after, in: zone) {
        case .found(let local, let instant) where instant > after: return (local, instant)
        case .never: return nil
        case .found, .gaveUp:
            // Found before `after` (glibc's reading of a DST change sent the search back) or not at all.
            // systemd's search can go round in circles at a DST change ("Infinite loop in calendar calculation":
            // systemd then never starts the timer again). A reminder must not be lost so: the next wall-clock
            // time the expression matches that exists in the zone, found on the zone-less wall clock.
            var wallClock = after.secondsSinceEpoch + Int64(zone.offset(at: after))
            while case .found(let local, _) = search(after: Instant(secondsSinceEpoch: wallClock), in: Self.wallClock) {
                let instant = resolveRepeated(local.localSeconds, after: after, in: zone)
                if instant > after && instant.secondsSinceEpoch + Int64(zone.offset(at: instant)) == local.localSeconds { return (local, instant) }
                wallClock = local.localSeconds
            }
            return nil
        }
    }

    /// Local time as it is, without offset changes.
    private static let wallClock = TimeZoneRules(identifier: "UTC", fixedOffset: 0)

    /// How systemd's search ended.
    private enum SearchResult {
        case found(LocalDateTime, Instant)
        case never
        /// After 1,000 steps, as systemd gives up.
        case gaveUp
    }

    private func search(after: Instant, in zone: TimeZoneRules) -> SearchResult {
        var c = Fields(localSeconds: after.secondsSinceEpoch + 1 + Int64(zone.offset(at: after.adding(seconds: 1))))
        func resolve(_ fields: Fields) -> Instant { resolveRepeated(fields.localSeconds, after: after, in: zone) }
        func withinBounds(_ c: inout Fields) -> Bool? { normalized(&c, after: after, in: zone) }
        /// One field's step: `c` moved to the field's next allowed value (`set` resets the finer fields when it
        /// changes), or carried into the coarser field when there is none or the zone moved it back.
        /// - Returns: whether the search goes on to the next field (false: from the top again).
        func advance(_ value: Int?, set: (inout Fields, Int) -> Void, carry: (inout Fields) -> Void) -> Bool {
            guard let value else {
                carry(&c)
                return false
            }
            set(&c, value)
            guard let same = withinBounds(&c) else {
                carry(&c)
                return false
            }
            return same
        }
        for _ in 0..<1000 {
            c = Fields(localSeconds: normalizedWallClock(c, after: after, in: zone))

            guard let year = Self.next(c.year, in: years, through: Int.max) else { return .never }
            if year != c.year { (c.year, c.month, c.day) = (year, 1, 1); c.startOfDay() }
            guard withinBounds(&c) == true else { return .never }

            guard advance(Self.next(c.month, in: months, through: Int.max),
                set: { f, month in if month != f.month { (f.month, f.day) = (month, 1); f.startOfDay() } },
                carry: { f in (f.year, f.month, f.day) = (f.year + 1, 1, 1); f.startOfDay() })
            else { continue }
            let length = CivilCalendar.daysInMonth(year: c.year, month: c.month)
            let monthDays = fromMonthEnd ? days.map { $0.map { Self.fromEnd($0, length: length) } } : days
            guard advance(Self.next(c.day, in: monthDays, through: Int.max),
                set: { f, day in if day != f.day { f.day = day; f.startOfDay() } },
                carry: { f in (f.month, f.day) = (f.month + 1, 1); f.startOfDay() })
            else { continue }
            let dayNumber = CivilCalendar.dayNumber(year: c.year, month: c.month, day: c.day)
            if let weekdays, weekdays & 1 << UInt8((Weekday(dayNumber: dayNumber).rawValue + 5) % 7) == 0 {
                c.day += 1; c.startOfDay(); continue
            }
            guard advance(Self.next(c.hour, in: hours, through: Int.max),
                set: { f, hour in if hour != f.hour { (f.hour, f.minute, f.second) = (hour, 0, 0) } },
                carry: { f in f.day += 1; f.startOfDay() })
            else { continue }
            guard advance(Self.next(c.minute, in: minutes, through: Int.max),
                set: { f, minute in if minute != f.minute { (f.minute, f.second) = (minute, 0) } },
                carry: { f in (f.hour, f.minute, f.second) = (f.hour + 1, 0, 0) })
            else { continue }
            guard advance(Self.next(c.second, in: seconds, through: Int.max),
                set: { f, second in f.second = second },
                carry: { f in (f.minute, f.second) = (f.minute + 1, 0) })
            else { continue }
            let local = c.localSeconds
            return .found(LocalDateTime(localSeconds: local), resolve(c))
        }
        return .gaveUp
    }

    /// Normalizes `c` through the zone: true when nothing moved, false when it moved forward (with the next finer
    /// field reset), nil when it moved back or past the year 2199.
    private func normalized(_ c: inout Fields, after: Instant, in zone: TimeZoneRules) -> Bool? {
        guard c.year <= Self.maximumYear else { return nil }
        let instant = resolveRepeated(c.localSeconds, after: after, in: zone)
        var t = Fields(localSeconds: instant.secondsSinceEpoch + Int64(zone.offset(at: instant)))
        let pairs = [(t.year, c.year), (t.month, c.month), (t.day, c.day), (t.hour, c.hour), (t.minute, c.minute), (t.second, c.second)]
        guard let changed = pairs.firstIndex(where: { $0.0 != $0.1 }) else { return true }
        guard pairs[changed].0 > pairs[changed].1 else { return nil }
        switch changed {
        case 0: t.month = 1
        case 1: t.day = 1
        case 2: t.hour = 0
        case 3: t.minute = 0
        case 4: t.second = 0
        default: break
        }
        t.offset = zone.offset(at: instant)
        c = t
        return false
    }

    /// The fields as glibc's mktime normalizes them at the top of systemd's loop: a time that exists, read with
    /// the offset it was last normalized with (so a summer offset carried to a winter day moves it an hour
    /// back); a time in a gap, shifted forward by the gap.
    private func normalizedWallClock(_ fields: Fields, after: Instant, in zone: TimeZoneRules) -> Int64 {
        let local = fields.localSeconds
        let resolved = resolveRepeated(local, after: after, in: zone)
        let exists = resolved.secondsSinceEpoch + Int64(zone.offset(at: resolved)) == local
        guard exists, let offset = fields.offset else { return resolved.secondsSinceEpoch + Int64(zone.offset(at: resolved)) }
        let instant = Instant(secondsSinceEpoch: local - Int64(offset))
        return instant.secondsSinceEpoch + Int64(zone.offset(at: instant))
    }

    /// The instant of a local time: a time a gap skips, shifted forward by the gap; a repeated time, at its
    /// first occurrence unless only its second is after `after` (a search that starts inside the second).
    private func resolveRepeated(_ local: Int64, after: Instant, in zone: TimeZoneRules) -> Instant {
        let first = zone.resolve(localSeconds: local)
        guard first <= after, let transition = zone.nextTransition(after: first) else { return first }
        let second = Instant(secondsSinceEpoch: local - Int64(zone.offset(at: transition)))
        let isSecondPass = second >= transition && second.secondsSinceEpoch + Int64(zone.offset(at: second)) == local
        return isSecondPass && second > after ? second : first
    }

    /// The smallest value at or after `value` that the items give, up to `limit` (nil items: any value).
    private static func next(_ value: Int, in items: [Item]?, through limit: Int) -> Int? {
        guard let items else { return value <= limit ? value : nil }
        var best: Int?
        for item in items {
            var candidate: Int?
            if item.start >= value {
                candidate = item.start
            } else if item.step > 0 {
                let k = item.start + item.step * ((value - item.start + item.step - 1) / item.step)
                if item.stop < 0 || k <= item.stop { candidate = k }
            }
            if let candidate, candidate <= limit, best.map({ candidate < $0 }) ?? true { best = candidate }
        }
        return best
    }

    /// A day counted from the month's end (`~03`) as a day of a month of `length` days.
    private static func fromEnd(_ item: Item, length: Int) -> Item {
        let start = length + 1 - item.start
        guard item.stop >= 0 else { return Item(start: start, stop: -1, step: item.step) }
        return Item(start: length + 1 - item.stop, stop: start, step: item.step)
    }
}
