import HabitCore
import ReminderCore
import Testing

/// Every rule of the README's habit section, over event sequences with explicit dates (UTC, noon activities).
@Suite("Streaks")
struct StreakEngineTests {
    /// Day n of the test calendar: 2026-03-01 + n - 1 (day 1 is a Sunday).
    static func date(_ n: Int) -> LocalDate { LocalDate(dayNumber: LocalDate(year: 2026, month: 3, day: 1)!.dayNumber + n - 1) }

    static func at(_ n: Int, hour: Int = 12, minute: Int = 0) -> Activity {
        Activity(instant: Instant(secondsSinceEpoch: Int64(date(n).dayNumber) * 86400 + Int64(hour * 3600 + minute * 60)), offsetSeconds: 0)
    }

    func report(active: [Int], rest: [Int] = [], recovered: ClosedRange<Int>? = nil, today: Int, hour: Int = 20, rules: DayRules = DayRules()) -> StreakReport {
        StreakEngine.report(
            activities: active.map { Self.at($0) }, restDays: rest.map { RestDay(date: Self.date($0), reason: .recovery) },
            recovered: recovered.map { Self.date($0.lowerBound).dayNumber...Self.date($0.upperBound).dayNumber },
            now: Self.at(today, hour: hour), rules: rules)
    }

    @Test func streakCountsBackFromToday() {
        let r = report(active: [1, 2, 3, 4, 5], today: 5)
        #expect(r.current?.length == 5)
        #expect(r.current?.start == Self.date(1))
    }

    @Test func openTodayDoesNotBreakTheStreak() {
        let r = report(active: [1, 2, 3], today: 4)
        #expect(r.state(of: Self.date(4)) == .open)
        #expect(r.current?.length == 3)
        #expect(r.mustLogBy == Self.date(4))
    }

    @Test func restDaysKeepAndExtendTheStreak() {
        let r = report(active: [1, 2, 4, 5], rest: [3], today: 5)
        #expect(r.state(of: Self.date(3)) == .rest)
        #expect(r.current?.length == 5)
        // A rest day today counts as well.
        #expect(report(active: [1, 2], rest: [3], today: 3).current?.length == 3)
    }

    @Test func aMissedDayWithoutFreezesBreaksTheStreak() {
        let r = report(active: [1, 2, 3, 5, 6], today: 6)
        #expect(r.state(of: Self.date(4)) == .missed)
        #expect(r.current?.length == 2)
        #expect(r.best?.length == 3)
        #expect(r.lastBreak?.streak.length == 3)
    }

    @Test func aFreezeIsEarnedEverySeventhDayThroughActiveOrRestDays() {
        let r = report(active: Array(1...13), rest: [14], today: 14)
        #expect(r.freezesBanked == 2)
        #expect(r.freezeHistory.map(\.kind) == [.earned, .earned])
        #expect(r.freezeHistory.map(\.date) == [Self.date(7), Self.date(14)])
    }

    @Test func missingDay15OfA14DayStreakThenLoggingDay16GivesA16DayStreak() {
        let r = report(active: Array(1...14) + [16], today: 16)
        #expect(r.state(of: Self.date(15)) == .frozen)
        #expect(r.current?.length == 16)
        #expect(r.freezesBanked == 1)
        #expect(r.freezeHistory.last?.kind == .used)
    }

    @Test func twoMissedDaysBreakTheStreakEvenWithFreezes() {
        let r = report(active: Array(1...14) + [17], today: 17)
        #expect(r.state(of: Self.date(15)) == .missed && r.state(of: Self.date(16)) == .missed)
        #expect(r.current?.length == 1)
        // Freezes are not lost when a streak breaks.
        #expect(r.freezesBanked == 2)
    }

    @Test func atMostFiveFreezesAreBanked() {
        let r = report(active: Array(1...42), today: 42)
        #expect(r.freezesBanked == 5)
        #expect(r.freezeHistory.last?.kind == .maxReached)
        #expect(r.freezeHistory.filter { $0.kind == .earned }.count == 5)
    }

    @Test func aRetroactiveLogRefundsTheFreeze() {
        let frozen = report(active: Array(1...7) + [9], today: 9)
        #expect(frozen.state(of: Self.date(8)) == .frozen && frozen.freezesBanked == 0)
        let logged = report(active: Array(1...9), today: 9)
        #expect(logged.state(of: Self.date(8)) == .active && logged.freezesBanked == 1)
    }

    @Test func aMissedYesterdayIsCoveredWhenTodayIsLogged() {
        // Yesterday missed, today still open, a freeze in the bank: the streak is alive until tonight.
        let r = report(active: Array(1...7), today: 9)
        #expect(r.current?.length == 7)
        #expect(r.mustLogBy == Self.date(9))
    }

