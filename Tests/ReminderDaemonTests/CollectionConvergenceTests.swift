import Foundation
import ReminderCore
import ReminderInterface
import SeededRandom
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Random operations on two devices (add, update, delete, log, done, skip, snooze, log delete), interleaved with
/// random syncs and time passing on one manual time: after a final sync both devices answer List, every day's
/// Occurrences and its logs the same, and every log made on either side (and not deleted) is there exactly once.
@Suite("Linked collection: convergence")
struct CollectionConvergenceTests {
    typealias Devices = CollectionSyncTests.Devices

    /// Eight seeds in `make test` (about 7 s); seeds 1 to 200 passed before folding, 1 to 60 with it. Doses entered late for
    /// September (a month folded into archives) and deleted from it fold on both devices at once between syncs.
    @Test(arguments: Array(1...8) as [UInt64])
    func twoDevicesConverge(seed: UInt64) async throws {
        var random = SeededGenerator(seed: seed)
        let devices = try await Devices(now: "2026-12-01T05:00:00Z")
        let both = [devices.laptop, devices.desktop]
        var names: [String] = []
        // Each log made and not deleted: its reminder and instant (a multiset: two devices may log the same second).
        var made: [String: Int] = [:]
        var deleted: [String: Int] = [:]
        let zone = "Europe/Berlin"

        for step in 0..<70 {
            let device = both[Int.random(in: 0...1, using: &random)]
            let name = names.randomElement(using: &random)
            let op = Int.random(in: 0..<14, using: &random)
            do {
                switch op {
                case 0, 1:
                    let new = "Goal \(step)"
                    let time = String(format: "%02d:%02d", Int.random(in: 6...22, using: &random), 15 * Int.random(in: 0...3, using: &random))
                    try await device.add(new, ["daily": true, "at": .string(time)], timeZone: zone, ["window": "1h", "repeat": "20m"])
                    names.append(new)
                case 2 where name != nil:
                    let time = String(format: "%02d:30", Int.random(in: 6...22, using: &random))
                    _ = try await device.call(Reminders.Update.self, .init(reminder: name!, rule: RuleSpec(daily: true, at: time)))
                case 3 where name != nil:
                    _ = try await device.call(Reminders.Remove.self, .init(reminder: name!))
                case 4 where name != nil:
                    let log = try await device.call(Reminders.Log.self, .init(reminder: name!)).log
                    made["\(log.reminderName) \(log.utc)", default: 0] += 1
                    await devices.advance(to: devices.laptop.clock.now().adding(seconds: 1).description)  // each log its own instant
                case 5 where name != nil:
                    let log = try await device.call(Reminders.Done.self, .init(reminder: name!)).log
                    made["\(log.reminderName) \(log.utc)", default: 0] += 1
                    await devices.advance(to: devices.laptop.clock.now().adding(seconds: 1).description)
                case 6 where name != nil:
                    _ = try await device.call(Reminders.Skip.self, .init(reminder: name!, reason: "step \(step)"))
                case 7 where name != nil:
                    _ = try await device.call(Reminders.Snooze.self, .init(reminder: name!, minutes: 10))
                case 8:
                    let logs = try await device.call(Reminders.Logs.self, .init(date: day(device))).logs
                    if let log = logs.randomElement(using: &random) {
                        _ = try await device.call(Reminders.DeleteLog.self, .init(id: log.id))
                        deleted["\(log.reminderName) \(log.utc)", default: 0] += 1
                    }
                case 9, 10:
                    try await devices.sync()
                case 11 where name != nil:
                    // A dose entered late for a day of September: its month is folded (more than 60 days old).
                    let at = String(format: "2026-09-%02dT%02d:%02d:00Z", Int.random(in: 1...30, using: &random), Int.random(in: 0...23, using: &random), step % 60)
                    let log = try await device.call(Reminders.Log.self, .init(reminder: name!, at: at)).log
                    made["\(log.reminderName) \(log.utc)", default: 0] += 1
                case 12:
                    let date = String(format: "2026-09-%02d", Int.random(in: 1...30, using: &random))
                    if let log = try await device.call(Reminders.Logs.self, .init(date: date)).logs.randomElement(using: &random) {
                        _ = try await device.call(Reminders.DeleteLog.self, .init(id: log.id))
                        deleted["\(log.reminderName) \(log.utc)", default: 0] += 1
                    }
                default:
                    await devices.advance(to: devices.laptop.clock.now().adding(seconds: Int64.random(in: 60...7200, using: &random)).description)
                }
            } catch is VarlinkError {
                // Refused as it would be for the user (nothing due to take or skip, a name gone on this device).
            }
        }
        for _ in 0..<4 {
            try await devices.sync()
            await devices.letRemovalsSettle()
        }
        #expect(try devices.link.sync() == 0, "a sync after the last still changed files")

        // What each device says, without what each numbers itself or keeps local (snoozes: `next`).
        func reminders(_ daemon: TestDaemon) async throws -> [ReminderValue] {
            try await daemon.ownReminders().map { reminder in
                var same = reminder
                same.next = nil
                return same
            }.sorted { $0.name < $1.name }
        }
        #expect(try await reminders(devices.laptop) == (try await reminders(devices.desktop)))
        var logsByDevice: [[String: Int]] = [[:], [:]]
        let last = LocalDate(dayNumber: try #require(ISO8601.parseDate(day(devices.laptop))).dayNumber + 1)
        var date = try #require(ISO8601.parseDate("2026-09-01"))
        while date <= last {
            var occurrences: [[String]] = []
            for (index, device) in both.enumerated() {
                let states = try await device.call(Reminders.Occurrences.self, .init(date: date.description)).occurrences
                    .filter { $0.reminderName.hasPrefix("Goal") }.map { "\($0.reminderName) \($0.utc) \($0.state) \($0.loggedUtc ?? "-")" }.sorted()
                occurrences.append(states)
                for log in try await device.call(Reminders.Logs.self, .init(date: date.description)).logs where log.reminderName.hasPrefix("Goal") {
                    logsByDevice[index]["\(log.reminderName) \(log.utc)", default: 0] += 1
                }
            }
            #expect(occurrences[0] == occurrences[1], "\(date)")
            date = LocalDate(dayNumber: date.dayNumber + 1)
        }
        #expect(logsByDevice[0] == logsByDevice[1])
        // Every log made and not deleted exists once (a log of a reminder deleted later went with it; a log
        // deleted on both devices before a sync was deleted once).
        let present = Set(try await reminders(devices.laptop).map(\.name))
        for (log, count) in made {
            let name = log.components(separatedBy: " ").dropLast().joined(separator: " ")
            guard present.contains(name) else { continue }
            #expect(logsByDevice[0][log, default: 0] == max(0, count - deleted[log, default: 0]), "\(log) made \(count) deleted \(deleted[log, default: 0])")
        }
    }

    private func day(_ daemon: TestDaemon) -> String {
        ISO8601.format(daemon.clock.now(), offsetSeconds: 0, zulu: true).prefix(10).description
    }
}
