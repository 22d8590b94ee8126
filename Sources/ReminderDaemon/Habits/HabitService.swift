import HabitCore
import ReminderCore
import ReminderInterface
import ReminderStore
import Synchronization

/// The habit system: every view is computed by `StreakEngine` from the stored raw events (intake logs,
/// workouts, rest days, the recovery), so a retroactive change recomputes everything consistently. Which
/// notices to announce and when to suggest rest are decided by `HabitCore`; this type reads, records and announces.
struct HabitService: Sendable {
    let context: DaemonContext
    /// The stores it holds: the habits' own.
    let stores: Stores
    let scheduling: SchedulingService
    /// Where the activities are read from.
    let activities: ActivitySource
    /// The activities counted per day, kept in memory once read and updated by each change (see ``changed``).
    private let kept = KeptActivityDays()
    /// Each goal's streak before today, shared by the copies of the service.
    let settledStreaks = SettledStreaks()

    init(context: DaemonContext, stores: Stores, scheduling: SchedulingService, activities: ActivitySource) {
        self.context = context
        self.stores = stores
        self.scheduling = scheduling
        self.activities = activities
    }

    private var dayRules: DayRules {
        let configuration = context.settings.configuration
        return DayRules(dayStart: configuration.dayStart, graceSeconds: configuration.graceMinutes * 60)
    }

    /// `now` with the habit zone's offset, and its day number under the day rules.
    private func day(at instant: Instant) throws(ServiceError) -> (now: Activity, day: Int) {
        let now = Activity(instant: instant, zone: try context.settings.zone(named: nil), rules: dayRules)
        return (now, dayRules.day(ofLocalSeconds: now.instant.secondsSinceEpoch + Int64(now.offsetSeconds)))
    }

    /// An activity at `instant` in the zone it was logged in (past days never move), or the system zone when
    /// that zone is no longer known.
    private func activity(at instant: Instant, zone name: String, rules: DayRules) throws(ServiceError) -> Activity {
        let zone: TimeZoneRules
        // A zone the zone files no longer have (renamed in a tzdata update): the day is counted in the system zone.
        if let known = try? context.settings.zone(named: name) { zone = known } else { zone = try context.settings.zone(named: nil) }
        return Activity(instant: instant, zone: zone, rules: rules)
    }

    /// Every activity counted per day under the current day rules: from memory, or read once from the store
    /// (and again when the rules changed, when a counted activity lies after `now`, which the clock going back
    /// does, or when `now` has reached an activity left out then).
    private func countedActivities(through now: Instant) throws(ServiceError) -> ActivityDays {
        let rules = dayRules
        if let (kept, leftOut) = kept.days.withLock({ $0 }), kept.rules == rules, (kept.latest ?? now) <= now, (leftOut ?? .endOfTime) > now {
            return kept
        }
        var counted = ActivityDays(rules: rules)
        var leftOut: Instant?
        for (at, zone) in try storing(activities.all) {
            if at <= now { counted.add(try activity(at: at, zone: zone, rules: rules)) } else { leftOut = min(leftOut ?? at, at) }
        }
        kept.days.withLock { $0 = (counted, leftOut) }
        return counted
    }

    /// Applies the activities added and removed to the counts kept in memory (counted again at the next report
    /// when they are too many to list, or one cannot be placed on its day).
    private func apply(_ changes: StoreChanges.Activities) throws(ServiceError) {
        let rules = dayRules
        guard case .listed(let counts) = changes else { return forgetCountedActivities() }
        for change in counts {
            let activity = try activity(at: Instant(secondsSinceEpoch: change.at), zone: change.timeZone, rules: rules)
            kept.days.withLock { kept in
                guard kept?.days.rules == rules else { return kept = nil }
                for _ in 0..<abs(change.count) {
                    if change.count > 0 { kept?.days.add(activity) } else { kept?.days.remove(activity) }
                }
            }
        }
    }

    /// Forgets the counts kept in memory (the zone files changed: a past activity may fall on another day).
    func forgetCountedActivities() {
        kept.days.withLock { $0 = nil }
    }

