/// The instances of a ``RecurrenceRule`` from a start, in order, as RFC 5545 §3.3.10 defines them:
///
/// - The start (DTSTART) is the first instance and counts for COUNT, whether or not it matches the rule
///   (RFC 5545: "The DTSTART property value always counts as the first occurrence"; python-dateutil leaves
///   out a start that does not match).
/// - The rule runs on the start's wall clock: each period (a year, month, week, day, hour, minute or second,
///   every INTERVAL of them from the start's) gives the local date-times its BY parts select (the RFC's
///   expand/limit table), BYSETPOS picks among them, and each is resolved in the zone with remindd's DST rule
///   (a time a gap skips fires shifted forward by the gap; a repeated time fires at its first occurrence).
/// - A date the rule names that does not exist is left out (the 30th of February), unless `SKIP` moves it.
/// - Parts the rule leaves out come from the start: the time of day, the weekday of a weekly rule, the day
///   of the month of a monthly one, the month and day of a yearly one.
///
/// Only the periods around an instant are expanded to find the next instance after it, unless the rule
/// has a COUNT (counted from the start).
public struct RecurrenceExpansion: Sequence, IteratorProtocol {
    /// An instance: its wall-clock time in the zone and the instant it fires.
    public struct Instance: Hashable, Sendable {
        public let local: LocalDateTime
        public let instant: Instant
    }

    private let rule: RecurrenceRule
    private let zone: TimeZoneRules
    /// The start's local time, in local seconds.
    private let start: Int64
    private let selector: Selector
    private var period: Int64 = 0
    private var buffer: [Int64] = []
    private var position = 0
    private var emitted = 0
    private var last: Int64 = .min
    private var startPending = true
    private var finished = false
    /// Local seconds from which the periods end the search: year 10000.
    private static let endOfCalendar = Int64(LocalDate(year: 9999, month: 12, day: 31)!.dayNumber + 1) * 86400
    /// 400 years, the Gregorian calendar's cycle: a rule that selects nothing in that long after an instance
    /// (times its INTERVAL, which can skip the years that match) selects nothing ever again.
    private static let cycle = Int64(146_097) * 86400

    init(rule: RecurrenceRule, start: LocalDateTime, zone: TimeZoneRules) {
        self.rule = rule
        self.zone = zone
        self.start = start.localSeconds
        selector = Selector(rule: rule, start: start)
    }

    /// Moves to the periods just before `instant` (a rule without COUNT only): instances from there on.
    mutating func skip(toNear instant: Instant) {
        guard rule.count == nil else { return }
        let local = instant.secondsSinceEpoch + Int64(zone.minimumOffset) - 2 * 86400
        guard local > start else { return }
        period = Swift.max(0, selector.period(containing: local) - 1)
        startPending = false
        last = start
        buffer = []
        position = 0
    }

    public mutating func next() -> Instance? {
        guard !finished else { return nil }
        if startPending {
            startPending = false
            return emit(start)
        }
        guard !selector.selectsNothing else { return end() }
        let giveUp = Swift.max(last, start) + Self.cycle * Int64(rule.frequency == .yearly ? rule.interval : 1)
        while true {
            if position < buffer.count {
                let local = buffer[position]
                position += 1
                if local <= last || local <= start { continue }
                return emit(local)
            }
            let begin = selector.periodStart(period)
            guard begin < Self.endOfCalendar, begin < giveUp, let (candidates, nextPeriod) = selector.candidates(period: period) else {
                finished = true
                return nil
            }
            buffer = candidates
            position = 0
            period = nextPeriod
        }
    }

    private mutating func emit(_ local: Int64) -> Instance? {
        let instant = zone.resolve(localSeconds: local)
        switch rule.until {
        case .date(let date)?: if local >= Int64(date.dayNumber + 1) * 86400 { return end() }
        case .local(let limit)?: if local > limit.localSeconds { return end() }
        case .utc(let limit)?: if instant > limit { return end() }
        case nil: break
        }
        if let count = rule.count, emitted >= count { return end() }
        emitted += 1
        last = local
        return Instance(local: LocalDateTime(localSeconds: local), instant: instant)
    }

