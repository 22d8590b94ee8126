import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting
@testable import ReminderStore

/// A large import's or restore's move holds the store's writer (about 750 ms for 106,504 reminders): it waits for
/// a lull in the firings (``FiringLulls``), so that no dose's record waits for it.
@Suite("Long writes and the doses due meanwhile")
struct LongWriteLullTests {
    /// `count` one-off events a day and more ahead, each with an alarm.
    private static func events(_ count: Int) -> String {
        var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN"]
        for number in 0..<count {
            let day = 2 + number / 1_000, minute = number % 1_000
            lines += [
                "BEGIN:VEVENT", "UID:event-\(number)", "SUMMARY:Event \(number)",
                String(format: "DTSTART:202612%02dT%02d%02d00Z", day, minute / 60 % 24, minute % 60),
                "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Event", "TRIGGER:-PT10M", "END:VALARM", "END:VEVENT",
            ]
        }
        return (lines + ["END:VCALENDAR", ""]).joined(separator: "\r\n")
    }

    /// A backup of the reminder "Dose" (id 1) with `count` logs of it in 2025.
    private static func backup(logs count: Int) -> String {
        let schema = ReminderStore.migrator.migrations.last!
        let logs = (0..<count).map { #"{"id": \#($0 + 1), "reminderId": 1, "at": \#(1_750_000_000 + 60 * $0), "timeZone": "UTC"}"# }
        return """
            {"format": "remindd-backup", "version": 1, "schema": "\(schema)", "exportedAt": "now", "tables": {
              "reminder": [{"id": 1, "name": "Dose", "rule": "{\\"daily\\":true,\\"at\\":\\"08:00\\"}", "timeZone": "UTC", "enabled": 1, "createdAt": 1750000000, "handledThrough": 1750000000}],
              "intake": [\(logs.joined(separator: ",\n"))]}}
            """
    }

    /// The dose is due in two seconds when the write's 10,000 rows are staged: they wait (the rows that `counted`
    /// counts unchanged); the dose is recorded at its instant, and then the move adds every row.
    /// - Returns: the call's reply.
    private func whileADoseIsDue<Reply: Sendable>(
        _ file: String, counted: String, _ call: @escaping @Sendable (TestDaemon, String) async throws -> Reply
    ) async throws -> Reply {
        let daemon = try await TestDaemon(now: instant("2026-12-01T07:59:58Z"))
        try await daemon.add("Dose", ["daily": true, "at": "08:00"], timeZone: "UTC")
        func count() throws -> Int { try daemon.database.read { db in try Int.fetchOne(db, sql: counted) ?? 0 } }
        let before = try count()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-lull-\(UUID().uuidString)").path
        try file.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writing = Task { try await call(daemon, path) }
        let lulls = daemon.current.context.lulls
        for _ in 0..<6_000 where lulls.waitingCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(lulls.waitingCount == 1, "the write never waited")
        #expect(try count() == before)
        #expect(daemon.firings(of: "Dose").isEmpty)

        await daemon.advance(by: 2)
        let reply = try await writing.value
        let dose = daemon.firings(of: "Dose")
        #expect(dose.map(\.scheduled) == [instant("2026-12-01T08:00:00Z")] && dose.map(\.handledAt) == [instant("2026-12-01T08:00:00Z")])
        #expect(try count() == before + 10_000)
        return reply
    }

    @Test func anImportsMoveWaitsForTheDoseDueAndThenAddsEverything() async throws {
        let reply = try await whileADoseIsDue(Self.events(10_000), counted: "SELECT count(*) FROM reminder") { daemon, path in
            try await daemon.call(Backup.ImportCalendar.self, .init(path: path))
        }
        #expect(reply.reminders.count == 10_000)
    }

    /// Two merges of one backup at once (an import run again after Ctrl-C, the first still running): the first waits for its lull, the
    /// second for its turn; once the dose is recorded, the first adds the 10,000 logs and the second finds them
    /// all there. Without turns both staged what the store lacked, then both moved it in: every log twice.
    @Test func twoMergesOfOneBackupAtOnceAddItsLogsOnce() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T07:59:58Z"))
        try await daemon.add("Dose", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-twice-\(UUID().uuidString)").path
        try Self.backup(logs: 10_000).write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merges = (0..<2).map { _ in Task { try await daemon.call(Backup.Import.self, .init(path: path, merge: true)) } }
        let (lulls, turns) = (daemon.current.context.lulls, daemon.current.context.importTurns)
        // Both arrived: one staged and waiting for the lull, the other waiting (for its turn, or, without turns,
        // for the lull too).
        for _ in 0..<6_000 where lulls.waitingCount + turns.waitingCount < 2 { try await Task.sleep(for: .milliseconds(10)) }
        try #require(lulls.waitingCount + turns.waitingCount == 2, "the merges never both waited")
        #expect(lulls.waitingCount == 1)

        await daemon.advance(by: 2)
        var added: [Int] = []
        for merge in merges { added.append(try await merge.value.tables.first { $0.table == "intake" }?.added ?? -1) }
        #expect(added.sorted() == [0, 10_000])
        let logs = try await daemon.database.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM intake") ?? 0 }
        #expect(logs == 10_000)
        #expect(daemon.firings(of: "Dose").map(\.handledAt) == [instant("2026-12-01T08:00:00Z")])
    }

    @Test func aRestoresMoveWaitsForTheDoseDueAndThenAddsEverything() async throws {
        let reply = try await whileADoseIsDue(Self.backup(logs: 10_000), counted: "SELECT count(*) FROM intake") { daemon, path in
            try await daemon.call(Backup.Import.self, .init(path: path, merge: true))
        }
        #expect(reply.tables.first { $0.table == "intake" }?.added == 10_000)
    }
}