    func report(now instant: Instant) throws(ServiceError) -> StreakReport {
        do {
            let counted = try countedActivities(through: instant)
            let rest = try stores.habits.restDays().compactMap { day -> RestDay? in
                guard let date = ISO8601.parseDate(day.date) else { return nil }
                return RestDay(date: date, reason: RestReason(name: day.reason) ?? .other, lightActivities: day.activities)
            }
            var recovery: Recovery?
            if let used = try stores.habits.recovery(), let days = used.days {
                recovery = Recovery(days: days, usedOn: try day(at: Instant(secondsSinceEpoch: used.usedAt)).day)
            }
            return StreakEngine.report(days: counted, restDays: rest, recovered: recovery, now: try day(at: instant).now)
        } catch {
            throw ServiceError(mapping: error)
        }
    }

    /// The rest days as day numbers (read once per listing, not once per reminder).
    func restDayNumbers() throws(ServiceError) -> Set<Int> {
        Set(try storing { () throws(StoreError) in try stores.habits.restDays() }.compactMap { ISO8601.parseDate($0.date)?.dayNumber })
    }

    func streak() throws(ServiceError) -> StreakValue {
        let now = context.clock.now()
        let report = try report(now: now)
        announceNotices(report, now: now)
        return StreakValue(
            current: report.current.map(Self.value), best: report.best.map(Self.value), freezes: report.freezesBanked,
            strength: Int((report.strength * 100).rounded()), mustLogBy: report.mustLogBy?.description,
            recoveryAvailable: !report.recoveryUsed && report.lastBreak != nil)
    }

