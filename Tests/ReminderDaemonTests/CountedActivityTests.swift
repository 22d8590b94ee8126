import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// The habit answers come from activities counted per day, kept in memory and updated by each change. On random
/// sequences of retroactive edits (logs and workouts on past days, many around midnight for the grace period,
/// deleted ones, rest days, a removed reminder, the recovery, time passing), every answer equals what a full
/// count from the raw events gives: the same daemon restarted on the same store.
@Suite("Counted activities equal a full count")
struct CountedActivityTests {
    /// Everything that depends on the whole history.
    func answers(_ daemon: TestDaemon) async throws -> [JSONValue] {
        let now = daemon.clock.now()
        let zone = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let today = LocalDate(dayNumber: zone.localDayNumber(at: now))
        let lastMonth = LocalDate(dayNumber: today.dayNumber - 31)
        func month(_ date: LocalDate) -> JSONValue { .string(String(date.description.prefix(7))) }
        return [
            try await daemon.call("Streak", as: JSONValue.self),
            try await daemon.call("Achievements", as: JSONValue.self),
            try await daemon.call("FreezeHistory", as: JSONValue.self),
            try await daemon.call("Calendar", ["month": month(today)], as: JSONValue.self),
            try await daemon.call("Calendar", ["month": month(lastMonth)], as: JSONValue.self),
        ]
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func keptCountsGiveWhatAFullCountGives(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let daemon = try await TestDaemon(now: instant("2026-03-01T12:00:00Z"))
        try await daemon.add("Meds", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await daemon.add("Drops", ["daily": true, "at": "21:00"], timeZone: "America/New_York")
        var logs: [(id: Int64, reminder: String)] = []
        var workouts: [Int64] = []
        /// A past instant within 40 days, half of them within 90 minutes of a UTC midnight.
        func pastInstant(_ generator: inout SeededGenerator) -> String {
            let now = daemon.clock.now().secondsSinceEpoch
            var at = now - Int64.random(in: 60...(40 * 86400), using: &generator)
            if Bool.random(using: &generator) {
                at = at - at % 86400 + Int64.random(in: -5400...5400, using: &generator)
            }
            return Instant(secondsSinceEpoch: min(at, now - 1)).description
        }
        for step in 0..<40 {
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<12, using: &random) {
                case 0, 1, 2, 3:
                    let reminder = Bool.random(using: &random) ? "Meds" : "Drops"
                    let reply = try await daemon.call("Log", ["reminder": .string(reminder), "at": .string(pastInstant(&random))], as: LogReply.self)
                    logs.append((reply.log.id, reminder))
                case 4 where !logs.isEmpty:
                    let log = logs.remove(at: Int.random(in: 0..<logs.count, using: &random))
                    try await daemon.call("DeleteLog", ["id": .number(Double(log.id))])
                case 5:
                    struct Reply: Decodable { let workout: LogEntryValue }
                    let reply = try await daemon.call(
                        "WorkoutAdd", ["exercise": "running", "minutes": 30, "intensity": "moderate", "at": .string(pastInstant(&random))], as: Reply.self)
                    workouts.append(reply.workout.id)
                case 6 where !workouts.isEmpty:
                    let id = workouts.remove(at: Int.random(in: 0..<workouts.count, using: &random))
                    try await daemon.call("WorkoutDelete", ["id": .number(Double(id))])
                case 7, 8:
                    let day = LocalDate(dayNumber: Int(daemon.clock.now().secondsSinceEpoch / 86400) + Int.random(in: -40...10, using: &random))
                    if Bool.random(using: &random) {
                        try await daemon.call("RestMark", ["from": .string(day.description)])
                    } else {
                        _ = try? await daemon.call("RestUnmark", ["date": .string(day.description)])
                    }
                case 9 where Int.random(in: 0..<4, using: &random) == 0:
                    try await daemon.call("Remove", ["reminder": "Drops"])
                    logs.removeAll { $0.reminder == "Drops" }
                    try await daemon.add("Drops", ["daily": true, "at": "21:00"], timeZone: "America/New_York")
                case 10 where Int.random(in: 0..<4, using: &random) == 0:
                    _ = try? await daemon.call("Recover")
                default:
                    await daemon.advance(by: Int64.random(in: 600...(30 * 3600), using: &random))
                }
            }
            let kept = try await answers(daemon)
            try await daemon.restart()
            let counted = try await answers(daemon)
            #expect(kept == counted, "seed \(seed), step \(step)")
            if kept != counted { return }
        }
    }
}
