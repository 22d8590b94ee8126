import Foundation
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
            recovered: recovered.map { Recovery(days: Self.date($0.lowerBound).dayNumber...Self.date($0.upperBound).dayNumber, usedOn: Self.date(today).dayNumber) },
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
            activities: (Array(1...5) + [8, 9]).map { Self.at($0) }, restDays: [], recovered: Recovery(days: missed, usedOn: Self.date(9).dayNumber),
            now: Self.at(9, hour: 20))
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
            createdAt: Instant(secondsSinceEpoch: Int64(day(created)) * 86400), now: now
        ).length
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
        #expect(GoalStreak.length(rule: rule, zone: utc, logs: logs, skips: [], windowSeconds: nil, restDays: [], createdAt: created, now: noon(4, hour: 23)).length == 2)
    }

    /// A day paused throughout (`remindctl pause`) neither breaks nor extends the streak; a dose taken on a day
    /// partly paused counts it.
    @Test func aPausedDayNeitherBreaksNorExtendsTheStreak() throws {
        let rule = try RuleSpec(daily: true, at: "08:00").makeRule()
        let logs = [1, 2, 3, 6, 7].map { noon($0, hour: 8) }
        let pauses = PauseSettings(spans: [PauseSpan(from: noon(4, hour: 0), until: noon(6, hour: 0), reason: "hospital")])
        func length(_ pauses: PauseSettings) -> Int {
            GoalStreak.length(
                rule: rule, zone: utc, logs: logs, skips: [], windowSeconds: nil, restDays: [], createdAt: Instant(secondsSinceEpoch: Int64(day(1)) * 86400),
                now: noon(7, hour: 12), pauses: pauses
            ).length
        }
        #expect(length(PauseSettings()) == 2, "unpaused, days 4 and 5 are missed")
        #expect(length(pauses) == 5, "paused, days 4 and 5 are neutral: days 1-3, 6 and 7")
    }

    @Test func aSettledStreakPassedOnGivesWhatTheFullWalkGives() throws {
        let rule = try RuleSpec(daily: true, at: "08:00,20:00").makeRule()
        let logs = (1...30).filter { $0 != 8 && $0 != 21 }.flatMap { [noon($0, hour: 8), noon($0, hour: 20)] }
        let skips: Set<Instant> = [noon(21, hour: 8), noon(21, hour: 20)]
        let created = Instant(secondsSinceEpoch: Int64(day(1)) * 86400)
        var settled: GoalStreak.Settled?
        for hour in stride(from: 10 * 24, through: 32 * 24, by: 7) {
            let now = Instant(secondsSinceEpoch: Int64(day(1)) * 86400 + Int64(hour) * 3600)
            let full = GoalStreak.length(
                rule: rule, zone: utc, logs: logs.filter { $0 <= now }, skips: skips, windowSeconds: nil, restDays: [day(15)], createdAt: created, now: now)
            // Only the logs after the settled days, as the daemon reads them.
            let unsettled = logs.filter { log in log <= now && settled.map { utc.localDayNumber(at: log) > $0.through } ?? true }
            let chained = GoalStreak.length(
                rule: rule, zone: utc, logs: unsettled, skips: skips, windowSeconds: nil, restDays: [day(15)], createdAt: created, now: now,
                settled: settled)
            #expect(chained.length == full.length, "at hour \(hour)")
            settled = chained.settled
        }
        // The last count, on day 32 at 19:00: its 08:00 dose is missed, and so were day 31's, which settled at 0.
        #expect(settled == GoalStreak.Settled(through: day(31), kept: 0, firstDay: day(1)))
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

/// The README's habit rules where an independent implementation disagreed with remindd (issue 11): each with the
/// example that shows it.
@Suite("Habit rules, as the README states them")
struct HabitRuleTests {
    typealias T = StreakEngineTests
    func day(_ n: Int) -> Int { T.date(n).dayNumber }

    func report(_ activities: [Activity], rest: [Int] = [], recovered: Recovery? = nil, now: Activity, rules: DayRules = DayRules()) -> StreakReport {
        StreakEngine.report(
            activities: activities, restDays: rest.map { RestDay(date: T.date($0), reason: .recovery) }, recovered: recovered, now: now, rules: rules)
    }

    /// 1. Day 2's only activity (00:30 on day 3) counts for day 2, so day 3 has none of its own, and 00:20 on
    /// day 4 counts for day 3: grace chains.
    @Test func graceChains() {
        let r = report([T.at(1), T.at(3, hour: 0, minute: 30), T.at(4, hour: 0, minute: 20)], now: T.at(4, hour: 20))
        #expect([2, 3].map { r.state(of: T.date($0)) } == [.active, .active])
        #expect(r.current?.length == 3)
    }

    /// 2. Grace never moves activity onto a rest day (its own day would be missed and the streak broken) nor
    /// onto a day a freeze covers.
    @Test func graceOnlyForADayThatWouldOtherwiseBeMissed() {
        let r = report([T.at(1), T.at(3, hour: 0, minute: 30)], rest: [2], now: T.at(4, hour: 20))
        #expect([2, 3].map { r.state(of: T.date($0)) } == [.rest, .active])
        #expect(r.current?.length == 3)
        // Days 1-7 earn a freeze; day 8 has nothing, day 9's 00:30 log stays on day 9 and the freeze covers day 8.
        let frozen = report(Array(1...7).map { T.at($0) } + [T.at(9, hour: 0, minute: 30)], now: T.at(9, hour: 20))
        #expect([8, 9].map { frozen.state(of: T.date($0)) } == [.frozen, .active])
        // Without a streak (so no freeze applies) the same log counts for the day before.
        let alone = report([T.at(9, hour: 0, minute: 30)], now: T.at(9, hour: 20))
        #expect(alone.state(of: T.date(8)) == .active)
    }

    /// Two days without activity, then one log at 00:14 the next morning, with two freezes banked: the log counts
    /// once, for day 16 (grace), and one freeze covers day 15. Before, it also stayed on day 17 for day 16 to be
    /// frozen as well: both days frozen by one log, two freezes spent, where "two missed days in a row break it".
    @Test func oneGraceLogAfterTwoEmptyDaysCountsOnceAndSpendsOneFreeze() {
        let r = report([T.at(17, hour: 0, minute: 14)], rest: Array(1...14), now: T.at(17, hour: 20))
        #expect([15, 16, 17].map { r.state(of: T.date($0)) } == [.frozen, .active, .open])
        #expect(r.freezesBanked == 1)
        #expect(r.current?.length == 16)
    }

    /// The history: 7 rest days earn a freeze, day 8 has nothing, day 9 only a log at 00:30 on day 10
    /// (which counts for day 9), day 10 one at 10:00. The freeze covers day 8 ("a single missed day between two
    /// streak days uses one automatically"): 10 days, not 2 with day 8 missed and the freeze still banked.
    @Test func aFreezeCoversTheDayBeforeADayActiveOnlyThroughGrace() {
        let r = report([T.at(10, hour: 0, minute: 30), T.at(10, hour: 10)], rest: Array(1...7), now: T.at(10, hour: 20))
        #expect([8, 9, 10].map { r.state(of: T.date($0)) } == [.frozen, .active, .active])
        #expect(r.current?.length == 10)
        #expect(r.freezesBanked == 0)
    }

    /// 3. The grace period is elapsed time after the day ends. America/Havana's clocks go from 01:00 back to
    /// 00:00 on 2026-11-01: 00:30 the second time is 90 real minutes after midnight, past a one-hour grace.
    /// On 2026-03-08 they jump from 00:00 to 01:00: 01:30 is 30 real minutes after the day began.
    @Test func graceIsElapsedTimeAcrossDSTChanges() throws {
        let havana = try TimeZoneRules(identifier: "America/Havana", tzif: try readZoneFile("America/Havana"))
        let rules = DayRules()
        func local(_ text: String, secondPass: Bool = false) -> Activity {
            var instant = havana.resolve(ISO8601.parseDateTime(text)!)
            if secondPass { instant = instant.adding(seconds: 3600) }
            return Activity(instant: instant, zone: havana, rules: rules)
        }
        let fallBack = StreakEngine.report(
            activities: [local("2026-10-30T12:00:00"), local("2026-11-01T00:30:00", secondPass: true)], restDays: [], recovered: nil,
            now: local("2026-11-01T20:00:00"), rules: rules)
        #expect(fallBack.state(of: LocalDate(year: 2026, month: 10, day: 31)!) == .missed)
        let springForward = StreakEngine.report(
            activities: [local("2026-03-06T12:00:00"), local("2026-03-08T01:30:00")], restDays: [], recovered: nil,
            now: local("2026-03-08T20:00:00"), rules: rules)
        #expect(springForward.state(of: LocalDate(year: 2026, month: 3, day: 7)!) == .active)
    }

    /// 4. A marked rest day is a rest day for Recovery Mode, Balanced Week and Rest Advocate even when a walk
    /// is logged on it.
    @Test func aMarkedRestDayWithActivityIsStillARestDayForAchievements() {
        // Days 2-6 (Mon-Fri) active, Saturday 7 a rest day with a log on it; days 8-17 active, 18 rest with a log.
        let r = report((Array(2...17) + [18]).map { T.at($0) }, rest: [7, 18], now: T.at(18, hour: 20))
        let earned = Dictionary(uniqueKeysWithValues: r.achievements.map { ($0.id, $0.date) })
        #expect(earned[.firstRestDay] == T.date(7))
        #expect(earned[.balancedWeek] == T.date(7))
        #expect(earned[.restAdvocate] == T.date(18))
    }

    /// 5. Second Chance is dated the day `recover` ran; Balanced Week the day its week first met the condition.
    @Test func achievementsAreDatedTheDayTheyAreEarned() {
        let r = report((Array(1...5) + [8, 9]).map { T.at($0) }, recovered: Recovery(days: day(6)...day(7), usedOn: day(9)), now: T.at(10))
        #expect(r.achievements.first { $0.id == .secondChance }?.date == T.date(9))
        // Monday 2 is a rest day; Monday-Friday... active days 3-7 make five by Saturday 7, not Sunday 8.
        let week = report(Array(3...8).map { T.at($0) }, rest: [2], now: T.at(9))
        #expect(week.achievements.first { $0.id == .balancedWeek }?.date == T.date(7))
    }

    /// 6. "Log something by" counts planned rest days: they keep and extend the streak.
    @Test func logSomethingByCountsPlannedRestDays() {
        // Active days 1-3 (no freeze yet), today 3 done; 4 and 5 planned rest: log by day 6.
        #expect(report((1...3).map { T.at($0) }, rest: [4, 5], now: T.at(3)).mustLogBy == T.date(6))
        // With a freeze banked (days 1-7), day 8 may be missed when day 9 is a rest day, and then day 10 is needed.
        #expect(report((1...7).map { T.at($0) }, rest: [9], now: T.at(7)).mustLogBy == T.date(10))
        #expect(report((1...7).map { T.at($0) }, now: T.at(7)).mustLogBy == T.date(9))
    }

    /// 7. `recover` restores the most recently broken streak while yesterday is missed and a banked freeze
    /// covers it once today is logged.
    @Test func recoveryStaysAvailableWhileAFreezeCoversYesterday() {
        // 1-3 active, 4-5 missed (broken), 6-12 active (a freeze earned at 7 days), 13 missed, today 14 open.
        let r = report((Array(1...3) + Array(6...12)).map { T.at($0) }, now: T.at(14))
        #expect(r.current?.length == 7 && r.mustLogBy == T.date(14))
        #expect(r.lastBreak?.missed == day(4)...day(5))
        #expect(r.lastBreak?.streak.length == 3)
    }
}

/// A zone file of the machine's tz database.
func readZoneFile(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: "/usr/share/zoneinfo/" + name)))
}
