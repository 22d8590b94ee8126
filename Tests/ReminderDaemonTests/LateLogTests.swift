import ReminderCore
import ReminderInterface
import Testing

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
}
