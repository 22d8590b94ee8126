/// A rule as the user writes it: the `remindctl add`/`preview` flags, also the Varlink `RuleSpec` record.
///
/// Exactly one kind is given (`daily`, `weekly`, `monthly`, `monthlyOn`, `yearly`, `every`, `preset`, `once`,
/// `rrule`);
/// ``makeRule()`` validates everything and returns a ``ReminderRule`` or one ``RuleSpecError`` that says how to fix it.
public struct RuleSpec: Hashable, Sendable, Codable {
    public var daily: Bool?
    /// Weekdays: `mon,thu`.
    public var weekly: String?
    /// Days of month: `1,15,31` or `last`.
    public var monthly: String?
    /// Nth weekday: `2nd-sun`, `last-sun`.
    public var monthlyOn: String?
    /// Month and day: `02-29`.
    public var yearly: String?
    /// Interval: `3d` or `2w` (with `weekly` for the weekdays).
    public var every: String?
    /// A preset name: `Twice Monthly`.
    public var preset: String?
    /// A one-shot local date-time: `2026-12-24T18:00:30`.
    public var once: String?
    /// Times of day: `08:00,20:00`.
    public var at: String?
    /// First day (`2026-12-01`), date-time (`2026-12-20T08:00`), or for daily presets a time (`08:00`).
    public var start: String?
    /// Last day: `2027-06-30`.
    public var until: String?
    /// Dates without firing: `2026-12-25,2027-01-01`.
    public var skip: String?
    /// An RFC 5545 recurrence rule, `FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1`, from `start` (its DTSTART).
    public var rrule: String?
    /// A systemd calendar expression: `Mon..Fri *-*-* 09:00`, `*-*~01 18:00 Europe/Berlin`.
    public var onCalendar: String?
    /// With `rrule` (from an imported calendar file): more instances (RDATE) and instances left out (EXDATE),
    /// as local date-times `2026-12-24T18:00,2026-12-31T18:00`; `rrule` may then be `-` (no rule, dates only).
    public var rdate: String?
    public var exdate: String?
    /// With `rrule`: when the reminder fires relative to each instance, an RFC 5545 duration (`-PT15M`).
    public var alarm: String?
    /// No schedule: a medication taken when needed, logged but never announced (its limits are the delivery's).
    public var asNeeded: Bool?
    /// With `every` in hours or minutes: each occurrence comes that long after the last dose logged, not on the
    /// clock of `start` (see ``counted(fromLastDose:in:)``).
    public var fromLastDose: Bool?

    public init(
        daily: Bool? = nil, weekly: String? = nil, monthly: String? = nil, monthlyOn: String? = nil,
        yearly: String? = nil, every: String? = nil, preset: String? = nil, once: String? = nil, at: String? = nil,
        start: String? = nil, until: String? = nil, skip: String? = nil, rrule: String? = nil,
        onCalendar: String? = nil, rdate: String? = nil, exdate: String? = nil, alarm: String? = nil, asNeeded: Bool? = nil,
        fromLastDose: Bool? = nil
    ) {
        self.daily = daily
        self.weekly = weekly
        self.monthly = monthly
        self.monthlyOn = monthlyOn
        self.yearly = yearly
        self.every = every
        self.preset = preset
        self.once = once
        self.at = at
        self.start = start
        self.until = until
        self.skip = skip
        self.rrule = rrule
        self.onCalendar = onCalendar
        (self.rdate, self.exdate, self.alarm, self.asNeeded, self.fromLastDose) = (rdate, exdate, alarm, asNeeded, fromLastDose)
    }

