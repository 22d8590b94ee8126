import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// A plain `remindctl log` 2.5 hours late makes the missed dose taken late, as `done --late` does: `today`, the
/// journal and the report say so (before, it stayed "missed" and the log took nothing: a month's report said
/// 72.6 % with 17 missed dates where 56 of 62 doses were taken).
@Suite("Late is late, not missed")
struct LateLogTests {
    @Test func aLogAfterTheWindowTakesTheMissedDoseLateEverywhere() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        try await daemon.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC", ["window": "2h", "dose": "2", "unit": "tablet"])
        await daemon.advance(to: instant("2026-12-01T10:30:00Z"))
        #expect(daemon.announcer.occurrences.map(\.state) == [.missed])
        let log = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin")).log
        #expect(log.takes == "2026-12-01T08:00:00+00:00")
        #expect(daemon.announcer.occurrences.map(\.state) == [.missed, .takenLate])
        let day = try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Metformin")).occurrences
        #expect(day.map(\.state) == ["taken-late", "upcoming"])
        // The evening dose still fires, and is taken in its window.
        await daemon.advance(to: instant("2026-12-01T20:00:30Z"))
        #expect(daemon.firings(of: "Metformin").map(\.scheduled).last == instant("2026-12-01T20:00:00Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Metformin"))
        await daemon.advance(to: instant("2026-12-02T00:00:00Z"))
        let report = try await daemon.call(Reminders.Report.self, .init(from: "2026-12-01", to: "2026-12-01", reminders: ["Metformin"])).reminders[0]
        #expect(report.due == 2 && report.onTime == 1 && report.late == 1 && report.missed.isEmpty)
        #expect(report.lateMinutesMedian == 150)
    }

    /// A day of Metformin: 08:00 missed and logged at 10:30 (late), 20:00 logged on time.
    private func aDayWithALateLog() async throws -> TestDaemon {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        try await daemon.add("Metformin", ["daily": true, "at": "08:00,20:00"], timeZone: "UTC", ["window": "2h", "dose": "2", "unit": "tablet"])
        await daemon.advance(to: instant("2026-12-01T10:30:00Z"))
        _ = try await daemon.call(Reminders.Log.self, .init(reminder: "Metformin"))
        await daemon.advance(to: instant("2026-12-01T20:00:30Z"))
        _ = try await daemon.call(Reminders.Done.self, .init(reminder: "Metformin"))
        await daemon.advance(to: instant("2026-12-02T00:00:00Z"))
        return daemon
    }

    private func report(_ daemon: TestDaemon) async throws -> ReportReminderValue {
        try await daemon.call(Reminders.Report.self, .init(from: "2026-12-01", to: "2026-12-01", reminders: ["Metformin"])).reminders[0]
    }

    /// A backup of an older remindd, whose late log does not say which occurrence it took (`forScheduledAt`
    /// null): restored, the log takes the missed 08:00 dose late as a live log does (it was reported missed).
    @Test func aRestoredLateLogWithoutItsOccurrenceTakesItLate() async throws {
        let original = try await aDayWithALateLog()
        var backup = try await original.exportBackup()
        guard case .object(var tables) = backup["tables"], case .array(let intake) = tables["intake"] else { Issue.record("no intake"); return }
        tables["intake"] = .array(intake.map { row in
            guard case .object(var fields) = row else { return row }
            fields["forScheduledAt"] = .null
            return .object(fields)
        })
        backup["tables"] = .object(tables)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-late-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(VarlinkWire.encode(JSONValue.object(backup))).write(to: URL(fileURLWithPath: path))

        let restored = try await TestDaemon(now: original.clock.now(), systemZone: "UTC")
        _ = try await restored.call(Backup.Import.self, .init(path: path))
        let figures = try await report(restored)
        #expect(figures.due == 2 && figures.onTime == 1 && figures.late == 1 && figures.missed.isEmpty)
        let day = try await restored.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Metformin")).occurrences
        #expect(day.map(\.state) == ["taken-late", "taken"])
        #expect(restored.announcer.messages.contains { $0.hasPrefix("Logs recorded before late takes were matched: 1 now take") })
    }

    /// A store from before late takes were matched when logged (migration v25 marks its logs as waiting): the
    /// next start matches them once; a later start changes nothing more.
    @Test func aStoresOlderLateLogIsMatchedOnceAtTheNextStart() async throws {
        let daemon = try await aDayWithALateLog()
        try await daemon.database.write { db in
            try db.execute(sql: "UPDATE intake SET forScheduledAt = NULL")
            try db.execute(sql: "UPDATE storeInstance SET lateLogsToMatch = 1")
        }
        #expect(try await report(daemon).missed.count == 1)  // what an older store reports
        try await daemon.restart()
        let figures = try await report(daemon)
        #expect(figures.late == 1 && figures.onTime == 1 && figures.missed.isEmpty)
        #expect(try await daemon.database.read { db in try Bool.fetchOne(db, sql: "SELECT lateLogsToMatch FROM storeInstance") } == false)
        try await daemon.restart()
        #expect(daemon.announcer.messages.filter { $0.contains("Logs recorded before late takes") }.count == 1)
    }
}
