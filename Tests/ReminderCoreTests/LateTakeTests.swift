import ReminderCore
import Testing

/// A plain log after a missed occurrence's window closed takes it late: before the next occurrence, within
/// 12 hours of the window's end, and only when it counts toward no suppression of a later occurrence.
@Suite struct LateTakeTests {
    static func late(_ spec: RuleSpec, window: Int64?, log: String, others: [String] = [], zone name: String = "UTC") throws -> Instant? {
        let rule = try spec.makeRule()
        return rule.lateTake(
            by: instant(log), in: try zone(name), logs: others.map(instant), skips: [], takenLate: [:], windowSeconds: window,
            createdAt: instant("2026-01-01T00:00:00Z"))?.occurrence.instant
    }

    @Test func aLogAfterTheWindowTakesTheMissedOccurrenceLate() throws {
        let daily = RuleSpec(daily: true, at: "08:00")
        #expect(try Self.late(daily, window: 7200, log: "2026-12-01T10:30:00Z") == instant("2026-12-01T08:00:00Z"))
        // In its window: taken, not late; more than 12 hours after the window: a log.
        #expect(try Self.late(daily, window: 7200, log: "2026-12-01T09:30:00Z") == nil)
        #expect(try Self.late(daily, window: 7200, log: "2026-12-01T22:30:00Z") == nil)
        #expect(try Self.late(daily, window: 7200, log: "2026-12-01T21:59:00Z") == instant("2026-12-01T08:00:00Z"))
        // Taken in its window already: nothing is missed to take late.
        #expect(try Self.late(daily, window: 7200, log: "2026-12-01T10:30:00Z", others: ["2026-12-01T08:05:00Z"]) == nil)
    }

    @Test func twiceADayTheMorningIsTakenLateAndTheEveningStaysDue() throws {
        let twice = RuleSpec(daily: true, at: "08:00,20:00")
        #expect(try Self.late(twice, window: 7200, log: "2026-12-01T10:30:00Z") == instant("2026-12-01T08:00:00Z"))
        // The evening's window closed at 22:00: a log at 23:00 takes it late; one the next morning after 08:00 is that day's.
        #expect(try Self.late(twice, window: 7200, log: "2026-12-01T23:00:00Z") == instant("2026-12-01T20:00:00Z"))
        #expect(try Self.late(twice, window: 7200, log: "2026-12-02T08:30:00Z") == nil)
    }

    @Test func aLogThatCoversALaterOccurrenceIsThatOnes() throws {
        // Without a window a daily dose's window ends at midnight: a log at 00:30 covers the next day's 22:00
        // (logged ahead), as the suppression rule says; it does not take yesterday's late.
        #expect(try Self.late(RuleSpec(daily: true, at: "22:00"), window: nil, log: "2026-12-02T00:30:00Z") == nil)
    }

    @Test func aReminderCountedFromTheLastDoseHasNoLateTakes() throws {
        let every = RuleSpec(every: "8h", start: "2026-12-01T06:00", fromLastDose: true)
        #expect(try Self.late(every, window: 3600, log: "2026-12-01T08:00:00Z") == nil)
    }
}