    /// Validates the spec and builds the rule.
    /// This rule with the parts `change` gives replaced and the rest kept (`update NAME --at 10:00` keeps the
    /// days): the kind (`daily`, `weekly`, ... and `every` with its weekdays) as one part, and each of the times,
    /// the start, the end and the skipped dates on its own. A one-shot rule has no times or dates besides its own.
    public func updated(by change: RuleSpec) -> RuleSpec {
        var result = self
        let changesKind = change.daily != nil || change.weekly != nil || change.monthly != nil || change.monthlyOn != nil
            || change.yearly != nil || change.every != nil || change.preset != nil || change.once != nil || change.rrule != nil || change.onCalendar != nil
            || change.asNeeded == true
        if changesKind {
            (result.daily, result.weekly, result.monthly, result.monthlyOn) = (change.daily, change.weekly, change.monthly, change.monthlyOn)
            (result.yearly, result.every, result.preset, result.once) = (change.yearly, change.every, change.preset, change.once)
            (result.rrule, result.onCalendar) = (change.rrule, change.onCalendar)
            (result.rdate, result.exdate, result.alarm, result.asNeeded) = (change.rdate, change.exdate, change.alarm, change.asNeeded)
            result.fromLastDose = change.fromLastDose
            // An RFC 5545 rule, a calendar expression and --every 8h name their own times: times of the kind
            // they replace go (so do the start and the end of a calendar expression, which has its own).
            if change.rrule != nil || change.onCalendar != nil || change.every.map({ !Self.countsDaysOrWeeks($0) }) == true { result.at = nil }
            if change.onCalendar != nil { (result.start, result.until) = (nil, nil) }
        }
        if change.once != nil || change.asNeeded == true { (result.at, result.start, result.until, result.skip) = (nil, nil, nil, nil) }
        if let at = change.at { result.at = at }
        if let start = change.start { result.start = start }
        if let until = change.until { result.until = until }
        if let skip = change.skip { result.skip = skip }
        if let fromLastDose = change.fromLastDose { result.fromLastDose = fromLastDose ? true : nil }
        return result
    }

    /// Calls `body` with each kind of schedule (its flag) and whether this spec gives it: counted without an array
    /// (every start makes every reminder's rule), listed when the count is wrong.
    private func forEachKind(_ body: (String, Bool) -> Void) {
        body("--daily", daily == true)
        body("--monthly", monthly != nil)
        body("--monthly-on", monthlyOn != nil)
        body("--yearly", yearly != nil)
        body("--preset", preset != nil)
        body("--once", once != nil)
        body("--every", every != nil)
        body("--rrule", rrule != nil)
        body("--on-calendar", onCalendar != nil)
        body("--as-needed", asNeeded == true)
        // --weekly is a kind of its own, or the weekdays of --every Nw.
        body("--weekly", weekly != nil && every == nil)
    }

    public func makeRule() throws(RuleSpecError) -> ReminderRule {
        try checkOneKind()
        if asNeeded == true {
            guard at == nil, start == nil, until == nil, skip == nil else {
                throw RuleSpecError("--as-needed has no schedule: give it without --at, --start, --until and --skip (limit it with --min-interval 6h and --max-per-day 3)")
            }
            return ReminderRule(days: .asNeeded, times: [])
        }
        let bounds = try parsedBounds()
        func rule(_ days: DaySelector, _ times: [TimeOfDay], preset: Preset? = nil) -> ReminderRule {
            ReminderRule(days: days, times: times, start: bounds.start, until: bounds.until, skip: bounds.skip, preset: preset)
        }
        if let preset {
            let (found, expanded) = try presetDays(preset, bounds: bounds)
            return rule(expanded.days, expanded.times, preset: found)
        }
        if let once {
            guard at == nil else { throw RuleSpecError("--once takes the date and time together: write --once 2026-12-24T18:00") }
            guard let when = ISO8601.parseDateTime(once) else {
                if let (date, time) = Self.splitDateTime(once), ISO8601.parseTime(time) != nil {
                    throw RuleSpecError(Self.dateHint("--once", String(date)))
                }
                throw RuleSpecError("invalid --once '\(once)': write a local date-time such as 2026-12-24T18:00 or 2026-12-24T18:00:30")
            }
            return ReminderRule(days: .once(when.date), times: [when.time], start: bounds.start, until: bounds.until, skip: bounds.skip)
        }
        guard rrule != nil || (rdate == nil && exdate == nil && alarm == nil) else {
            throw RuleSpecError("rdate, exdate and alarm go with rrule (\"-\" for dates without a rule)")
        }
        if let rrule { return try recurrenceRule(rrule, start: bounds.start, until: bounds.until, skip: bounds.skip) }
        if let onCalendar { return try calendarRule(onCalendar, skip: bounds.skip) }
        if fromLastDose == true, every.map(Self.countsDaysOrWeeks) ?? true {
            throw RuleSpecError("--from-last-dose counts hours from each dose: give it with --every 8h (or 6h, 12h ...) and --start for the first dose")
        }
        if let every, !Self.countsDaysOrWeeks(every) {
            var rule = try everyFewHours(every)
            rule.countsFromLastDose = fromLastDose == true
            return rule
        }
        let times = try parseTimes()
        if daily == true { return rule(.daily, times) }
        if let every { return try parseEvery(every, times: times, rule: rule) }
        if let weekly { return rule(.weekly(try Self.parseWeekdays(weekly, flag: "--weekly")), times) }
        if let monthly { return rule(.monthly(try Self.parseMonthDays(monthly)), times) }
        if let monthlyOn { return rule(try Self.parseNthWeekday(monthlyOn), times) }
        if let yearly { return rule(try Self.parseYearly(yearly), times) }
        preconditionFailure("every kind is handled above")
    }

