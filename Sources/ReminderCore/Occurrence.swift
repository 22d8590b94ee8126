/// One firing of a rule: the instant, the local date it was scheduled for, and which slot it is.
public struct Occurrence: Hashable, Sendable {
    /// When it fires.
    public let instant: Instant
    /// The local date whose slot this is (for a time shifted out of a DST gap, the date it was meant for).
    public let scheduledDate: LocalDate
    /// The rule's wall-clock time for this slot (before any DST shift).
    public let scheduledTime: TimeOfDay
    /// The UTC offset at `instant`.
    public let offsetSeconds: Int
    /// The rule's day selector, which names the slot.
    let days: DaySelector

    /// The part of the slot id after `reminder-{id}-`, e.g. `w2-09-00`; stable while the rule is unchanged.
    public var slotSuffix: String { days.slotPrefix(for: scheduledDate) + Self.slotTime(scheduledTime) }

    /// The slot id for a reminder: `reminder-{id}-{suffix}`.
    public func slotID(reminderID: String) -> String { "reminder-\(reminderID)-\(slotSuffix)" }

    /// The local wall-clock time at which it fires (differs from the scheduled time in a DST gap).
    public var localDateTime: LocalDateTime {
        LocalDateTime(localSeconds: instant.secondsSinceEpoch + Int64(offsetSeconds))
    }

    /// ISO 8601 local time with offset: `2024-03-10T03:30:00-04:00`.
    public var localISO8601: String { ISO8601.format(instant, offsetSeconds: offsetSeconds, zulu: false) }

    /// `08-00`, or `08-00-30` with seconds.
    static func slotTime(_ time: TimeOfDay) -> String {
        var text = ISO8601.pad(time.hour, 2) + "-" + ISO8601.pad(time.minute, 2)
        if time.second != 0 { text += "-" + ISO8601.pad(time.second, 2) }
        return text
    }
}

extension ReminderRule {
    /// The first firing strictly after `after`, or nil when the rule has no more firings.
    ///
    /// Exact for every zone: each selected day's times are resolved through the zone's rules, and since a
    /// DST shift can reorder times (02:30 shifted to 03:30 fires after 03:00), the earliest instant over
    /// the candidate days wins. Identical instants (two slots shifted or clamped together) fire once,
    /// as the first slot.
    public func nextOccurrence(after: Instant, in zone: TimeZoneRules) -> Occurrence? {
        switch days {
        case .recurrence(let set): return nextInstance(after: after, in: zone) { set.nextAlarm(after: $0, in: zone) }
        case .calendar(let expression): return nextInstance(after: after, in: zone) { expression.next(after: $0, in: zone) }
        default: break
        }
        guard let first = times.first, let last = times.last else { return nil }
        let after64 = after.secondsSinceEpoch
        let maxOffset = Int64(zone.maximumOffset)
        let minOffset = Int64(zone.minimumOffset)
        let startInstant = start.map { zone.resolve($0) }
        let untilDay = until?.dayNumber ?? Int.max
        // Every time on a day resolves to at most midnight + last - minOffset, and to at least
        // midnight + first - maxOffset: these bounds skip days wholly in the past and stop the scan.
        func isPast(_ day: Int) -> Bool { Int64(day) * 86400 + Int64(last.secondsSinceMidnight) - minOffset <= after64 }
        func isBeyond(_ day: Int, _ best: Int64) -> Bool { Int64(day) * 86400 + Int64(first.secondsSinceMidnight) - maxOffset > best }

        // Start a day early: a slot of the previous date may be shifted past midnight by a gap.
        var from = zone.localDayNumber(at: after) - 1
        if isPast(from) { from += 1 }
        if let start { from = max(from, start.date.dayNumber) }

        var bestInstant = Int64.max
        var bestDay = 0
        var bestTimeIndex = 0
        while !isBeyond(from, bestInstant), let day = days.nextDay(onOrAfter: from, anchor: start?.date), day <= untilDay {
            if isBeyond(day, bestInstant) { break }
            if !isPast(day) && !isSkipped(dayNumber: day) {
                let midnight = Int64(day) * 86400
                for (index, time) in times.enumerated() {
                    let local = midnight + Int64(time.secondsSinceMidnight)
                    let instant = zone.resolve(localSeconds: local).secondsSinceEpoch
                    guard instant > after64, instant >= (startInstant?.secondsSinceEpoch ?? .min) else { continue }
                    // On a tie, the slot that was not shifted out of a gap names the firing (Apia's lost
                    // 30 December and 31 December both land on the 31st: it is the 31st's firing).
                    let isBetter = instant < bestInstant
                        || (instant == bestInstant
                            && local - instant == Int64(zone.offset(at: Instant(secondsSinceEpoch: instant))))
                    if isBetter {
                        bestInstant = instant
                        bestDay = day
                        bestTimeIndex = index
                    }
                }
            }
            from = day + 1
        }
        guard bestInstant != .max else { return nil }
        return makeOccurrence(instant: Instant(secondsSinceEpoch: bestInstant), day: bestDay, timeIndex: bestTimeIndex, zone: zone)
    }

