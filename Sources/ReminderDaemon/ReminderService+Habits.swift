import HabitCore
import ReminderCore
import ReminderInterface
import ReminderStore
import SystemdSupport

/// The habit system: every view is computed by `StreakEngine` from the stored raw events (intake logs,
/// rest days, the recovery), so a retroactive change recomputes everything consistently.
extension ReminderService {
    private var dayRules: DayRules {
        DayRules(dayStart: dependencies.configuration.dayStart, graceSeconds: dependencies.configuration.graceMinutes * 60)
    }

    /// "Now" with the offset in effect, and today's day number under the day rules.
    private func today() throws(ServiceError) -> (now: Activity, day: Int) {
        let zone = try zone(named: nil)
        let instant = dependencies.now()
        let now = Activity(instant: instant, offsetSeconds: zone.offset(at: instant))
        return (now, dayRules.day(ofLocalSeconds: now.instant.secondsSinceEpoch + Int64(now.offsetSeconds)))
    }

    func habitReport() throws(ServiceError) -> StreakReport {
        do {
            var activities: [Activity] = []
            let fallback = try zone(named: nil)
            for (instant, zoneName) in try dependencies.store.allIntakes() {
                // Each log keeps the zone in effect when it happened: past days never move.
                let zone = (try? zone(named: zoneName)) ?? fallback
                activities.append(Activity(instant: instant, offsetSeconds: zone.offset(at: instant)))
            }
            for workout in try dependencies.store.entries(.workout, from: Instant(secondsSinceEpoch: .min / 2), through: dependencies.now()) {
                let zone = (try? zone(named: workout.timeZone)) ?? fallback
                activities.append(Activity(instant: workout.at, offsetSeconds: zone.offset(at: workout.at)))
            }
            let rest = try dependencies.store.restDays().compactMap { day -> RestDay? in
                guard let date = ISO8601.parseDate(day.date) else { return nil }
                return RestDay(date: date, reason: RestReason(name: day.reason) ?? .other, lightActivities: day.lightActivities)
            }
            return StreakEngine.report(
                activities: activities, restDays: rest, recovered: try dependencies.store.recovery(), now: try today().now, rules: dayRules)
        } catch {
            throw ServiceError(mapping: error)
        }
    }

    func streak() throws(ServiceError) -> StreakValue {
        let report = try habitReport()
        announceHabitNotices(report)
        return StreakValue(
            current: report.current.map(Self.value), best: report.best.map(Self.value), freezes: report.freezesBanked,
            strength: Int((report.strength * 100).rounded()), mustLogBy: report.mustLogBy?.description,
            recoveryAvailable: !report.recoveryUsed && report.lastBreak != nil)
    }

