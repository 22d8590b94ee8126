import Foundation
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// One hostile value in each column of each table of a real backup: every import is refused with the place of
/// the bad value and nothing changed, or the store it makes is harmless through a restart and every read.
/// Before, 47 of 585 such backups crashed the daemon during the import, 30 at every start after it.
@Suite("Backup: a hostile value in every column", .serialized)
struct BackupSweepTests {
    static let hostile: [JSONValue] = [.null, .number(-9.223372036854775808e18), .number(9.2e18), .number(1e300), .number(-1), .number(0), .string("x")]

    /// A backup of a store with a row in every table.
    static func sample(in directory: String) async throws -> (backup: [String: JSONValue], now: Instant) {
        let start = Instant(secondsSinceEpoch: 1_772_323_200)  // 2026-03-01T00:00:00Z
        let daemon = try await TestDaemon(now: start)
        try await daemon.add("Pills", ["daily": true, "at": "08:00"], timeZone: "UTC", ["window": "2h", "repeat": "10m"])
        await daemon.advance(to: start.adding(seconds: 8 * 3600 + 60))
        try await daemon.call("Snooze", ["reminder": "Pills", "minutes": 10])
        await daemon.advance(to: start.adding(seconds: 86400 + 11 * 3600))  // the first day's occurrence is missed
        try await daemon.call("Log", ["reminder": "Pills"])
        try await daemon.call("Skip", ["reminder": "Pills", "reason": "away"])
        try await daemon.call("WorkoutAdd", ["exercise": "running", "minutes": 30, "intensity": "moderate"])
        try await daemon.call("FoodAdd", ["name": "Oatmeal", "kcal": 350])
        try await daemon.call("RestMark", ["from": "2026-03-05", "reason": "Travel"])
        try await daemon.call("ProfileSet", ["weight": "82kg"])
        let backup = try await daemon.exportBackup()
        return (backup, daemon.clock.now())
    }

    @Test func eachHostileValueIsRefusedWithItsPlaceOrIsHarmless() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-sweep-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let (backup, now) = try await Self.sample(in: directory)
        guard case .object(let tables)? = backup["tables"] else { throw CancellationError() }
        var cases: [(what: String, file: [String: JSONValue])] = []
        for (table, rows) in tables.sorted(by: { $0.key < $1.key }) {
            guard case .array(let rows) = rows, case .object(let first)? = rows.first else { continue }
            for column in first.keys.sorted() where column != "id" {
                for value in Self.hostile where value != first[column] {
                    var row = first
                    row[column] = value
                    var changed = tables
                    changed[table] = .array([.object(row)] + rows.dropFirst())
                    var file = backup
                    file["tables"] = .object(changed)
                    cases.append(("\(table).\(column) = \(value)", file))
                }
            }
        }
        // Each case on a daemon of its own, four at a time (one after another, this was the test run's longest).
        var refused = 0, harmless = 0
        try await withThrowingTaskGroup(of: Bool.self) { group in
            func run(_ index: Int) {
                let (what, file) = cases[index]
                group.addTask {
                    let path = directory + "/case-\(index).json"
                    try Data(VarlinkWire.encode(JSONValue.object(file))).write(to: URL(fileURLWithPath: path))
                    let daemon = try await TestDaemon(now: now)
                    do {
                        _ = try await daemon.call(Backup.Import.self, .init(path: path))
                    } catch let error as VarlinkError {
                        let message = error.string("message") ?? ""
                        #expect(message.contains("nothing was changed"), "\(what): \(message)")
                        let names = try await daemon.call(Reminders.List.self, .init()).reminders.map(\.name)
                        #expect(names == ["Planning a rest day this week?"], "\(what): changed the store")
                        return true
                    }
                    // Imported: harmless through a restart and every read (a trap ends this test process).
                    try await daemon.restart()
                    await daemon.advance(by: 86400)
                    for method in ["List", "Next", "Occurrences", "History", "Streak", "Calendar", "Achievements", "RestList", "FreezeHistory", "Day", "ProfileGet", "Logs", "Status"] {
                        do { _ = try await daemon.call(method, as: JSONValue.self) } catch is VarlinkError {}
                    }
                    return false
                }
            }
            var next = 0
            while next < min(4, cases.count) { run(next); next += 1 }
            while let wasRefused = try await group.next() {
                if wasRefused { refused += 1 } else { harmless += 1 }
                if next < cases.count { run(next); next += 1 }
            }
        }
        #expect(refused > 0 && refused + harmless > 100)
    }
}