    private mutating func end() -> Instance? {
        finished = true
        return nil
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

/// What a rule selects in each of its periods, as local seconds (days since 1970-01-01 x 86400 + seconds).
private struct Selector {
    let rule: RecurrenceRule
    let frequency: RecurrenceRule.Frequency
    let startDate: LocalDate
    let startSeconds: Int64
    let hours: [Int]
    let minutes: [Int]
    let seconds: [Int]
    let monthDays: [Int]
    let months: [Int]
    let byDay: [RecurrenceRule.WeekdayNumber]
    /// The length of a sub-daily period, in seconds (0 for daily and coarser).
    let step: Int64
    /// Whether the rule can select nothing at all (as python-dateutil finds it): BYSETPOS past the most a
    /// period can hold, or a sub-daily INTERVAL that never lands on the hours, minutes or seconds given.
    let selectsNothing: Bool

    init(rule: RecurrenceRule, start: LocalDateTime) {
        self.rule = rule
        frequency = rule.frequency
        startDate = start.date
        startSeconds = start.localSeconds
        // The parts the rule leaves out, from the start (RFC 5545 §3.3.10).
        seconds = rule.bySecond.isEmpty ? (rule.frequency > .secondly ? [start.time.second] : []) : rule.bySecond.filter { $0 < 60 }
        minutes = rule.byMinute.isEmpty && rule.frequency > .minutely ? [start.time.minute] : rule.byMinute
        hours = rule.byHour.isEmpty && rule.frequency > .hourly ? [start.time.hour] : rule.byHour
        var byDay = rule.byDay
        var monthDays = rule.byMonthDay
        var months = rule.byMonth
        let noDayPart = rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty
        switch rule.frequency {
        case .weekly where rule.byDay.isEmpty: byDay = [RecurrenceRule.WeekdayNumber(ordinal: 0, weekday: start.date.weekday)]
        case .monthly where rule.byDay.isEmpty && rule.byMonthDay.isEmpty: monthDays = [start.date.day]
        case .yearly where noDayPart:
            if months.isEmpty { months = [start.date.month] }
            monthDays = [start.date.day]
        default: break
        }
        self.byDay = byDay
        self.monthDays = monthDays
        self.months = months
        step = [.secondly: 1, .minutely: 60, .hourly: 3600][rule.frequency].map { Int64($0 * rule.interval) } ?? 0
        selectsNothing = Self.selectsNothing(
            rule: rule, start: start, hours: hours, minutes: minutes, seconds: seconds)
    }

    private static func selectsNothing(rule: RecurrenceRule, start: LocalDateTime, hours: [Int], minutes: [Int], seconds: [Int]) -> Bool {
        let frequency = rule.frequency
        if !rule.bySetPosition.isEmpty {
            let days = [.yearly: 366, .monthly: 31, .weekly: 7][frequency] ?? 1
            let times = (frequency > .hourly ? max(hours.count, 1) : 1) * (frequency > .minutely ? max(minutes.count, 1) : 1)
                * (frequency > .secondly ? max(seconds.count, 1) : 1)
            if rule.bySetPosition.allSatisfy({ abs($0) > days * times }) { return true }
        }
        // A sub-daily period lands on the hour (minute, second) of the day start + k x INTERVAL: only values
        // congruent to the start's modulo gcd(INTERVAL, units in a day) are ever reached. Finer parts expand.
        guard frequency < .daily else { return false }
        let unitsInDay = [.hourly: 24, .minutely: 1440, .secondly: 86400][frequency]!
        var a = rule.interval
        var b = unitsInDay
        while b != 0 { (a, b) = (b, a % b) }
        let time = start.time
        let own = [.hourly: time.hour, .minutely: time.hour * 60 + time.minute, .secondly: time.secondsSinceMidnight][frequency]!
        let hourList = hours.isEmpty ? Array(0..<24) : hours
        let minuteList = frequency == .hourly ? [0] : (minutes.isEmpty ? Array(0..<60) : minutes)
        let secondList = frequency == .secondly ? (seconds.isEmpty ? Array(0..<60) : seconds) : [0]
        let scale = [.hourly: 3600, .minutely: 60, .secondly: 1][frequency]!
        for hour in hourList {
            for minute in minuteList {
                for second in secondList where ((hour * 3600 + minute * 60 + second) / scale - own) % a == 0 { return false }
            }
        }
        return true
    }

    // MARK: Periods

    /// The day a week starts on (rule's WKST) for a day.
    func weekStart(of day: Int) -> Int {
        day - CivilCalendar.floorMod(Weekday(dayNumber: day).rawValue - rule.weekStart.rawValue, 7)
    }

    /// The index of the period that holds local time `local` (periods before the start's are negative).
    func period(containing local: Int64) -> Int64 {
        let day = Int(CivilCalendar.floorDiv(local, 86400))
        let date = LocalDate(dayNumber: day)
        let interval = Int64(rule.interval)
        switch frequency {
        case .yearly: return CivilCalendar.floorDiv(Int64(date.year - startDate.year), interval)
        case .monthly: return CivilCalendar.floorDiv(Int64((date.year - startDate.year) * 12 + date.month - startDate.month), interval)
        case .weekly: return CivilCalendar.floorDiv(Int64(weekStart(of: day) - weekStart(of: startDate.dayNumber)) / 7, interval)
        case .daily: return CivilCalendar.floorDiv(Int64(day - startDate.dayNumber), interval)
        default: return CivilCalendar.floorDiv(local - subDailyOrigin, step)
        }
    }

    /// Where a sub-daily period grid starts: the start, truncated to its hour or minute.
    private var subDailyOrigin: Int64 {
        switch frequency {
        case .hourly: startSeconds - CivilCalendar.floorMod(startSeconds, 3600)
        case .minutely: startSeconds - CivilCalendar.floorMod(startSeconds, 60)
        default: startSeconds
        }
    }

    /// Local seconds past every period (past the year 9999).
    static let beyond = Int64.max / 4

    /// The local seconds at which period `index` begins (``beyond`` past the year 9999).
    func periodStart(_ index: Int64) -> Int64 {
        guard index < 400_000_000 else { return Self.beyond }
        let n = Int(index) * rule.interval
        func firstOf(year: Int, month: Int) -> Int64 {
            guard year <= 9999, let date = LocalDate(year: year, month: month, day: 1) else { return Self.beyond }
            return Int64(date.dayNumber) * 86400
        }
        switch frequency {
        case .yearly: return firstOf(year: startDate.year + n, month: 1)
        case .monthly:
            let month = startDate.month - 1 + n
            return firstOf(year: startDate.year + CivilCalendar.floorDiv(month, 12), month: CivilCalendar.floorMod(month, 12) + 1)
        case .weekly: return Int64(weekStart(of: startDate.dayNumber) + n * 7) * 86400
        case .daily: return Int64(startDate.dayNumber + n) * 86400
        default: return subDailyOrigin + index * step
        }
    }

    /// The sorted local times period `index` selects (BYSETPOS applied), and the next period to look at (a
    /// sub-daily rule skips the rest of a day its day parts refuse). Nil past the calendar's end.
    func candidates(period index: Int64) -> ([Int64], Int64)? {
        let begin = periodStart(index)
        guard begin < Self.beyond else { return nil }
        var days: [Int]
        var next = index + 1
        switch frequency {
        case .yearly:
            let year = LocalDate(dayNumber: Int(begin / 86400)).year
            guard year <= 9999 else { return nil }
            days = Array(Int(begin / 86400)..<LocalDate(year: year + 1, month: 1, day: 1)!.dayNumber)
        case .monthly:
            let first = LocalDate(dayNumber: Int(begin / 86400))
            days = Array(first.dayNumber..<(first.dayNumber + CivilCalendar.daysInMonth(year: first.year, month: first.month)))
        case .weekly: days = Array(Int(begin / 86400)..<Int(begin / 86400) + 7)
        case .daily: days = [Int(begin / 86400)]
        default:
            let day = Int(CivilCalendar.floorDiv(begin, 86400))
            guard dayMatches(day) else {
                // Nothing on this day: on to the first period of the next.
                let nextDay = Int64(day + 1) * 86400
                next = Swift.max(index + 1, CivilCalendar.floorDiv(nextDay - subDailyOrigin + step - 1, step))
                return ([], next)
            }
            days = [day]
        }
        if frequency >= .daily {
            var selected = days.filter(dayMatches)
            if rule.skip != .omit { selected = Array(Set(selected + movedDays(in: days))).sorted() }
            days = selected
        }
        var times: [Int64] = []
        for day in days {
            for time in timesOfDay(periodBegin: begin) { times.append(Int64(day) * 86400 + Int64(time)) }
        }
        times.sort()
        if !rule.bySetPosition.isEmpty {
            let count = times.count
            times = Array(Set(rule.bySetPosition.compactMap { position -> Int64? in
                let index = position > 0 ? position - 1 : count + position
                return times.indices.contains(index) ? times[index] : nil
            })).sorted()
        }
        return (times, next)
    }

    /// The times of day (seconds since midnight) a period selects: the BY lists (with the start's parts), the
    /// period's own hour, minute or second for a sub-daily rule, limited by the lists that are given.
    private func timesOfDay(periodBegin: Int64) -> [Int] {
        let inDay = Int(CivilCalendar.floorMod(periodBegin, 86400))
        func field(_ list: [Int], own: Int, free: Bool) -> [Int] {
            guard free else { return list }
            return list.isEmpty || list.contains(own) ? [own] : []
        }
        let hourList = field(hours, own: inDay / 3600, free: frequency <= .hourly)
        let minuteList = field(minutes, own: inDay / 60 % 60, free: frequency <= .minutely)
        let secondList = field(seconds, own: inDay % 60, free: frequency == .secondly)
        var result: [Int] = []
        for hour in hourList {
            for minute in minuteList {
                for second in secondList { result.append(hour * 3600 + minute * 60 + second) }
            }
        }
        return result.sorted()
    }

    // MARK: Days

    /// Whether a day passes the rule's day parts (BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY).
    func dayMatches(_ day: Int) -> Bool {
        let date = LocalDate(dayNumber: day)
        if !months.isEmpty && !months.contains(date.month) { return false }
        if !rule.byWeekNumber.isEmpty && !weekNumberMatches(day) { return false }
        if !rule.byYearDay.isEmpty {
            let yearDay = day - LocalDate(year: date.year, month: 1, day: 1)!.dayNumber + 1
            let length = CivilCalendar.isLeapYear(date.year) ? 366 : 365
            if !rule.byYearDay.contains(yearDay) && !rule.byYearDay.contains(yearDay - length - 1) { return false }
        }
        if !monthDays.isEmpty {
            let length = CivilCalendar.daysInMonth(year: date.year, month: date.month)
            if !monthDays.contains(date.day) && !monthDays.contains(date.day - length - 1) { return false }
        }
        if !byDay.isEmpty && !byDay.contains(where: { weekdayMatches($0, date: date) }) { return false }
        return true
    }

    /// BYDAY: the weekday, and for an ordinal the nth such weekday of the month (a monthly rule, or a yearly
    /// one with BYMONTH) or of the year.
    private func weekdayMatches(_ entry: RecurrenceRule.WeekdayNumber, date: LocalDate) -> Bool {
        guard date.weekday == entry.weekday else { return false }
        guard entry.ordinal != 0 else { return true }
        let inMonth = frequency == .monthly || (frequency == .yearly && !months.isEmpty)
        let first = inMonth ? LocalDate(year: date.year, month: date.month, day: 1)!.dayNumber : LocalDate(year: date.year, month: 1, day: 1)!.dayNumber
        let length = inMonth ? CivilCalendar.daysInMonth(year: date.year, month: date.month) : (CivilCalendar.isLeapYear(date.year) ? 366 : 365)
        let offset = date.dayNumber - first
        return entry.ordinal > 0 ? offset / 7 + 1 == entry.ordinal : (length - 1 - offset) / 7 + 1 == -entry.ordinal
    }

    /// BYWEEKNO: the week of the year (weeks start on WKST; week 1 is the first with at least 4 days of the
    /// year), counted in the year the week belongs to, so that 29 December may be in week 1 of the next.
    private func weekNumberMatches(_ day: Int) -> Bool {
        let (number, weeks) = weekNumber(of: day)
        return rule.byWeekNumber.contains(number) || rule.byWeekNumber.contains(number - weeks - 1)
    }

    private func weekNumber(of day: Int) -> (number: Int, weeksInYear: Int) {
        func firstWeekStart(_ year: Int) -> Int {
            let january4 = LocalDate(year: year, month: 1, day: 4)!.dayNumber
            return weekStart(of: january4)
        }
        let year = LocalDate(dayNumber: day).year
        var weekYear = year
        if day >= firstWeekStart(year + 1) { weekYear = year + 1 } else if day < firstWeekStart(year) { weekYear = year - 1 }
        let start = firstWeekStart(weekYear)
        return ((day - start) / 7 + 1, (firstWeekStart(weekYear + 1) - start) / 7)
    }

    /// RFC 7529's SKIP: the days BYMONTHDAY names that a month of the period lacks, moved back to its last day
    /// or on to the first of the next, where the other day parts allow them.
    private func movedDays(in days: [Int]) -> [Int] {
        guard let firstDay = days.first, let lastDay = days.last else { return [] }
        var moved: [Int] = []
        var month = LocalDate(dayNumber: firstDay)
        while month.dayNumber <= lastDay {
            let length = CivilCalendar.daysInMonth(year: month.year, month: month.month)
            if months.isEmpty || months.contains(month.month), monthDays.contains(where: { $0 > length || -$0 > length }) {
                let target = rule.skip == .backward ? month.dayNumber + length - 1 : month.dayNumber + length
                let date = LocalDate(dayNumber: target)
                if byDay.isEmpty || byDay.contains(where: { weekdayMatches($0, date: date) }) { moved.append(target) }
            }
            month = LocalDate(dayNumber: month.dayNumber + length)
        }
        return moved
    }
}

/// A component's recurrence (RFC 5545 §3.8.5): its start, a rule, RDATEs and EXDATEs, on the wall clock of
/// one zone. The start is the first instance; an EXDATE removes the instance at that wall-clock time.
public struct RecurrenceSet: Hashable, Sendable {
    public var start: LocalDateTime
    public var rule: RecurrenceRule?
    public var dates: [LocalDateTime]
    public var exceptions: Set<LocalDateTime>
    /// When, relative to each instance, the reminder fires (a calendar event's VALARM trigger).
    public var alarm: AlarmOffset

    public init(
        start: LocalDateTime, rule: RecurrenceRule?, dates: [LocalDateTime] = [], exceptions: Set<LocalDateTime> = [], alarm: AlarmOffset = .zero
    ) {
        self.start = start
        self.rule = rule
        self.dates = dates.sorted()
        self.exceptions = exceptions
        self.alarm = alarm
    }

    /// The first alarm strictly after `after`: an instance's, shifted by ``alarm``, with its local time.
    public func nextAlarm(after: Instant, in zone: TimeZoneRules) -> (local: LocalDateTime, instant: Instant)? {
        guard alarm != .zero else { return nextInstance(after: after, in: zone).map { ($0.local, $0.instant) } }
        // An instance whose alarm falls after `after` lies at most the shift (and a DST change) before it.
        let reach = Int64(abs(alarm.days)) * 86400 + Int64(abs(alarm.seconds)) + 7200
        var cursor = after.adding(seconds: -reach)
        while let instance = nextInstance(after: cursor, in: zone) {
            let fires = alarm.instant(for: instance.local, in: zone)
            if fires > after { return (zone.localDateTime(at: fires), fires) }
            cursor = instance.instant
        }
        return nil
    }

    /// The first instance strictly after `after`, or nil when none is left.
    public func nextInstance(after: Instant, in zone: TimeZoneRules) -> RecurrenceExpansion.Instance? {
        var fromRule: RecurrenceExpansion.Instance?
        var from = after
        if let rule {
            // An instance an EXDATE removes: the one after it (at most 1,000 removed in a row are stepped over).
            for _ in 0..<1000 {
                guard let instance = rule.nextInstance(after: from, from: start, in: zone) else { break }
                if !exceptions.contains(instance.local) {
                    fromRule = instance
                    break
                }
                from = instance.instant
            }
        } else if !exceptions.contains(start), zone.resolve(start) > after {
            fromRule = RecurrenceExpansion.Instance(local: start, instant: zone.resolve(start))
        }
        let fromDates = dates.lazy.filter { !self.exceptions.contains($0) }
            .map { RecurrenceExpansion.Instance(local: $0, instant: zone.resolve($0)) }
            .filter { $0.instant > after }
            .min { $0.instant < $1.instant }
        switch (fromRule, fromDates) {
        case (let a?, let b?): return b.instant < a.instant ? b : a
        case (let a, let b): return a ?? b
        }
    }

    /// Up to `count` instances after `after`, in order.
    public func instances(after: Instant, count: Int, in zone: TimeZoneRules) -> [RecurrenceExpansion.Instance] {
        var result: [RecurrenceExpansion.Instance] = []
        var from = after
        while result.count < count, let next = nextInstance(after: from, in: zone) {
            result.append(next)
            from = next.instant
        }
        return result
    }
}