    func markRest(from: String, to: String?, reason: String?, light: [String]) throws(ServiceError) -> [String] {
        guard let first = ISO8601.parseDate(from) else { throw .invalidTime(parameter: "from", message: "invalid date '\(from)': write YYYY-MM-DD, e.g. 2026-11-24") }
        let last: LocalDate
        if let to {
            guard let parsed = ISO8601.parseDate(to) else { throw .invalidTime(parameter: "to", message: "invalid date '\(to)': write YYYY-MM-DD, e.g. 2026-11-30") }
            last = parsed
        } else {
            last = first
        }
        guard first <= last else { throw .invalidTime(parameter: "to", message: "the range ends (\(last)) before it starts (\(first)): give --from before --to") }
        guard last.dayNumber - first.dayNumber < 366 else { throw .invalidTime(parameter: "to", message: "a range of rest days is at most a year long") }
        let today = try today().day
        guard last.dayNumber <= today + 366 else {
            throw .invalidTime(parameter: to == nil ? "from" : "to", message: "\(last) is more than a year ahead: rest days can be planned up to a year in advance")
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
        do {
            try dependencies.store.markRestDays(dates.map { ($0, restReason.rawValue, light) })
        } catch {
            throw ServiceError(error)
        }
        habitsChanged()
        return dates
    }

    func unmarkRest(date: String) throws(ServiceError) {
        guard let parsed = ISO8601.parseDate(date) else { throw .invalidTime(parameter: "date", message: "invalid date '\(date)': write YYYY-MM-DD") }
        let removed: Bool
        do { removed = try dependencies.store.unmarkRestDay(parsed.description) } catch { throw ServiceError(error) }
        guard removed else { throw .invalidTime(parameter: "date", message: "\(parsed) is not marked as a rest day") }
        habitsChanged()
    }

    func restStats() throws(ServiceError) -> RestStatsValue {
        let report = try habitReport()
        let today = try today().day
        let date = LocalDate(dayNumber: today)
        let monthStart = LocalDate(year: date.year, month: date.month, day: 1)!.dayNumber
        let monday = today - CivilCalendar.floorMod(today - 4, 7)
        func count(_ state: DayState, in range: ClosedRange<Int>) -> Int { range.filter { report.days[$0] == state }.count }
        return RestStatsValue(
            restDaysThisMonth: count(.rest, in: monthStart...today), activeDaysThisWeek: count(.active, in: monday...today),
            restDaysThisWeek: count(.rest, in: monday...today))
    }

    func freezeHistory() throws(ServiceError) -> [FreezeEventValue] {
        try habitReport().freezeHistory.map {
            FreezeEventValue(date: $0.date.description, kind: $0.kind.rawValue, banked: $0.banked, streak: $0.streak)
        }
    }

    func recover() throws(ServiceError) -> StreakRunValue {
        let report = try habitReport()
        guard !report.recoveryUsed else {
            throw .habit("the one-time streak recovery was already used: it can be used once, ever")
        }
        guard let broken = report.lastBreak else {
            throw .habit("there is nothing to recover: no streak has been broken")
        }
        do {
            guard try dependencies.store.recordRecovery(days: broken.missed, at: dependencies.now()) else {
                throw ServiceError.habit("the one-time streak recovery was already used: it can be used once, ever")
            }
        } catch {
            throw ServiceError(mapping: error)
        }
        habitsChanged()
        let restored = try habitReport()
        return restored.current.map(Self.value) ?? Self.value(broken.streak)
    }

    func achievements() throws(ServiceError) -> [AchievementValue] {
        let unlocked = Dictionary(uniqueKeysWithValues: try habitReport().achievements.map { ($0.id, $0.date) })
        return Achievement.ID.allCases.map {
            AchievementValue(id: $0.rawValue, title: $0.title, xp: $0.xp, requirement: $0.requirement, unlocked: unlocked[$0]?.description)
        }
    }

    func calendar(month: String?) throws(ServiceError) -> CalendarValue {
        let report = try habitReport()
        let today = try today().day
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
        let days = (first..<(first + length)).map { day in
            CalendarDayValue(
                date: LocalDate(dayNumber: day).description, state: day > today ? "future" : (report.days[day]?.rawValue ?? "none"),
                today: day == today)
        }
        return CalendarValue(
            month: "\(ISO8601.pad(year, 4))-\(ISO8601.pad(monthNumber, 2))", days: days, streak: report.current?.length ?? 0,
            freezes: report.freezesBanked, strength: Int((report.strength * 100).rounded()))
    }

    /// Writes each habit event to the journal once: achievements, and freezes earned or used and streaks
    /// broken on yesterday or today (older ones come from back-filled logs: history, not news).
    func announceHabitNotices(_ report: StreakReport) {
        let now = dependencies.now()
        guard let today = try? today().day else { return }
        func announce(_ key: String, _ message: String, _ messageID: String, _ fields: [(String, String)]) {
            guard (try? dependencies.store.recordNotice(key, at: now)) == true else { return }
            dependencies.journal.send(message, priority: .notice, fields: [("MESSAGE_ID", messageID)] + fields)
        }
        for achievement in report.achievements {
            announce(
                "achievement:\(achievement.id.rawValue)", "Achievement unlocked: \(achievement.id.title) (+\(achievement.id.xp) XP)",
                MessageID.achievement, [("ACHIEVEMENT_ID", achievement.id.rawValue), ("ACHIEVEMENT_XP", String(achievement.id.xp))])
        }
        for event in report.freezeHistory where event.kind != .maxReached && event.date.dayNumber >= today - 1 {
            let earned = event.kind == .earned
            announce(
                "freeze-\(event.kind.rawValue):\(event.date)",
                earned ? "Streak freeze earned: \(event.streak)-day streak, \(event.banked) banked" : "Streak protected by a freeze on \(event.date): \(event.banked) left",
                earned ? MessageID.freezeEarned : MessageID.freezeUsed, [("STREAK_DAYS", String(event.streak)), ("FREEZES_BANKED", String(event.banked))])
        }
        if let broken = report.lastBreak, broken.missed.upperBound >= today - 1 {
            announce(
                "streak-broken:\(broken.missed.lowerBound)", "Streak broken after \(broken.streak.length) days",
                MessageID.streakBroken, [("STREAK_DAYS", String(broken.streak.length))])
        }
    }

    /// The built-in weekly rest check-in: added once, on the first start; the user may disable or remove it.
    func addBuiltInReminders() {
        guard (try? dependencies.store.recordNotice("builtin:rest-check-in", at: dependencies.now())) == true else { return }
        _ = try? add(name: Self.restCheckInName, rule: RuleSpec(weekly: "sun", at: "08:00"), timeZone: nil, enabled: true)
    }

    static let restCheckInName = "Planning a rest day this week?"

    /// The instant of `day`'s morning (the config's `morning`) in the habit zone.
    private func morning(of day: Int) throws(ServiceError) -> Instant {
        let zone = try zone(named: nil)
        return zone.resolve(localSeconds: Int64(day) * 86400 + Int64(dependencies.configuration.dayStart.secondsSinceMidnight)
            + Int64(dependencies.configuration.morning.secondsSinceMidnight))
    }

    /// Writes "Consider a rest day" once, from the morning after 6 active days in a row.
    func announceRestSuggestion() {
        guard let (now, today) = try? today(), let morning = try? morning(of: today), now.instant >= morning,
            let report = try? habitReport(), GoalStreak.suggestsRest(report, today: today),
            (try? dependencies.store.recordNotice("rest-suggestion:\(LocalDate(dayNumber: today))", at: now.instant)) == true
        else { return }
        dependencies.journal.send(
            "Consider a rest day: 6 active days in a row (rest is part of training; 'remindctl rest mark \(LocalDate(dayNumber: today))')",
            priority: .notice, fields: [("MESSAGE_ID", MessageID.restSuggestion)])
    }

    /// When the daemon must wake for the next rest suggestion: this morning or tomorrow's, or nil.
    /// Cached for the day; ``habitsChanged()`` drops the cache.
    func restSuggestionDeadline() -> Instant? {
        guard let (now, today) = try? today() else { return nil }
        if let cached = restDeadlineCache, cached.day == today, cached.deadline.map({ now.instant < $0 }) ?? true {
            return cached.deadline
        }
        guard let report = try? habitReport() else { return nil }
        var deadline: Instant?
        if GoalStreak.suggestsRest(report, today: today), let morning = try? morning(of: today), now.instant < morning {
            deadline = morning
        } else if ((today - 5)...today).allSatisfy({ report.days[$0] == .active }) {
            deadline = try? morning(of: today + 1)
        }
        restDeadlineCache = (today, deadline)
        return deadline
    }

    /// After anything that changes habit days (a log, a workout, a rest day, the recovery): announce what is
    /// new and forget the cached rest-suggestion wake-up.
    func habitsChanged() {
        restDeadlineCache = nil
        if let report = try? habitReport() { announceHabitNotices(report) }
        replan()
    }

    private static func value(_ run: StreakRun) -> StreakRunValue {
        StreakRunValue(length: run.length, start: run.start.description, end: run.end.description)
    }
}