    @Test func graceHourCountsForThePreviousDayWhenItHasNoActivity() {
        let rules = DayRules()
        let late = StreakEngine.report(
            activities: [Self.at(1), Self.at(3, hour: 0, minute: 30)], restDays: [], recovered: nil, now: Self.at(3, hour: 20), rules: rules)
        #expect(late.state(of: Self.date(2)) == .active)
        // Day 2 had its own activity: a 00:30 log stays on day 3.
        let own = StreakEngine.report(
            activities: [Self.at(2), Self.at(3, hour: 0, minute: 30)], restDays: [], recovered: nil, now: Self.at(3, hour: 20), rules: rules)
        #expect(own.state(of: Self.date(3)) == .active)
        // After the grace hour it counts for its own day.
        let after = StreakEngine.report(
            activities: [Self.at(1), Self.at(3, hour: 1, minute: 30)], restDays: [], recovered: nil, now: Self.at(3, hour: 20), rules: rules)
        #expect(after.state(of: Self.date(2)) == .missed)
    }

    @Test func dayStartMovesTheBoundaryForNightShifts() {
        let rules = DayRules(dayStart: TimeOfDay(hour: 4, minute: 0)!, graceSeconds: 0)
        let r = StreakEngine.report(
            activities: [Self.at(1), Self.at(3, hour: 3)], restDays: [], recovered: nil, now: Self.at(3, hour: 20), rules: rules)
        #expect(r.state(of: Self.date(2)) == .active)  // 03:00 on day 3 belongs to day 2
    }

    @Test func manualRecoveryRestoresTheMostRecentBreakOnce() {
        let broken = report(active: Array(1...5) + [8, 9], today: 9)
        #expect(broken.current?.length == 2)
        let missed = broken.lastBreak!.missed
        #expect(missed == Self.date(6).dayNumber...Self.date(7).dayNumber)
        let restored = StreakEngine.report(
            activities: (Array(1...5) + [8, 9]).map { Self.at($0) }, restDays: [], recovered: missed, now: Self.at(9, hour: 20))
        #expect(restored.current?.length == 9)
        #expect(restored.state(of: Self.date(6)) == .recovered)
        #expect(restored.recoveryUsed)
        #expect(restored.achievements.map(\.id).contains(.secondChance))
        // It does not restore freezes: none were banked, none appear.
        #expect(restored.freezesBanked == 0)
    }

    @Test func achievementsUnlockOnce() {
        // Mon 2 .. Sun 8: 5 active days and a rest day in one week; 10 active days then a rest day later.
        let r = report(active: [2, 3, 4, 5, 6] + Array(9...18), rest: [7, 19], today: 19)
        let ids = r.achievements.map(\.id)
        #expect(ids.filter { $0 == .firstRestDay }.count == 1)
        #expect(r.achievements.first { $0.id == .firstRestDay }?.date == Self.date(7))
        #expect(ids.contains(.balancedWeek))
        #expect(r.achievements.first { $0.id == .restAdvocate }?.date == Self.date(19))
        #expect(ids.contains(.firstFreeze))
        #expect(!ids.contains(.freezeSaver))
        #expect(report(active: Array(1...35), today: 35).achievements.map(\.id).contains(.freezeSaver))
    }

    @Test func strengthDropsALittleForOneMissedDayAndRestLeavesItUnchanged() {
        let steady = report(active: Array(1...30), today: 30).strength
        let oneMiss = report(active: Array(1...29) + [30], today: 31, hour: 23).strength
        let missed = report(active: Array(1...30), today: 31, hour: 23)
        #expect(steady > 0.7 && steady < 1)
        #expect(missed.state(of: Self.date(31)) == .open)
        #expect(oneMiss == steady)
        let withRest = report(active: Array(1...29), rest: [30], today: 30).strength
        #expect(withRest == report(active: Array(1...29), today: 29).strength)
        // Day 6 missed before any freeze was earned: visible, but not a catastrophe.
        let gap = report(active: Array(1...5) + Array(7...30), today: 30).strength
        #expect(gap < steady && gap > steady * 0.95)
    }

    @Test func futureRestDaysDoNotCountYet() {
        let r = report(active: [1, 2], rest: [10], today: 3)
        #expect(r.days[Self.date(10).dayNumber] == nil)
        #expect(!r.achievements.map(\.id).contains(.firstRestDay))
    }
}

@Suite("Per-goal streaks and rest suggestions")
struct GoalStreakTests {
    let utc = TimeZoneRules(identifier: "UTC", fixedOffset: 0)

    func noon(_ n: Int, hour: Int = 12) -> Instant {
        Instant(secondsSinceEpoch: Int64(StreakEngineTests.date(n).dayNumber) * 86400 + Int64(hour * 3600))
    }