    /// Exactly one kind of schedule is given, or the error lists those given.
    private func checkOneKind() throws(RuleSpecError) {
        var kindsGiven = 0
        forEachKind { kindsGiven += $1 ? 1 : 0 }
        guard kindsGiven != 1 else { return }
        var given: [String] = []
        forEachKind { if $1 { given.append($0) } }
        if given.isEmpty {
            throw RuleSpecError("no schedule given: add one of --daily, --weekly mon, --monthly 1, --monthly-on 2nd-sun, --yearly 02-29, --every 3d, --preset \"Twice a Day\", --once 2026-12-24T18:00, --rrule FREQ=DAILY --start 2026-12-01T08:00, --on-calendar 'Mon..Fri 09:00' or --as-needed")
        }
        throw RuleSpecError("\(given.joined(separator: " and ")) cannot be combined: give one schedule per reminder")
    }

    /// What limits a rule's days: `--start` (a date-time, a date, or a presets' time alone), `--until`, `--skip`.
    private struct Bounds {
        var start: LocalDateTime?
        var startTimeOnly: TimeOfDay?
        var until: LocalDate?
        var skip: [LocalDate] = []
    }

    private func parsedBounds() throws(RuleSpecError) -> Bounds {
        var bounds = Bounds()
        if let start {
            if let dt = ISO8601.parseDateTime(start) {
                bounds.start = dt
            } else if let date = ISO8601.parseDate(start) {
                bounds.start = LocalDateTime(date: date, time: TimeOfDay(hour: 0, minute: 0)!)
            } else if let time = ISO8601.parseTime(start), preset != nil {
                bounds.startTimeOnly = time
            } else {
                throw RuleSpecError("invalid --start '\(start)': write a date 2026-12-01 or a date-time 2026-12-01T08:00\(preset != nil ? ", or a time 08:00 for daily presets" : "")")
            }
        }
        bounds.until = try until.map { text throws(RuleSpecError) in
            guard let date = ISO8601.parseDate(text) else {
                throw RuleSpecError(Self.dateHint("--until", text))
            }
            return date
        }
        if let untilDate = bounds.until, let startDateTime = bounds.start, untilDate < startDateTime.date {
            throw RuleSpecError("--until \(untilDate) is before --start \(startDateTime.date): the rule would never fire")
        }
        let skipItems = (skip ?? "").commaSeparatedItems
        guard skipItems.count <= Self.maximumSkipDates else {
            throw RuleSpecError("--skip lists \(skipItems.count) dates: at most \(Self.maximumSkipDates) can be given; use --until or disable the reminder instead")
        }
        for text in skipItems {
            guard let date = ISO8601.parseDate(text) else { throw RuleSpecError(Self.dateHint("--skip", String(text))) }
            bounds.skip.append(date)
        }
        return bounds
    }

