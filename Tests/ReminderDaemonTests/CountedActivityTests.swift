import ReminderCore
import ReminderInterface
import SeededRandom
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// The habit answers come from activities counted per day, kept in memory and updated by each change, and the
/// per-goal streaks from each goal's settled days kept in memory (``SettledStreaks``). On random sequences of
/// retroactive edits (logs and workouts on past days, many around midnight for the grace period, deleted ones,
/// rest days, skips, a removed reminder, a changed rule, window or zone, the system zone changing, the
/// recovery, time passing and the clock going back), every answer equals what a full count from the raw
/// events gives: the same daemon restarted on the same store.
@Suite("Counted activities and settled streaks equal a full count")
struct CountedActivityTests {
    /// Everything that depends on the whole history.
    func answers(_ daemon: TestDaemon) async throws -> [JSONValue] {
        let now = daemon.clock.now()
        let zone = TimeZoneRules(identifier: "UTC", fixedOffset: 0)
        let today = LocalDate(dayNumber: zone.localDayNumber(at: now))
        let lastMonth = LocalDate(dayNumber: today.dayNumber - 31)
        func month(_ date: LocalDate) -> JSONValue { .string(String(date.description.prefix(7))) }
        return [
            try await daemon.call("List", as: JSONValue.self),
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
        try await daemon.add("Walk", ["weekly": "mon,wed,fri,sat", "at": "07:00"], timeZone: nil)
        let goals = ["Meds", "Drops", "Walk"]
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
                switch Int.random(in: 0..<18, using: &random) {
                case 0, 1, 2, 3:
                    let reminder = goals.randomElement(using: &random)!
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
                    let day = LocalDate(dayNumber: Int(daemon.clock.now().secondsSinceEpoch / 86400) + (Bool.random(using: &random) ? Int.random(in: -40...10, using: &random) : Int.random(in: -6...0, using: &random)))
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
                case 11:
                    _ = try? await daemon.call("Skip", ["reminder": .string(goals.randomElement(using: &random)!)])
                case 12:
                    let times = ["08:00", "08:00,20:00", "06:30,12:00,18:00"].randomElement(using: &random)!
                    let window = ["", "2h", "30m"].randomElement(using: &random)!
                    try await daemon.call("Update", ["reminder": "Meds", "rule": .object(["daily": true, "at": .string(times)]), "window": .string(window)])
                case 13:
                    let zone = ["UTC", "Asia/Tokyo", "America/Los_Angeles", ""].randomElement(using: &random)!
                    try await daemon.call("Update", ["reminder": "Drops", "timeZone": .string(zone)])
                case 14 where Int.random(in: 0..<3, using: &random) == 0:
                    await daemon.setSystemZone(["UTC", "Asia/Tokyo", "America/Los_Angeles"].randomElement(using: &random)!)
                case 16:
                    // Meds kept on each of the last days, whatever its times (a run that later edits can cut).
                    let today = daemon.clock.now().secondsSinceEpoch / 86400
                    for day in (today - Int64.random(in: 2...12, using: &random))..<today {
                        for minutes: Int64 in [6 * 60 + 31, 8 * 60 + 1, 12 * 60 + 1, 18 * 60 + 1, 20 * 60 + 1] {
                            let reply = try await daemon.call(
                                "Log", ["reminder": "Meds", "at": .string(Instant(secondsSinceEpoch: day * 86400 + minutes * 60).description)], as: LogReply.self)
                            logs.append((reply.log.id, "Meds"))
                        }
                    }
                case 15 where Int.random(in: 0..<3, using: &random) == 0:
                    await daemon.setClock(to: daemon.clock.now().adding(seconds: -Int64.random(in: 600...(3 * 86400), using: &random)))
                default:
                    await daemon.advance(by: Int64.random(in: 600...(30 * 3600), using: &random))
                }
            }
            let kept = try await answers(daemon)
            try await daemon.restart()
            let counted = try await answers(daemon)
            for (index, (kept, counted)) in zip(kept, counted).enumerated() where kept != counted {
                let (text, full) = (String(decoding: JSONWriter.write(kept), as: UTF8.self), String(decoding: JSONWriter.write(counted), as: UTF8.self))
                Issue.record("seed \(seed), step \(step), answer \(index): kept \(text)\nfull \(full)")
            }
            if kept != counted { return }
        }
    }
}
