import Synchronization

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
    /// How long the rule's pattern takes to repeat: the Gregorian calendar's 400 years times what its INTERVAL
    /// adds (an 18-day step meets the same days again only after 800 years). A rule that selects nothing in that
    /// long after an instance selects nothing ever again.
    private let cycle: Int64

    init(rule: RecurrenceRule, start: LocalDateTime, zone: TimeZoneRules) {
        self.rule = rule
        self.zone = zone
        self.start = start.localSeconds
        selector = Selector(rule: rule, start: start)
        cycle = Self.cycle(of: rule)
    }

    /// 400 Gregorian years, in the rule's own units, times the part of INTERVAL they do not absorb.
    private static func cycle(of rule: RecurrenceRule) -> Int64 {
        let days = Int64(146_097)
        let units: Int64
        switch rule.frequency {
        case .yearly: units = 400
        case .monthly: units = 4800
        case .weekly: units = days / 7
        case .daily: units = days
        case .hourly: units = days * 24
        case .minutely: units = days * 1440
        case .secondly: units = days * 86400
        }
        var (a, b) = (units, Int64(rule.interval))
        while b != 0 { (a, b) = (b, a % b) }
        // Past the year 10000 anyway when it overflows.
        let (seconds, overflow) = (days * 86400).multipliedReportingOverflow(by: Int64(rule.interval) / a)
        return overflow ? Int64.max / 4 : seconds
    }

    /// Moves to the periods just before `instant` (a rule without COUNT only): instances from there on.
    mutating func skip(toNear instant: Instant) {
        guard rule.count == nil else { return }
        // An instance after `instant` is planned at a local time of at least `instant` + the zone's smallest
        // offset (a time shifted out of a gap is planned earlier than it fires, never later).
        let local = instant.secondsSinceEpoch + Int64(zone.minimumOffset) - 3600
        guard local > start else { return }
        period = Swift.max(0, selector.period(containing: local) - 1)
        startPending = false
        // Instances from here on; the search gives up a cycle after here, not after the start (an instant 400
        // years past the start found nothing before).
        last = local
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
        let giveUp = Swift.max(last, start) + cycle
        while true {
            if position < buffer.count {
                let local = buffer[position]
                position += 1
                if local <= last || local <= start { continue }
                return emit(local)
            }
            let begin = selector.periodStart(period)
            guard begin < Self.endOfCalendar, begin < giveUp, let nextPeriod = selector.fill(&buffer, period: period) else {
                finished = true
                return nil
            }
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
    /// Whether the rule itself names `start`: RFC 5545 makes DTSTART the first instance either way, which
    /// surprises (a "last weekday of the month" rule started on the 1st fires on the 1st), so remindctl says so.
    public func selects(start: LocalDateTime) -> Bool {
        let selector = Selector(rule: self, start: start)
        guard !selector.selectsNothing else { return false }
        var times: [Int64] = []
        let period = selector.period(containing: start.localSeconds)
        return selector.fill(&times, period: period) != nil && times.contains(start.localSeconds)
    }
}

/// What a rule selects in each of its periods, as local seconds (days since 1970-01-01 x 86400 + seconds).
///
/// The BY parts are bit sets, and a period's times are written into a buffer the expansion keeps: finding the
/// next instance allocates nothing in the common rules (the scheduler asks at every firing).
private struct Selector {
    let rule: RecurrenceRule
    let frequency: RecurrenceRule.Frequency
    let startDate: LocalDate
    let startSeconds: Int64
    /// BYHOUR, BYMINUTE, BYSECOND (bit n: the value n). A part the rule leaves out is the start's when the
    /// rule is coarser than it, else empty (a sub-daily period's own value).
    let hours: UInt32
    let minutes: UInt64
    let seconds: UInt64
    /// BYMONTHDAY (with the start's day for a monthly or yearly rule that has no day part): bit n is day n
    /// counted from the start of the month, or from its end (-n).
    let monthDays: UInt32
    let monthDaysFromEnd: UInt32
    /// BYMONTH (bit n: month n; 0: any month).
    let months: UInt16
    /// BYDAY without a number (bit n: `Weekday` raw value n), and those with one.
    let weekdays: UInt8
    let numberedWeekdays: [RecurrenceRule.WeekdayNumber]
    /// The length of a sub-daily period, in seconds (0 for daily and coarser).
    let step: Int64
    /// Whether the rule can select nothing at all (as python-dateutil finds it): BYSETPOS past the most a
    /// period can hold, or a sub-daily INTERVAL that never lands on the hours, minutes or seconds given.
    let selectsNothing: Bool

    init(rule: RecurrenceRule, start: LocalDateTime) {
        // Built at each next-instance call: bit sets from loops, no arrays unless the rule has numbered weekdays.
        self.rule = rule
        frequency = rule.frequency
        startDate = start.date
        startSeconds = start.localSeconds
        // The parts the rule leaves out, from the start (RFC 5545 §3.3.10).
        seconds = rule.bySecond.isEmpty ? (rule.frequency > .secondly ? 1 << UInt64(start.time.second) : 0) : Self.bits(rule.bySecond.lazy.filter { $0 < 60 })
        minutes = rule.byMinute.isEmpty && rule.frequency > .minutely ? 1 << UInt64(start.time.minute) : Self.bits(rule.byMinute)
        hours = rule.byHour.isEmpty && rule.frequency > .hourly ? 1 << UInt32(start.time.hour) : Self.bits(rule.byHour)
        var weekdays: UInt8 = 0
        var numbered: [RecurrenceRule.WeekdayNumber] = []
        for entry in rule.byDay {
            if entry.ordinal == 0 { weekdays |= 1 << UInt8(entry.weekday.rawValue) } else { numbered.append(entry) }
        }
        var monthDays: UInt32 = 0
        var monthDaysFromEnd: UInt32 = 0
        for day in rule.byMonthDay {
            if day > 0 { monthDays |= 1 << UInt32(day) } else { monthDaysFromEnd |= 1 << UInt32(-day) }
        }
        var months: UInt16 = Self.bits(rule.byMonth)
        let noDayPart = rule.byDay.isEmpty && rule.byMonthDay.isEmpty && rule.byYearDay.isEmpty && rule.byWeekNumber.isEmpty
        switch rule.frequency {
        case .weekly where rule.byDay.isEmpty: weekdays = 1 << UInt8(start.date.weekday.rawValue)
        case .monthly where rule.byDay.isEmpty && rule.byMonthDay.isEmpty: monthDays = 1 << UInt32(start.date.day)
        case .yearly where noDayPart:
            if months == 0 { months = 1 << UInt16(start.date.month) }
            monthDays = 1 << UInt32(start.date.day)
        default: break
        }
        (self.weekdays, numberedWeekdays, self.monthDays, self.monthDaysFromEnd, self.months) = (weekdays, numbered, monthDays, monthDaysFromEnd, months)
        switch rule.frequency {
        case .secondly: step = Int64(rule.interval)
        case .minutely: step = Int64(rule.interval) * 60
        case .hourly: step = Int64(rule.interval) * 3600
        default: step = 0
        }
        if rule.bySetPosition.isEmpty && rule.frequency >= .daily {
            selectsNothing = false
        } else {
            selectsNothing = Self.selectsNothing(
                rule: rule, start: start, hours: Self.values(hours), minutes: Self.values(minutes), seconds: Self.values(seconds))
        }
    }

    private static func bits<T: FixedWidthInteger>(_ values: some Sequence<Int>) -> T {
        values.reduce(T.zero) { $0 | T(1) << T($1) }
    }

    private static func values<T: FixedWidthInteger>(_ bits: T) -> [Int] {
        (0..<T.bitWidth).filter { bits & T(1) << T($0) != 0 }
    }

    private static func has<T: FixedWidthInteger>(_ bits: T, _ value: Int) -> Bool {
        value >= 0 && value < T.bitWidth && bits & T(1) << T(value) != 0
    }

    private static func selectsNothing(rule: RecurrenceRule, start: LocalDateTime, hours: [Int], minutes: [Int], seconds: [Int]) -> Bool {
        let frequency = rule.frequency
        if !rule.bySetPosition.isEmpty {
            let days = frequency == .yearly ? 366 : frequency == .monthly ? 31 : frequency == .weekly ? 7 : 1
            let times = (frequency > .hourly ? max(hours.count, 1) : 1) * (frequency > .minutely ? max(minutes.count, 1) : 1)
                * (frequency > .secondly ? max(seconds.count, 1) : 1)
            if rule.bySetPosition.allSatisfy({ abs($0) > days * times }) { return true }
        }
        // A sub-daily period lands on the hour (minute, second) of the day start + k x INTERVAL: only values
        // congruent to the start's modulo gcd(INTERVAL, units in a day) are ever reached. Finer parts expand.
        guard frequency < .daily else { return false }
        let unitsInDay = frequency == .hourly ? 24 : frequency == .minutely ? 1440 : 86400
        var a = rule.interval
        var b = unitsInDay
        while b != 0 { (a, b) = (b, a % b) }
        let time = start.time
        let own = frequency == .hourly ? time.hour : frequency == .minutely ? time.hour * 60 + time.minute : time.secondsSinceMidnight
        let hourList = hours.isEmpty ? Array(0..<24) : hours
        let minuteList = frequency == .hourly ? [0] : (minutes.isEmpty ? Array(0..<60) : minutes)
        let secondList = frequency == .secondly ? (seconds.isEmpty ? Array(0..<60) : seconds) : [0]
        let scale = frequency == .hourly ? 3600 : frequency == .minutely ? 60 : 1
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
            guard year <= 9999, (1...12).contains(month) else { return Self.beyond }
            return Int64(CivilCalendar.dayNumber(year: year, month: month, day: 1)) * 86400
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

    /// Writes into `times` the sorted local times period `index` selects (BYSETPOS applied), and returns the
    /// next period to look at (a sub-daily rule skips the rest of a day its day parts refuse); nil past the
    /// calendar's end.
    func fill(_ times: inout [Int64], period index: Int64) -> Int64? {
        let begin = periodStart(index)
        guard begin < Self.beyond else { return nil }
        times.removeAll(keepingCapacity: true)
        let firstDay = Int(CivilCalendar.floorDiv(begin, 86400))
        let (year, month, _) = CivilCalendar.civil(fromDayNumber: firstDay)
        switch frequency {
        case .yearly:
            guard year <= 9999 else { return nil }
            if !rule.byWeekNumber.isEmpty || !rule.byYearDay.isEmpty {
                for day in daysNamedInYear(year) { appendIfMatching(day, &times, periodBegin: begin) }
            } else {
                for month in 1...12 where months == 0 || Self.has(months, month) { appendMonth(year: year, month: month, &times, periodBegin: begin) }
            }
        case .monthly: appendMonth(year: year, month: month, &times, periodBegin: begin)
        case .weekly: for day in firstDay..<firstDay + 7 { appendIfMatching(day, &times, periodBegin: begin) }
        case .daily: appendIfMatching(firstDay, &times, periodBegin: begin)
        default:
            guard matches(firstDay) else {
                // Nothing on this day: on to the first period of the next.
                let nextDay = Int64(firstDay + 1) * 86400
                return Swift.max(index + 1, CivilCalendar.floorDiv(nextDay - subDailyOrigin + step - 1, step))
            }
            appendTimes(of: firstDay, &times, periodBegin: begin)
        }
        if rule.skip != .omit && frequency >= .monthly {
            let lastDay = frequency == .yearly ? CivilCalendar.dayNumber(year: year + 1, month: 1, day: 1) : firstDay + CivilCalendar.daysInMonth(year: year, month: month)
            for day in movedDays(from: firstDay, through: lastDay - 1) { appendTimes(of: day, &times, periodBegin: begin) }
            times = Array(Set(times)).sorted()
        }
        if !rule.bySetPosition.isEmpty {
            let count = times.count
            let chosen = Set(rule.bySetPosition.compactMap { position -> Int64? in
                let index = position > 0 ? position - 1 : count + position
                return times.indices.contains(index) ? times[index] : nil
            })
            times = chosen.sorted()
        }
        return index + 1
    }

    private func appendMonth(year: Int, month: Int, _ times: inout [Int64], periodBegin: Int64) {
        let first = CivilCalendar.dayNumber(year: year, month: month, day: 1)
        for day in first..<first + CivilCalendar.daysInMonth(year: year, month: month) { appendIfMatching(day, &times, periodBegin: periodBegin) }
    }

    private func appendIfMatching(_ day: Int, _ times: inout [Int64], periodBegin: Int64) {
        if matches(day) { appendTimes(of: day, &times, periodBegin: periodBegin) }
    }

    /// Appends a day's times (ascending): the BY lists (with the start's parts), the period's own hour, minute
    /// or second for a sub-daily rule, limited by the lists that are given.
    private func appendTimes(of day: Int, _ times: inout [Int64], periodBegin: Int64) {
        let inDay = Int(CivilCalendar.floorMod(periodBegin, 86400))
        func field<T: FixedWidthInteger>(_ set: T, own: Int, free: Bool) -> T {
            guard free else { return set }
            return set == 0 || Self.has(set, own) ? T(1) << T(own) : 0
        }
        let hourSet = field(hours, own: inDay / 3600, free: frequency <= .hourly)
        let minuteSet = field(minutes, own: inDay / 60 % 60, free: frequency <= .minutely)
        let secondSet = field(seconds, own: inDay % 60, free: frequency == .secondly)
        let midnight = Int64(day) * 86400
        var h = hourSet
        while h != 0 {
            let hour = h.trailingZeroBitCount
            h &= h - 1
            var m = minuteSet
            while m != 0 {
                let minute = m.trailingZeroBitCount
                m &= m - 1
                var s = secondSet
                while s != 0 {
                    times.append(midnight + Int64(hour * 3600 + minute * 60 + s.trailingZeroBitCount))
                    s &= s - 1
                }
            }
        }
    }

    /// The days of a year that BYWEEKNO or BYYEARDAY name, ascending (the other parts check them after).
    private func daysNamedInYear(_ year: Int) -> [Int] {
        let first = CivilCalendar.dayNumber(year: year, month: 1, day: 1)
        let next = CivilCalendar.dayNumber(year: year + 1, month: 1, day: 1)
        var days: Set<Int> = []
        if !rule.byWeekNumber.isEmpty {
            // Weeks that hold days of this year belong to it, the year before or the year after.
            for weekYear in year - 1...year + 1 {
                let start = firstWeekStart(weekYear)
                let weeks = (firstWeekStart(weekYear + 1) - start) / 7
                for number in rule.byWeekNumber {
                    let week = number > 0 ? number : weeks + 1 + number
                    guard (1...weeks).contains(week) else { continue }
                    for day in start + (week - 1) * 7..<start + week * 7 where day >= first && day < next { days.insert(day) }
                }
            }
        } else {
            let length = next - first
            for number in rule.byYearDay {
                let offset = number > 0 ? number - 1 : length + number
                if (0..<length).contains(offset) { days.insert(first + offset) }
            }
        }
        return days.sorted()
    }

    // MARK: Days

    /// Whether a day passes the rule's day parts (BYMONTH, BYWEEKNO, BYYEARDAY, BYMONTHDAY, BYDAY).
    func matches(_ day: Int) -> Bool {
        let (year, month, dayOfMonth) = CivilCalendar.civil(fromDayNumber: day)
        if months != 0 && !Self.has(months, month) { return false }
        if !rule.byWeekNumber.isEmpty && !weekNumberMatches(day) { return false }
        if !rule.byYearDay.isEmpty {
            let yearDay = day - CivilCalendar.dayNumber(year: year, month: 1, day: 1) + 1
            let length = CivilCalendar.isLeapYear(year) ? 366 : 365
            if !rule.byYearDay.contains(yearDay) && !rule.byYearDay.contains(yearDay - length - 1) { return false }
        }
        if monthDays != 0 || monthDaysFromEnd != 0 {
            let length = CivilCalendar.daysInMonth(year: year, month: month)
            if !Self.has(monthDays, dayOfMonth) && !Self.has(monthDaysFromEnd, length + 1 - dayOfMonth) { return false }
        }
        if weekdays != 0 || !numberedWeekdays.isEmpty {
            let weekday = Weekday(dayNumber: day)
            guard Self.has(weekdays, weekday.rawValue)
                || numberedWeekdays.contains(where: { weekdayMatches($0, day: day, weekday: weekday, year: year, month: month) })
            else { return false }
        }
        return true
    }

    /// BYDAY with a number: the nth such weekday of the month (a monthly rule, or a yearly one with BYMONTH) or
    /// of the year.
    private func weekdayMatches(_ entry: RecurrenceRule.WeekdayNumber, day: Int, weekday: Weekday, year: Int, month: Int) -> Bool {
        guard weekday == entry.weekday else { return false }
        let inMonth = frequency == .monthly || (frequency == .yearly && months != 0)
        let first = CivilCalendar.dayNumber(year: year, month: inMonth ? month : 1, day: 1)
        let length = inMonth ? CivilCalendar.daysInMonth(year: year, month: month) : (CivilCalendar.isLeapYear(year) ? 366 : 365)
        let offset = day - first
        return entry.ordinal > 0 ? offset / 7 + 1 == entry.ordinal : (length - 1 - offset) / 7 + 1 == -entry.ordinal
    }

    /// BYWEEKNO: the week of the year (weeks start on WKST; week 1 is the first with at least 4 days of the
    /// year), counted in the year the week belongs to, so that 29 December may be in week 1 of the next.
    private func weekNumberMatches(_ day: Int) -> Bool {
        let year = CivilCalendar.civil(fromDayNumber: day).year
        var weekYear = year
        if day >= firstWeekStart(year + 1) { weekYear = year + 1 } else if day < firstWeekStart(year) { weekYear = year - 1 }
        let start = firstWeekStart(weekYear)
        let (number, weeks) = ((day - start) / 7 + 1, (firstWeekStart(weekYear + 1) - start) / 7)
        return rule.byWeekNumber.contains(number) || rule.byWeekNumber.contains(number - weeks - 1)
    }

    private func firstWeekStart(_ year: Int) -> Int {
        weekStart(of: CivilCalendar.dayNumber(year: year, month: 1, day: 4))
    }

    /// RFC 7529's SKIP: the days BYMONTHDAY names that a month of the period lacks, moved back to its last day
    /// or on to the first of the next, where the other day parts allow them.
    private func movedDays(from firstDay: Int, through lastDay: Int) -> [Int] {
        var moved: [Int] = []
        var month = LocalDate(dayNumber: firstDay)
        while month.dayNumber <= lastDay {
            let length = CivilCalendar.daysInMonth(year: month.year, month: month.month)
            let named = Self.values(monthDays) + Self.values(monthDaysFromEnd)
            if months == 0 || Self.has(months, month.month), named.contains(where: { $0 > length }) {
                let target = rule.skip == .backward ? month.dayNumber + length - 1 : month.dayNumber + length
                let date = LocalDate(dayNumber: target)
                let weekday = Weekday(dayNumber: target)
                let weekdayAllows = weekdays == 0 && numberedWeekdays.isEmpty || Self.has(weekdays, weekday.rawValue)
                    || numberedWeekdays.contains(where: { weekdayMatches($0, day: target, weekday: weekday, year: date.year, month: date.month) })
                if weekdayAllows { moved.append(target) }
            }
            month = LocalDate(dayNumber: month.dayNumber + length)
        }
        return moved
    }
}