    /// A preset's days and times, from `--start`'s time (and date, for the weekly and monthly ones).
    private func presetDays(_ preset: String, bounds: Bounds) throws(RuleSpecError) -> (Preset, (days: DaySelector, times: [TimeOfDay])) {
        guard let found = Preset(name: preset) else {
            throw RuleSpecError("unknown preset '\(preset)': use one of \(Preset.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))")
        }
        guard at == nil else {
            throw RuleSpecError("--preset takes its times from --start, not --at: write --preset \"\(found.rawValue)\" --start 2026-12-01T08:00")
        }
        guard let time = bounds.start?.time ?? bounds.startTimeOnly else {
            throw RuleSpecError("--preset \"\(found.rawValue)\" needs --start with a time, e.g. --start \(found.needsStartDate ? "2026-12-01T08:00" : "08:00")")
        }
        if found.needsStartDate && bounds.start == nil {
            throw RuleSpecError("--preset \"\(found.rawValue)\" takes its \(found.rawValue.contains("Week") ? "weekday" : "day of month") from --start: give a date-time, e.g. --start 2026-12-01T\(time)")
        }
        return (found, found.expand(time: time, date: bounds.start?.date))
    }

    /// `--on-calendar`: a systemd calendar expression, which says the days and the times itself.
    private func calendarRule(_ text: String, skip: [LocalDate]) throws(RuleSpecError) -> ReminderRule {
        guard at == nil, start == nil, until == nil else {
            throw RuleSpecError("--on-calendar says the days and times itself: give it without --at, --start and --until (years and dates go in the expression, e.g. '2027-*-* 09:00')")
        }
        let expression: CalendarExpression
        do { expression = try CalendarExpression(parsing: text) } catch { throw RuleSpecError("invalid --on-calendar: \(error.message)") }
        guard !expression.firesMoreThanOnceAMinute else {
            throw RuleSpecError("invalid --on-calendar: it names several seconds of a minute, and remindd fires at most once a minute: give one second (or none, for :00), e.g. '*-*-* *:*:00'")
        }
        return ReminderRule(days: .calendar(expression), times: [], skip: skip)
    }

    /// The most times of day one rule may list (every 10 minutes): a call may not ask for more work than an
    /// announcement can wait for (86,400 times took 79 s to add and held every firing up meanwhile).
    public static let maximumTimesPerDay = 144
    /// The most dates one rule may skip.
    public static let maximumSkipDates = 366

    private func parseTimes() throws(RuleSpecError) -> [TimeOfDay] {
        guard let at, !at.isEmpty else {
            throw RuleSpecError("missing --at: give the time of day, e.g. --at 08:00 or --at 08:00,20:00")
        }
        var times: [TimeOfDay] = []
        let items = at.commaSeparatedItems
        guard items.count <= Self.maximumTimesPerDay else {
            throw RuleSpecError("--at lists \(items.count) times: at most \(Self.maximumTimesPerDay) times a day (every 10 minutes) can be given; split them into several reminders")
        }
        for text in items {
            guard let time = ISO8601.parseTime(text) else {
                throw RuleSpecError("invalid time \(quotedInput(text)) in --at: write 24-hour HH:MM (00:00 to 23:59), e.g. 08:00 or 20:30")
            }
            times.append(time)
        }
        guard !times.isEmpty else { throw RuleSpecError("missing --at: give the time of day, e.g. --at 08:00") }
        return times
    }

    private func parseEvery(
        _ text: String, times: [TimeOfDay], rule: (DaySelector, [TimeOfDay], Preset?) -> ReminderRule
    ) throws(RuleSpecError) -> ReminderRule {
        let unit = text.last.map { Character($0.lowercased()) }
        guard let n = Int(text.dropLast()), (1...3660).contains(n), unit == "d" || unit == "w" else {
            throw RuleSpecError("invalid --every \(quotedInput(text)): write a number of days or weeks (--every 3d, --every 2w --weekly sun) or hours and minutes (--every 8h, --every 2h30m)")
        }
        guard let anchor = start.flatMap({ _ in self.startDate }) else {
            throw RuleSpecError("--every \(text) counts from a first day: add --start 2026-12-01")
        }
        if unit == "d" {
            guard weekly == nil else { throw RuleSpecError("--weekly goes with --every Nw, not --every \(text)") }
            return rule(.everyDays(interval: n), times, nil)
        }
        let weekdays = try weekly.map { w throws(RuleSpecError) in try Self.parseWeekdays(w, flag: "--weekly") }
        return rule(.everyWeeks(interval: n, weekdays ?? WeekdaySet([anchor.weekday])), times, nil)
    }