    func day(_ n: Int) -> Int { StreakEngineTests.date(n).dayNumber }

    func streak(
        _ rule: ReminderRule, logs: [Instant], skips: Set<Instant> = [], restDays: Set<Int> = [], created: Int = 1, now: Instant
    ) -> Int {
        GoalStreak.length(
            rule: rule, zone: utc, logs: logs.sorted(), skips: skips, windowSeconds: nil, restDays: restDays,
            createdAt: Instant(secondsSinceEpoch: Int64(day(created)) * 86400), now: now)
    }

    @Test func weeklyGoalIgnoresItsOtherDays() throws {
        // Day 2 is a Monday; a Monday goal logged on three Mondays in a row (ahead of its 09:00: suppressed).
        let rule = try RuleSpec(weekly: "mon", at: "09:00").makeRule()
        #expect(streak(rule, logs: [2, 9, 16].map { noon($0, hour: 8) }, now: noon(20)) == 3)
        // A Monday without a log: that occurrence is missed, and it breaks the streak.
        #expect(streak(rule, logs: [2, 16].map { noon($0) }, now: noon(20)) == 1)
    }

    @Test func everyOccurrenceOfTheDayMustBeTakenOrSkipped() throws {
        let rule = try RuleSpec(daily: true, at: "08:00,20:00").makeRule()
        let twice = [1, 2, 3].flatMap { [noon($0, hour: 8), noon($0, hour: 21)] }
        #expect(streak(rule, logs: twice, now: noon(3, hour: 23)) == 3)
        let onceOnDay2 = twice.filter { $0 != noon(2, hour: 21) }
        #expect(streak(rule, logs: onceOnDay2, now: noon(3, hour: 23)) == 1)
        // Day 2's evening dose skipped instead: neutral, the day still counts for its morning dose.
        #expect(streak(rule, logs: onceOnDay2, skips: [noon(2, hour: 20)], now: noon(3, hour: 23)) == 3)
    }

    @Test func aSkippedDayIsNeutralAndAMissedOneBreaks() throws {
        let rule = try RuleSpec(daily: true, at: "08:00").makeRule()
        let logs = [1, 2, 4].map { noon($0) }
        #expect(streak(rule, logs: logs, skips: [noon(3, hour: 8)], now: noon(4, hour: 23)) == 3)
        #expect(streak(rule, logs: logs, now: noon(4, hour: 23)) == 1)
    }

    @Test func restDaysAndAnOpenTodayAreNeutralButMissedTodayBreaks() throws {
        let rule = try RuleSpec(daily: true, at: "08:00,20:00").makeRule()
        let logs = [1, 2, 4].flatMap { [noon($0, hour: 9), noon($0, hour: 21)] }
        // Day 5 at 07:00: both of today's doses are ahead.
        #expect(streak(rule, logs: logs, restDays: [day(3)], now: noon(5, hour: 7)) == 3)
        // Day 5 at 12:00, the morning dose taken, the evening one ahead: today does not count yet.
        #expect(streak(rule, logs: logs + [noon(5, hour: 9)], restDays: [day(3)], now: noon(5, hour: 12)) == 3)
        // Day 5 at 21:00 with the morning dose missed (its window closed at 20:00): the streak is broken today.
        #expect(streak(rule, logs: logs, restDays: [day(3)], now: noon(5, hour: 21)) == 0)
    }

    @Test func occurrencesBeforeTheGoalWasCreatedDoNotBreakIt() throws {
        let rule = try RuleSpec(daily: true, at: "08:00,20:00").makeRule()
        let created = Instant(secondsSinceEpoch: Int64(day(3)) * 86400 + 12 * 3600)  // day 3 at noon
        let logs = [noon(3, hour: 21), noon(4, hour: 8), noon(4, hour: 21)]
        #expect(GoalStreak.length(rule: rule, zone: utc, logs: logs, skips: [], windowSeconds: nil, restDays: [], createdAt: created, now: noon(4, hour: 23)) == 2)
    }

    @Test func restIsSuggestedAfterSixActiveDays() {
        let activities = (1...6).map { Activity(instant: noon($0), offsetSeconds: 0) }
        let report = StreakEngine.report(activities: activities, restDays: [], recovered: nil, now: Activity(instant: noon(7, hour: 8), offsetSeconds: 0))
        #expect(GoalStreak.suggestsRest(report, today: day(7)))
        let withRest = StreakEngine.report(
            activities: activities.dropLast(), restDays: [RestDay(date: StreakEngineTests.date(6), reason: .busyDay)], recovered: nil,
            now: Activity(instant: noon(7, hour: 8), offsetSeconds: 0))
        #expect(!GoalStreak.suggestsRest(withRest, today: day(7)))
    }
}

