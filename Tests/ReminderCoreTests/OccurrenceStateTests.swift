import ReminderCore
import Testing

@Suite("Occurrence states: taken, skipped, missed, suppressed, and windows")
struct OccurrenceStateTests {
    let ny: TimeZoneRules
    let twice: ReminderRule
    let day = LocalDate(year: 2026, month: 11, day: 23)!

    init() throws {
        ny = try zone("America/New_York")
        twice = try RuleSpec(daily: true, at: "08:00,20:00").makeRule()
    }

    func states(_ rule: ReminderRule? = nil, logs: [String] = [], skips: [String] = [], window: Int64? = nil, now: String) -> [OccurrenceState] {
        (rule ?? twice).states(
            on: day, in: ny, logs: logs.map(instant), skips: Set(skips.map(instant)), windowSeconds: window, now: instant(now)
        ).map(\.state)
    }

    @Test func timeAloneMovesUpcomingToDueToMissed() {
        #expect(states(now: "2026-11-23T07:59:59-05:00") == [.upcoming, .upcoming])
        #expect(states(now: "2026-11-23T08:00:00-05:00") == [.due, .upcoming])
        // The morning's window ends at the evening occurrence: superseded, it is missed.
        #expect(states(now: "2026-11-23T20:00:00-05:00") == [.missed, .due])
        // The evening's window ends at midnight, not at the next morning.
        #expect(states(now: "2026-11-23T23:59:59-05:00") == [.missed, .due])
        #expect(states(now: "2026-11-24T00:00:00-05:00") == [.missed, .missed])
    }

    @Test func aLogInTheWindowTakesTheOccurrence() {
        let statuses = twice.states(
            on: day, in: ny, logs: [instant("2026-11-23T08:20:00-05:00")], skips: [], windowSeconds: nil, now: instant("2026-11-24T01:00:00-05:00"))
        #expect(statuses.map(\.state) == [.taken, .missed])
        #expect(statuses[0].coveredBy == instant("2026-11-23T08:20:00-05:00"))
        #expect(statuses.map(\.windowEnd) == [instant("2026-11-23T20:00:00-05:00"), instant("2026-11-24T00:00:00-05:00")])
    }

    @Test func aLogBeforeTheInstantSuppressesItAsTheSuppressionRuleSays() {
        #expect(states(logs: ["2026-11-23T07:45:00-05:00"], now: "2026-11-23T21:00:00-05:00") == [.suppressed, .due])
        #expect(states(logs: ["2026-11-23T07:45:00-05:00", "2026-11-23T15:00:00-05:00"], now: "2026-11-23T21:00:00-05:00") == [.suppressed, .suppressed])
        // The other day's log counts for nothing.
        #expect(states(logs: ["2026-11-22T21:00:00-05:00"], now: "2026-11-23T09:00:00-05:00") == [.due, .upcoming])
    }

    /// `done` in the very second a dose was announced: `today` said "suppressed" (the log counted as before it),
    /// though the dose was announced and then taken. A log at its instant is in its window: taken.
    @Test func aLogInTheVerySecondOfTheOccurrenceTakesIt() {
        let statuses = twice.states(
            on: day, in: ny, logs: [instant("2026-11-23T08:00:00-05:00")], skips: [], windowSeconds: nil, now: instant("2026-11-23T08:00:00-05:00"))
        #expect(statuses.map(\.state) == [.taken, .upcoming])
        #expect(statuses[0].coveredBy == instant("2026-11-23T08:00:00-05:00"))
        // The firing, deciding in that second, still holds back for the log.
        let morning = twice.occurrences(on: day, in: ny)[0]
        #expect(twice.suppression(of: morning, logs: [instant("2026-11-23T08:00:00-05:00")], in: ny).reason != nil)
    }

    @Test func aSkipIsKeptUnlessALogTakesTheOccurrence() {
        #expect(states(skips: ["2026-11-23T08:00:00-05:00"], now: "2026-11-23T21:00:00-05:00") == [.skipped, .due])
        #expect(states(logs: ["2026-11-23T09:00:00-05:00"], skips: ["2026-11-23T08:00:00-05:00"], now: "2026-11-23T21:00:00-05:00")
            == [.taken, .due])
    }

    @Test func aWindowOfItsOwnEndsEarlierButNeverLaterThanTheNextOccurrence() {
        #expect(states(window: 7200, now: "2026-11-23T09:59:59-05:00") == [.due, .upcoming])
        #expect(states(window: 7200, now: "2026-11-23T10:00:00-05:00") == [.missed, .upcoming])
        // A log after the window closed does not take it back.
        #expect(states(logs: ["2026-11-23T10:30:00-05:00"], window: 7200, now: "2026-11-23T11:00:00-05:00") == [.missed, .upcoming])
        let daily = try! RuleSpec(daily: true, at: "08:00").makeRule()
        let long = daily.states(on: day, in: ny, logs: [], skips: [], windowSeconds: 20 * 3600, now: instant("2026-11-24T00:00:00-05:00"))
        #expect(long.map(\.windowEnd) == [instant("2026-11-24T00:00:00-05:00")])
    }

    /// On the day DST ends the local day is 25 hours long: the last window ends at the real midnight.
    @Test func theDayEndIsTheZonesMidnightAcrossADSTChange() throws {
        let evening = try RuleSpec(daily: true, at: "22:00").makeRule()
        let fallBack = LocalDate(year: 2026, month: 11, day: 1)!
        let statuses = evening.states(on: fallBack, in: ny, logs: [], skips: [], windowSeconds: nil, now: instant("2026-11-01T23:30:00-05:00"))
        #expect(statuses.map(\.windowEnd) == [instant("2026-11-02T00:00:00-05:00")])
        #expect(statuses.map(\.state) == [.due])
    }
}