    private func recurrenceRule(
        _ text: String, start: LocalDateTime?, until: LocalDate?, skip: [LocalDate]
    ) throws(RuleSpecError) -> ReminderRule {
        guard at == nil else {
            throw RuleSpecError("--rrule takes its times from --start (or BYHOUR and BYMINUTE in the rule), not --at: write --rrule \(quotedInput(text)) --start 2026-12-01T\(at!.split(separator: ",").first ?? "08:00")")
        }
        guard self.until == nil else {
            throw RuleSpecError("--until does not go with --rrule: end the rule itself with UNTIL, e.g. --rrule '\(text);UNTIL=\(self.until!.filter { $0 != "-" })'")
        }
        guard let start else {
            throw RuleSpecError("--rrule needs --start, its DTSTART (the first firing, and the time of day), e.g. --start 2026-12-01T09:00")
        }
        // `--start 2024-10-18`, a date: its DTSTART is a DATE, and the rule's time parts are ignored.
        let dateOnly = self.start.map { ISO8601.parseDateTime($0) == nil } ?? false
        var rule: RecurrenceRule?
        var alarmOffset: AlarmOffset?
        do {
            if text != "-" { rule = try RecurrenceRule(parsing: text) }
            if dateOnly { rule = rule?.forDateOnlyStart }
            if let alarm { alarmOffset = try AlarmOffset(parsing: alarm) }
        } catch {
            throw RuleSpecError("invalid --rrule: \(error.message)")
        }
        func dates(_ list: String?, _ name: String) throws(RuleSpecError) -> [LocalDateTime] {
            var result: [LocalDateTime] = []
            for item in (list ?? "").split(separator: ",") {
                guard let value = ISO8601.parseDateTime(String(item)) else { throw RuleSpecError("invalid \(name) '\(item)': write local date-times such as 2026-12-24T18:00") }
                result.append(value)
            }
            return result
        }
        let set = try Self.recurrenceSet(start: start, rule: rule, alarm: alarmOffset, dates: try dates(rdate, "rdate"), exceptions: try dates(exdate, "exdate"))
        return ReminderRule(days: .recurrence(set), times: [], start: start, until: until, skip: skip)
    }

    /// The most dates an `rdate` or `exdate` may list.
    static let maximumListedDates = 10_000

    /// A recurrence (`--rrule` with its `rdate`, `exdate` and `alarm`) from its parts already read, checked as
    /// ``makeRule()`` checks them: a calendar's event, read into these parts, is not written as text and read again.
    public static func recurrenceSet(
        start: LocalDateTime, rule: RecurrenceRule?, alarm: AlarmOffset?, dates: [LocalDateTime], exceptions: [LocalDateTime]
    ) throws(RuleSpecError) -> RecurrenceSet {
        if let rule, let close = instancesUnderAMinuteApart(rule, from: start) {
            throw RuleSpecError("invalid --rrule: it fires at \(close.0) and again at \(close.1), less than a minute apart, and remindd fires at most once a minute: use FREQ=MINUTELY (with INTERVAL for every few minutes) and one BYSECOND")
        }
        func checkCount(_ list: [LocalDateTime], _ name: String) throws(RuleSpecError) {
            guard list.count <= maximumListedDates else { throw RuleSpecError("\(name) lists \(list.count) dates: at most \(maximumListedDates)") }
        }
        try checkCount(dates, "rdate")
        try checkCount(exceptions, "exdate")
        var set = RecurrenceSet(start: start, rule: rule)
        set.alarm = alarm
        set.dates = dates.sorted()
        if let close = zip(set.dates, set.dates.dropFirst()).first(where: { $1.localSeconds - $0.localSeconds < 60 }) {
            throw RuleSpecError("rdate lists \(close.0) and \(close.1), less than a minute apart: remindd fires at most once a minute")
        }
        set.exceptions = Set(exceptions)
        return set
    }