    /// The next `count` firings after `after`, in time order.
    public func occurrences(after: Instant, count: Int, in zone: TimeZoneRules) -> [Occurrence] {
        var result: [Occurrence] = []
        result.reserveCapacity(min(count, 1 << 16))
        var cursor = after
        while result.count < count, let next = nextOccurrence(after: cursor, in: zone) {
            result.append(next)
            cursor = next.instant
        }
        return result
    }

    /// All firings whose instant falls on local date `date` (as seen in `zone`), in time order.
    public func occurrences(on date: LocalDate, in zone: TimeZoneRules) -> [Occurrence] {
        let day = date.dayNumber
        // Start a day early: a slot of the previous date may be shifted into this one.
        var cursor = zone.resolve(localSeconds: Int64(day - 1) * 86400)
        var result: [Occurrence] = []
        while let next = nextOccurrence(after: cursor, in: zone) {
            let localDay = zone.localDayNumber(at: next.instant)
            if localDay > day { break }
            if localDay == day { result.append(next) }
            cursor = next.instant
        }
        return result
    }

    /// The next instance of an RFC 5545 recurrence or a calendar expression (`next`) that is not on a skipped
    /// day, within `until`.
    private func nextInstance(
        after: Instant, in zone: TimeZoneRules, _ next: (Instant) -> (local: LocalDateTime, instant: Instant)?
    ) -> Occurrence? {
        var cursor = after
        while let instance = next(cursor) {
            let day = instance.local.date.dayNumber
            if let until, day > until.dayNumber { return nil }
            if !isSkipped(dayNumber: day) {
                return Occurrence(
                    instant: instance.instant, scheduledDate: instance.local.date, scheduledTime: instance.local.time,
                    offsetSeconds: zone.offset(at: instance.instant), days: days)
            }
            // On to the next day at once: a skipped day of a SECONDLY rule holds 86,400 instances.
            let nextMidnight = zone.resolve(localSeconds: Int64(day + 1) * 86400).adding(seconds: -1)
            cursor = max(instance.instant, nextMidnight)
        }
        return nil
    }

    private func isSkipped(dayNumber: Int) -> Bool {
        guard !skippedDayNumbers.isEmpty else { return false }
        var low = 0
        var high = skippedDayNumbers.count
        while low < high {
            let mid = (low + high) / 2
            if skippedDayNumbers[mid] < dayNumber { low = mid + 1 } else { high = mid }
        }
        return low < skippedDayNumbers.count && skippedDayNumbers[low] == dayNumber
    }

    private func makeOccurrence(instant: Instant, day: Int, timeIndex: Int, zone: TimeZoneRules) -> Occurrence {
        Occurrence(
            instant: instant, scheduledDate: LocalDate(dayNumber: day), scheduledTime: times[timeIndex],
            offsetSeconds: zone.offset(at: instant), days: days)
    }
}

extension DaySelector {
    /// The first selected day number at or after `day`, or nil when none remains.
    /// `anchor` is the rule's start date, which `every` rules count from.
    @usableFromInline
    func nextDay(onOrAfter day: Int, anchor: LocalDate?) -> Int? {
        switch self {
        case .daily:
            return day
        case .weekly(let set):
            return Self.nextWeekday(in: set, onOrAfter: day)
        case .monthly(let set):
            var (year, month, dayOfMonth) = CivilCalendar.civil(fromDayNumber: day)
            while true {
                let length = CivilCalendar.daysInMonth(year: year, month: month)
                let candidates = (set.effectiveMask(monthLength: length) >> UInt32(dayOfMonth)) << UInt32(dayOfMonth)
                if candidates != 0 {
                    return CivilCalendar.dayNumber(year: year, month: month, day: candidates.trailingZeroBitCount)
                }
                (year, month, dayOfMonth) = month == 12 ? (year + 1, 1, 1) : (year, month + 1, 1)
            }
        case .nthWeekday(let ordinal, let weekday):
            var (year, month, _) = CivilCalendar.civil(fromDayNumber: day)
            // A 5th weekday is missing in most months, but never in 12 months in a row.
            for _ in 0..<14 {
                if let candidate = Self.nthWeekday(ordinal, weekday, year: year, month: month), candidate >= day {
                    return candidate
                }
                (year, month) = month == 12 ? (year + 1, 1) : (year, month + 1)
            }
            return nil
        case .yearly(let month, let dayOfMonth):
            var year = CivilCalendar.civil(fromDayNumber: day).year
            while true {
                let clamped = min(dayOfMonth, CivilCalendar.daysInMonth(year: year, month: month))
                let candidate = CivilCalendar.dayNumber(year: year, month: month, day: clamped)
                if candidate >= day { return candidate }
                year += 1
            }
        case .everyDays(let interval):
            let origin = anchor?.dayNumber ?? 0
            if day <= origin { return origin }
            return origin + (day - origin + interval - 1) / interval * interval
        case .everyWeeks(let interval, let set):
            return Self.nextDay(everyWeeks: interval, on: set, onOrAfter: day, anchor: anchor)
        case .once(let date):
            let target = date.dayNumber
            return target >= day ? target : nil
        case .recurrence, .calendar:
            return nil  // their instances come with their times (see ReminderRule.nextOccurrence)
        case .asNeeded:
            return nil  // no days
        }
    }