    /// Marks rest days. - Returns: the dates, and those of them that were rest days already for the same reason
    ///   (marking one again changes nothing, and says so).
    func markRest(from: String, to: String?, reason: String?, light: [String]) async throws(ServiceError) -> (dates: [String], already: [String]) {
        let now = context.clock.now()
        let first = try TypedTime.date(from, parameter: "from")
        let last = try to.map { text throws(ServiceError) in try TypedTime.date(text, parameter: "to") } ?? first
        guard first <= last else { throw .invalidTime(parameter: "to", message: "the range ends (\(last)) before it starts (\(first)): give --from before --to") }
        guard last.dayNumber - first.dayNumber < 366 else { throw .invalidTime(parameter: "to", message: "a range of rest days is at most a year long") }
        let today = try day(at: now).day
        let todayDate = LocalDate(dayNumber: today)
        let tenYearsAgo = todayDate.adding(years: -10)
        guard first >= tenYearsAgo else {
            throw .invalidTime(parameter: "from", message: "\(first) is more than 10 years ago: rest days can be marked back to \(tenYearsAgo)")
        }
        let nextYear = todayDate.adding(years: 1)
        guard last <= nextYear else {
            throw .invalidTime(parameter: to == nil ? "from" : "to", message: "\(last) is more than a year ahead: rest days can be planned through \(nextYear)")
        }
        let restReason: RestReason
        if let reason {
            guard let parsed = RestReason(name: reason) else {
                throw .invalidTime(parameter: "reason", message: "unknown reason '\(reason)': use one of \(RestReason.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            restReason = parsed
        } else {
            restReason = .recovery
        }
        let dates = (first.dayNumber...last.dayNumber).map { LocalDate(dayNumber: $0).description }
        let marking = dates.map { RestDayRecord(date: $0, reason: restReason.rawValue, activities: light) }
        let before = Set(try storing { () throws(StoreError) in try stores.habits.restDays() }.filter { dates.contains($0.date) })
        let already = marking.filter(before.contains).map(\.date)
        guard already.count < dates.count else { return (dates, already) }
        try storing { () throws(StoreError) in try stores.habits.markRestDays(marking) }
        await context.feed.deliver()
        return (dates, already)
    }

    func unmarkRest(date: String) async throws(ServiceError) {
        let parsed = try TypedTime.date(date, parameter: "date")
        let removed = try storing { () throws(StoreError) in try stores.habits.unmarkRestDay(parsed.description) }
        guard removed else { throw .invalidTime(parameter: "date", message: "\(parsed) is not marked as a rest day") }
        await context.feed.deliver()
    }

    /// The rest days from `from` through `to` (either may be open), oldest first.
    func restList(from: String?, to: String?) throws(ServiceError) -> [RestDayValue] {
        let first = try from.map { text throws(ServiceError) in try TypedTime.date(text, parameter: "from") }
        let last = try to.map { text throws(ServiceError) in try TypedTime.date(text, parameter: "to") }
        if let first, let last, last < first {
            throw .invalidTime(parameter: "to", message: "the range ends (\(last)) before it starts (\(first)): give --from before --to")
        }
        let today = try day(at: context.clock.now()).day
        let stored = try storing { () throws(StoreError) in try stores.habits.restDays() }
        return stored.compactMap { day -> RestDayValue? in
            guard let date = ISO8601.parseDate(day.date), first.map({ date >= $0 }) ?? true, last.map({ date <= $0 }) ?? true else { return nil }
            return RestDayValue(date: day.date, reason: day.reason, light: day.activities, planned: date.dayNumber > today)
        }
    }

    func restStats() throws(ServiceError) -> RestStatsValue {
        let now = context.clock.now()
        let report = try report(now: now)
        let today = try day(at: now).day
        let date = LocalDate(dayNumber: today)
        let monthStart = LocalDate(year: date.year, month: date.month, day: 1)!.dayNumber
        let monday = today - CivilCalendar.floorMod(today - 4, 7)
        func count(_ state: DayState, in range: ClosedRange<Int>) -> Int { range.filter { report.days[$0] == state }.count }
        return RestStatsValue(
            restDaysThisMonth: count(.rest, in: monthStart...today), activeDaysThisWeek: count(.active, in: monday...today),
            restDaysThisWeek: count(.rest, in: monday...today))
    }

    func freezeHistory() throws(ServiceError) -> [FreezeEventValue] {
        try report(now: context.clock.now()).freezeHistory.map {
            FreezeEventValue(date: $0.date.description, kind: $0.kind.rawValue, banked: $0.banked, streak: $0.streak)
        }
    }

    func recover() async throws(ServiceError) -> StreakRunValue {
        let now = context.clock.now()
        let report = try report(now: now)
        guard !report.recoveryUsed else {
            throw .habit("the one-time streak recovery was already used: it can be used once, ever")
        }
        guard let broken = report.lastBreak else {
            throw .habit("there is nothing to recover: no streak has been broken")
        }
        let recorded = try storing { () throws(StoreError) in try stores.habits.recordRecovery(days: broken.missed, at: now) }
        guard recorded else { throw .habit("the one-time streak recovery was already used: it can be used once, ever") }
        await announceDue(now: now)  // the recovery is the habits' own: no other feature follows it
        let restored = try self.report(now: now)
        return restored.current.map(Self.value) ?? Self.value(broken.streak)
    }

    func achievements() throws(ServiceError) -> [AchievementValue] {
        let unlocked = Dictionary(uniqueKeysWithValues: try report(now: context.clock.now()).achievements.map { ($0.id, $0.date) })
        return Achievement.ID.allCases.map {
            AchievementValue(id: $0.rawValue, title: $0.title, xp: $0.xp, requirement: $0.requirement, unlocked: unlocked[$0]?.description)
        }
    }

    func calendar(month: String?) throws(ServiceError) -> CalendarValue {
        let now = context.clock.now()
        let report = try report(now: now)
        let today = try day(at: now).day
        let todayDate = LocalDate(dayNumber: today)
        var year = todayDate.year
        var monthNumber = todayDate.month
        if let month {
            let parts = month.split(separator: "-")
            guard parts.count == 2, let y = Int(parts[0]), let m = Int(parts[1]), (1...12).contains(m), parts[0].count == 4 else {
                throw .invalidTime(parameter: "month", message: "invalid month '\(month)': write YYYY-MM, e.g. 2026-11")
            }
            (year, monthNumber) = (y, m)
        }
        let first = LocalDate(year: year, month: monthNumber, day: 1)!.dayNumber
        let length = CivilCalendar.daysInMonth(year: year, month: monthNumber)
        let rest = try restDayNumbers()
        let days = (first..<(first + length)).map { day in
            let state = day > today ? (rest.contains(day) ? "planned" : "future") : (report.days[day]?.rawValue ?? "none")
            return CalendarDayValue(date: LocalDate(dayNumber: day).description, state: state, today: day == today)
        }
        return CalendarValue(
            month: "\(ISO8601.pad(year, 4))-\(ISO8601.pad(monthNumber, 2))", days: days, streak: report.current?.length ?? 0,
            freezes: report.freezesBanked, strength: Int((report.strength * 100).rounded()))
    }

    // MARK: Notices

    /// Announces each notice `HabitCore` finds in the report, once ever (the store remembers its key).
    private func announceNotices(_ report: StreakReport, now: Instant) {
        // No zone to count days in (the system zone's files are gone): no notice now; the next change tries again.
        guard let today = try? day(at: now).day else { return }
        for notice in HabitNotice.notices(in: report, today: today) { announceOnce(notice, now: now) }
    }

    // MARK: For the other services (the habits store is this service's alone)

    /// The dates marked as rest days.
    func restDates() throws(ServiceError) -> Set<LocalDate> {
        Set(try storing { () throws(StoreError) in try stores.habits.restDays() }.compactMap { ISO8601.parseDate($0.date) })
    }

    /// Marks rest days a routine plans (all or nothing); the change feed tells the habits.
    func markPlannedRest(_ days: [RestDayRecord]) throws(ServiceError) {
        try storing { () throws(StoreError) in try stores.habits.markRestDays(days) }
    }

    /// Unmarks a rest day a routine planned; false when the user unmarked it already.
    @discardableResult
    func unmarkPlannedRest(_ date: String) throws(ServiceError) -> Bool {
        try storing { () throws(StoreError) in try stores.habits.unmarkRestDay(date) }
    }

    /// Records that something happened once ever (a built-in added); false when it had, or cannot be recorded.
    func recordOnce(_ key: String, now: Instant) -> Bool {
        // Not recorded (the store refused): the caller does it at a later start instead.
        (try? stores.habits.recordNotice(key, at: now)) == true
    }

    private func announceOnce(_ notice: HabitNotice, now: Instant) {
        // Announced once ever: when the store cannot record that it was, it is not announced (a later change
        // tries again), rather than announced at every change.
        guard (try? stores.habits.recordNotice(notice.key, at: now)) == true else { return }
        context.announcer.announce(.habit(notice))
    }

    /// What was committed, from any writer (the change feed hands it): the activities added and removed are
    /// counted, and what changes habit days (a log, a workout, a rest day, a goal) is announced.
    func apply(_ changes: StoreChanges, now: Instant) async {
        settledStreaks.drop(changes.history)
        guard !changes.activities.isEmpty || changes.restDays || changes.fitness || !changes.reminders(changing: .definition).isEmpty
        else { return }
        // What cannot be applied to the counts kept is counted again from the store at the next read.
        if (try? apply(changes.activities)) == nil { forgetCountedActivities() }
        await announceDue(now: now)
    }

    /// At start-up, after a reload and after a change: announce what is new and set the rest-suggestion wake-up.
    func announceDue(now: Instant) async {
        // Notices and the rest suggestion only: a report that cannot be made now is made at the next change or
        // wake-up; the calls that ask for it say why it cannot be.
        guard let report = try? report(now: now) else { return }
        announceNotices(report, now: now)
        await planRestSuggestion(report, now: now)
    }

    /// The rest-suggestion wake-up came: suggest rest if it is time, and set the next wake-up.
    func restSuggestionDue(now: Instant) async {
        // As in ``announceDue(now:)``: tried again at the next change (the wake-up is kept as it was).
        guard let report = try? report(now: now) else { return }
        await planRestSuggestion(report, now: now)
    }

    private func planRestSuggestion(_ report: StreakReport, now: Instant) async {
        // No system zone to plan in (its files are gone): no suggestion until a change finds one.
        guard let today = try? day(at: now).day, let zone = try? context.settings.zone(named: nil) else { return }
        let configuration = context.settings.configuration
        let plan = RestSuggestion.plan(report, today: today, now: now) { day in
            zone.resolve(localSeconds: Int64(day) * 86400 + Int64(configuration.dayStart.secondsSinceMidnight)
                + Int64(configuration.morning.secondsSinceMidnight))
        }
        if let date = plan.suggest { announceOnce(.restSuggestion(date: date), now: now) }
        await scheduling.setWakeUp(.restSuggestion, at: plan.wakeAt)
    }

    private static func value(_ run: StreakRun) -> StreakRunValue {
        StreakRunValue(length: run.length, start: run.start.description, end: run.end.description)
    }
}

/// The activities counted per day, shared by the copies of the service, with the earliest activity left out
/// because it lay after "now" (the clock had gone back): once now reaches it, the days are counted again.
private final class KeptActivityDays: Sendable {
    let days = Mutex<(days: ActivityDays, leftOut: Instant?)?>(nil)
}

extension HabitService {
    /// The stores HabitService holds, and no other: the habits' own.
    struct Stores: Sendable {
        let habits: HabitsStore
    }
}