    /// How many of a rule's first instances are looked at for two less than a minute apart: a rule repeats its
    /// pattern every period, so two that close, if any, come among the first instances of a period.
    static let instancesChecked = 1_000

    /// Two consecutive instances of the rule less than a minute apart, by what its instances are rather than by
    /// its syntax: `FREQ=SECONDLY;INTERVAL=61;BYSECOND=5,25` never fires twice within a minute. Only a rule
    /// that can (FREQ=SECONDLY, or several BYSECOND values) is expanded, on a clock without DST changes.
    static func instancesUnderAMinuteApart(_ rule: RecurrenceRule, from start: LocalDateTime) -> (LocalDateTime, LocalDateTime)? {
        guard rule.frequency == .secondly || Set(rule.bySecond).count > 1 else { return nil }
        var instances = rule.expansion(from: start, in: TimeZoneRules(identifier: "UTC", fixedOffset: 0))
        var previous: LocalDateTime?
        for _ in 0..<instancesChecked {
            guard let instance = instances.next() else { return nil }
            if let previous, instance.local.localSeconds - previous.localSeconds < 60 { return (previous, instance.local) }
            previous = instance.local
        }
        return nil
    }

    /// `--every 8h`, `30m`, `2h30m`: an RFC 5545 `FREQ=HOURLY` (or `MINUTELY`) rule from `--start`'s date-time,
    /// stepping on the wall clock (08:00, 16:00, 00:00 stay so across DST changes, as RRULEs do).
    private func everyFewHours(_ text: String) throws(RuleSpecError) -> ReminderRule {
        guard let seconds = WindowLength.seconds(text.lowercased(), in: 600...(366 * 86400)), seconds % 60 == 0 else {
            throw RuleSpecError("invalid --every \(quotedInput(text)): write a number of days or weeks (--every 3d, --every 2w --weekly sun) or hours and minutes from 10m up (--every 8h, --every 30m, --every 2h30m)")
        }
        guard at == nil, weekly == nil else {
            throw RuleSpecError("--every \(text) counts from --start's time, without --at or --weekly: write --every \(text) --start 2026-12-01T08:00")
        }
        guard let start, ISO8601.parseDateTime(start) != nil else {
            throw RuleSpecError("--every \(text) counts from a first date-time: add --start 2026-12-01T08:00")
        }
        let minutes = seconds / 60
        let rule = minutes % 60 == 0 ? "FREQ=HOURLY;INTERVAL=\(minutes / 60)" : "FREQ=MINUTELY;INTERVAL=\(minutes)"
        var spec = self
        (spec.every, spec.rrule) = (nil, rule)
        return try spec.makeRule()
    }

    /// This rule counted from the last dose logged (`fromLastDose`): its next occurrence one interval after
    /// `lastDose`, and so on from there, unless its own `start` is later; as it is without that flag or a dose.
    /// (A missed or skipped occurrence keeps the clock: the next comes one interval after it.)
    public func counted(fromLastDose lastDose: Instant?, in zone: TimeZoneRules) -> RuleSpec {
        guard fromLastDose == true, let lastDose, let every, let seconds = WindowLength.seconds(every.lowercased(), in: 600...(366 * 86400)),
            let start, let first = ISO8601.parseDateTime(start)
        else { return self }
        let next = lastDose.adding(seconds: seconds)
        guard next > zone.resolve(first) else { return self }
        var counted = self
        counted.start = zone.localDateTime(at: next).description
        return counted
    }

    /// This rule for a tapering course: it ends (`until`) after the course's last step, unless it ends before.
    /// A course needs days to follow (not an RFC 5545 rule, a calendar expression, every few hours, once, or
    /// as needed).
    public func ending(with steps: DoseSteps) throws(RuleSpecError) -> RuleSpec {
        guard rrule == nil, onCalendar == nil, asNeeded != true, once == nil, every.map(Self.countsDaysOrWeeks) ?? true else {
            throw RuleSpecError("--steps needs a schedule of days, such as --daily --at 08:00 or --weekly mon --at 08:00 (not --rrule, --on-calendar, --every 8h, --once or --as-needed)")
        }
        if let until = until.flatMap(ISO8601.parseDate), until <= steps.lastDay { return self }
        var ended = self
        ended.until = steps.lastDay.description
        return ended
    }

