import Foundation
import ReminderCore
import ReminderInterface
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// `ImportCalendar` on a manual clock: the reminders fire at the alarms' instants, and a file refused for any
/// reason changes nothing.
@Suite("Importing a calendar file")
struct CalendarImportServiceTests {
    static let file = """
        BEGIN:VCALENDAR
        BEGIN:VEVENT
        UID:a
        SUMMARY:Physio
        DTSTART;TZID=Europe/Berlin:20261202T170000
        RRULE:FREQ=WEEKLY;COUNT=3
        BEGIN:VALARM
        TRIGGER:-PT30M
        REPEAT:1
        DURATION:PT5M
        END:VALARM
        END:VEVENT
        END:VCALENDAR

        """

    private func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-import-\(UUID().uuidString).ics").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func importedAlarmsFireAndASecondImportIsRefusedWithNothingChanged() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let path = try write(Self.file)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reply = try await daemon.call(Backup.ImportCalendar.self, .init(path: path))
        #expect(reply.reminders.map(\.name) == ["Physio"])
        #expect(reply.reminders.first?.next == "2026-12-02T16:30:00+01:00")
        let before = try await daemon.call(Reminders.List.self, .init()).reminders
        await #expect(throws: VarlinkError.self) { try await daemon.call(Backup.ImportCalendar.self, .init(path: path)) }
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders == before)

        await daemon.advance(to: instant("2026-12-20T00:00:00Z"))
        let firings = daemon.firings(of: "Physio")
        // On time (the import arms the wake-up: the first firing came late before), each repeated once 5 minutes on.
        #expect(firings.filter { $0.kind == .fired }.map(\.scheduled) == ["2026-12-02T15:30:00Z", "2026-12-09T15:30:00Z", "2026-12-16T15:30:00Z"].map(instant))
        #expect(firings.filter { $0.kind == .repeated }.count == 3)
    }

    /// A file with a good event and a bad one: refused at the bad one's line, and the good one is not added.
    @Test func aFileWithOneBadEventAddsNothing() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T00:00:00Z"))
        let bad = Self.file.replacingOccurrences(of: "END:VCALENDAR", with: "BEGIN:VEVENT\nSUMMARY:Bad\nDTSTART:20261205T100000\nRRULE:FREQ=DAILY;INTERVAL=0\nEND:VEVENT\nEND:VCALENDAR")
        let path = try write(bad)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = await #expect(throws: VarlinkError.self) { try await daemon.call(Backup.ImportCalendar.self, .init(path: path)) }
        #expect(error.map { "\($0)".contains(":16: RRULE: INTERVAL=0") } == true, "\(String(describing: error))")
        #expect(try await daemon.call(Reminders.List.self, .init()).reminders.allSatisfy { $0.name != "Physio" })
    }
}