    /// The first day at or after `day` of `set`'s weekdays in every `interval`-th week from `anchor`'s.
    private static func nextDay(everyWeeks interval: Int, on set: WeekdaySet, onOrAfter day: Int, anchor: LocalDate?) -> Int {
        let originMonday = monday(of: anchor?.dayNumber ?? 0)
        var candidate = max(day, anchor?.dayNumber ?? day)
        while true {
            let week = (monday(of: candidate) - originMonday) / 7
            let offWeeks = CivilCalendar.floorMod(week, interval)
            if offWeeks != 0 {
                candidate = monday(of: candidate) + (interval - offWeeks) * 7
                continue
            }
            let next = nextWeekday(in: set, onOrAfter: candidate)
            if monday(of: next) == monday(of: candidate) { return next }
            candidate = monday(of: candidate) + interval * 7
        }
    }

    /// The slot-id part that names the day: empty for daily, `w2-`, `d31-`, `dlast-`, `m2sun-`, `y0229-`, `e3d-`, `e2w-w1-`, `once-20261224-`, `r20261224-`, `c20261224-`.
    func slotPrefix(for date: LocalDate) -> String {
        switch self {
        case .daily:
            return ""
        case .weekly:
            return "w\(date.weekday.rawValue)-"
        case .monthly(let set):
            let length = CivilCalendar.daysInMonth(year: date.year, month: date.month)
            let source = set.sourceDay(effectiveDay: date.day, monthLength: length)
            return source == 0 ? "dlast-" : "d\(source)-"
        case .nthWeekday(let ordinal, let weekday):
            return "m\(ordinal == -1 ? "last" : String(ordinal))\(weekday.shortName)-"
        case .yearly(let month, let day):
            return "y" + ISO8601.pad(month, 2) + ISO8601.pad(day, 2) + "-"
        case .everyDays(let interval):
            return "e\(interval)d-"
        case .everyWeeks(let interval, _):
            return "e\(interval)w-w\(date.weekday.rawValue)-"
        case .once(let date):
            return "once-" + ISO8601.pad(date.year, 4) + ISO8601.pad(date.month, 2) + ISO8601.pad(date.day, 2) + "-"
        case .recurrence:
            return "r" + ISO8601.pad(date.year, 4) + ISO8601.pad(date.month, 2) + ISO8601.pad(date.day, 2) + "-"
        case .calendar:
            return "c" + ISO8601.pad(date.year, 4) + ISO8601.pad(date.month, 2) + ISO8601.pad(date.day, 2) + "-"
        case .asNeeded:
            return "n-"  // never asked for: it has no occurrences
        }
    }

    private static func nextWeekday(in set: WeekdaySet, onOrAfter day: Int) -> Int {
        let today = UInt32(Weekday(dayNumber: day).rawValue)  // 1...7
        let mask = UInt32(set.mask)
        // Bits 1...7 this week, then the same bits shifted by 7 for next week.
        let doubled = ((mask | mask << 7) >> today) << today
        return day + doubled.trailingZeroBitCount - Int(today)
    }

    private static func monday(of day: Int) -> Int {
        day - CivilCalendar.floorMod(day - 4, 7)  // day 4 (1970-01-05) was a Monday
    }

    private static func nthWeekday(_ ordinal: Int, _ weekday: Weekday, year: Int, month: Int) -> Int? {
        let length = CivilCalendar.daysInMonth(year: year, month: month)
        if ordinal == -1 {
            let last = CivilCalendar.dayNumber(year: year, month: month, day: length)
            return last - CivilCalendar.floorMod(Weekday(dayNumber: last).rawValue - weekday.rawValue, 7)
        }
        let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
        let candidate = first + CivilCalendar.floorMod(weekday.rawValue - Weekday(dayNumber: first).rawValue, 7) + (ordinal - 1) * 7
        return candidate < first + length ? candidate : nil
    }
}