    /// Whether an `--every` value is days or weeks (`3d`, `2w`), not hours and minutes.
    private static func countsDaysOrWeeks(_ every: String) -> Bool {
        every.last.map { "dDwW".contains($0) } ?? false
    }

    private var startDate: LocalDate? {
        start.flatMap { ISO8601.parseDateTime($0)?.date ?? ISO8601.parseDate($0) }
    }

    static func parseWeekdays(_ text: String, flag: String) throws(RuleSpecError) -> WeekdaySet {
        var days: [Weekday] = []
        for item in text.commaSeparatedItems {
            guard let day = Weekday(name: item) else {
                throw RuleSpecError("invalid weekday '\(item)' in \(flag): use mon, tue, wed, thu, fri, sat, sun separated by commas, e.g. \(flag) mon,thu")
            }
            days.append(day)
        }
        guard !days.isEmpty else { throw RuleSpecError("\(flag) needs at least one weekday, e.g. \(flag) mon,thu") }
        return WeekdaySet(days)
    }

    static func parseMonthDays(_ text: String) throws(RuleSpecError) -> MonthDaySet {
        var days: [Int] = []
        var last = false
        for token in text.commaSeparatedItems {
            if token.utf8.elementsEqual("last".utf8, by: { ($0 | 0x20) == $1 }) {
                last = true
            } else if let day = Int(token), (1...31).contains(day) {
                days.append(day)
            } else {
                throw RuleSpecError("invalid day of month '\(token.lowercased())' in --monthly: use 1 to 31 or 'last', e.g. --monthly 1,15 or --monthly last (29-31 fire on the last day of shorter months)")
            }
        }
        guard !days.isEmpty || last else { throw RuleSpecError("--monthly needs at least one day, e.g. --monthly 1,15") }
        return MonthDaySet(days: days, includesLastDay: last)
    }

    static func parseNthWeekday(_ text: String) throws(RuleSpecError) -> DaySelector {
        let parts = text.lowercased().split(separator: "-")
        guard parts.count == 2, let ordinal = NthWeekday.ordinals[String(parts[0])], let weekday = Weekday(name: String(parts[1]))
        else {
            throw RuleSpecError("invalid --monthly-on \(quotedInput(text)): write ORDINAL-WEEKDAY with 1st, 2nd, 3rd, 4th, 5th or last, e.g. 2nd-sun or last-fri")
        }
        return .nthWeekday(ordinal: ordinal, weekday: weekday)
    }

    static func parseYearly(_ text: String) throws(RuleSpecError) -> DaySelector {
        let parts = text.split(separator: "-")
        guard parts.count == 2, let month = Int(parts[0]), let day = Int(parts[1]), (1...12).contains(month),
            day >= 1, day <= CivilCalendar.daysInMonth(year: 2024, month: month)
        else {
            throw RuleSpecError("invalid --yearly \(quotedInput(text)): write MM-DD of a real date, e.g. --yearly 12-24 or --yearly 02-29 (fires 28 Feb in common years)")
        }
        return .yearly(month: month, day: day)
    }

    private static func splitDateTime(_ text: String) -> (Substring, Substring)? {
        guard let sep = text.firstIndex(where: { $0 == "T" || $0 == " " }) else { return nil }
        return (text[..<sep], text[text.index(after: sep)...])
    }

    /// The error for a date that does not parse, naming an impossible day (`2027-02-30`) as such.
    static func dateHint(_ flag: String, _ text: String) -> String {
        let parts = text.split(separator: "-")
        if parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), d > 0 {
            let length = CivilCalendar.daysInMonth(year: y, month: m)
            if d > length {
                return "invalid date \(quotedInput(text)) in \(flag): \(ISO8601.pad(y, 4))-\(ISO8601.pad(m, 2)) has only \(length) days; write YYYY-MM-DD with a day that exists"
            }
        }
        return "invalid date \(quotedInput(text)) in \(flag): write YYYY-MM-DD, e.g. 2026-12-01"
    }
}

/// A rule the user wrote that cannot work, with a one-line message that says how to write it right.
public struct RuleSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
