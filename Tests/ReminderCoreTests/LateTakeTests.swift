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

    /// Matching a store's logs at once gives what matching each when it was logged gave: compared, over 30 days
    /// of pseudo-random logs (on time, late, early, missing, twice) of three rules, with a plain loop over the
    /// logs that weighs each with every other log (the old way: minutes for 30,000 logs a minute apart).
    @Test(arguments: [("08:00", Int64?(7200)), ("08:00,20:00", Int64?(7200)), ("09:00,13:00,21:00", Int64?(3600))], [UInt64(0x9E37_79B9_7F4A_7C15), 7, 2026])
    func matchingAStoresLogsAtOnceIsMatchingEachWhenLogged(at rule: (times: String, window: Int64?), seed start: UInt64) throws {
        let (times, window) = rule
        let rule = try RuleSpec(daily: true, at: times).makeRule()
        let zone = try zone("Europe/Berlin")
        var seed = start
        func next(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(seed >> 33) % bound
        }
        var logs: [Instant] = []
        for occurrence in rule.occurrences(after: instant("2026-11-01T00:00:00Z"), count: 30 * times.split(separator: ",").count, in: zone) {
            switch next(6) {
            case 0: continue  // missed, never taken
            case 1: logs.append(occurrence.instant.adding(seconds: Int64(3 * 3600 + next(4 * 3600))))  // late
            case 2: logs.append(occurrence.instant.adding(seconds: -Int64(next(3600))))  // a little early
            case 3: logs += [occurrence.instant.adding(seconds: 60), occurrence.instant.adding(seconds: Int64(5 * 3600))]  // twice
            default: logs.append(occurrence.instant.adding(seconds: Int64(next(1800))))  // on time
            }
        }
        logs.sort()
        let created = instant("2026-10-01T00:00:00Z")
        var expected: [Int: Instant] = [:]
        var late: [Instant: Instant] = [:]
        for (index, log) in logs.enumerated() {
            let others = logs.indices.filter { $0 != index && expected[$0] == nil }.map { logs[$0] }
            if let status = rule.lateTake(by: log, in: zone, logs: others, skips: [], takenLate: late, windowSeconds: window, createdAt: created) {
                expected[index] = status.occurrence.instant
                late[status.occurrence.instant] = log
            }
        }
        #expect(!expected.isEmpty)
        #expect(rule.lateTakes(among: logs, in: zone, skips: [], takenLate: [:], windowSeconds: window, createdAt: created) == expected)
    }
}

