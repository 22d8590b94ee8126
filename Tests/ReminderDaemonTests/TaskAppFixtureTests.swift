import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// #61 item 2: what other task apps write when a person ticks one dose of a recurring reminder (the default
/// collection mode), each written as that app writes it, read as the person meant. The shapes come from the apps'
/// own test data or documentation, cited at each; the apps themselves cannot run here.
@Suite("Task apps' items")
struct TaskAppFixtureTests {
    /// One device with its collection, and the item of "Vitamin D" (daily at 08:00, Berlin, a 2-hour window).
    final class Device {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-apps-\(UUID().uuidString)").path
        let daemon: TestDaemon
        let file: String
        let uid: String

        init() async throws {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var configuration = DaemonConfiguration()
            configuration.collection = folder
            daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "Europe/Berlin", configuration: configuration)
            try await daemon.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["window": "2h"])
            let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ics") }
            let folder = folder
            file = try #require(try files.first { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8).contains("SUMMARY:Vitamin D") })
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            uid = String(try #require(text.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4))
        }

        deinit { try? FileManager.default.removeItem(atPath: folder) }

        var text: String { get throws { try String(contentsOfFile: folder + "/" + file, encoding: .utf8) } }

        /// The app rewrites the item (`edit` of its text) at `at`; the watcher reports it.
        func app(at: String, _ edit: (String) -> String) async throws {
            await daemon.advance(to: instant(at))
            try edit(try text).write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
            await daemon.folderChanged(folder)
        }

        func logs() async throws -> [String] {
            try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.filter { $0.reminderName == "Vitamin D" }.map(\.utc)
        }

        func state() async throws -> [String] {
            try await daemon.call(Reminders.Occurrences.self, .init(date: "2026-12-01", reminder: "Vitamin D")).occurrences.map(\.state)
        }
    }

    /// Adds `override` before the item's END:VCALENDAR (an instance's own VTODO).
    static func adding(_ override: [String]) -> (String) -> String {
        { $0.replacingOccurrences(of: "END:VCALENDAR", with: (override + ["END:VCALENDAR"]).joined(separator: "\r\n")) }
    }

    /// Thunderbird: an override of the instance with RECURRENCE-ID in the task's zone, STATUS, COMPLETED,
    /// PERCENT-COMPLETE and SEQUENCE, and X-MOZ-GENERATION on the master (tasks/tasks,
    /// app/src/test/resources/thunderbird/completed_repeating_task.txt, as Thunderbird 78 wrote it).
    @Test func thunderbirdsCompletedInstanceIsItsDoseOnce() async throws {
        let device = try await Device()
        try await device.app(at: "2026-12-01T07:06:00Z") { text in
            Self.adding([
                "BEGIN:VTODO", "CREATED:20261201T070530Z", "LAST-MODIFIED:20261201T070540Z", "DTSTAMP:20261201T070540Z", "UID:" + device.uid,
                "SUMMARY:Vitamin D", "STATUS:COMPLETED", "RECURRENCE-ID;TZID=Europe/Berlin:20261201T080000",
                "DTSTART;TZID=Europe/Berlin:20261201T080000", "DUE;TZID=Europe/Berlin:20261201T080000", "COMPLETED:20261201T070540Z",
                "PERCENT-COMPLETE:100", "SEQUENCE:1", "END:VTODO",
            ])(text.replacingOccurrences(of: "END:VTODO", with: "X-MOZ-GENERATION:1\r\nEND:VTODO"))
        }
        #expect(try await device.logs() == ["2026-12-01T07:05:40Z"])
        #expect(try await device.state() == ["taken"])
        await device.daemon.folderChanged(device.folder)
        #expect(try await device.logs() == ["2026-12-01T07:05:40Z"])
    }

    /// eM Client: the override's RECURRENCE-ID, DTSTART and DUE are floating (no zone: the item's own), with
    /// PERCENT-COMPLETE:100 and STATUS:COMPLETED (tasks/tasks, app/src/test/resources/eMclient/completed_recurring_task.txt).
    @Test func aFloatingInstanceOverrideIsReadInTheRemindersZone() async throws {
        let device = try await Device()
        try await device.app(at: "2026-12-01T07:30:00Z", Self.adding([
            "BEGIN:VTODO", "RECURRENCE-ID:20261201T080000", "UID:" + device.uid, "DTSTART:20261201T080000", "DUE:20261201T080000",
            "COMPLETED:20261201T072500Z", "PERCENT-COMPLETE:100", "LAST-MODIFIED:20261201T072500Z", "SUMMARY:Vitamin D",
            "STATUS:COMPLETED", "END:VTODO",
        ]))
        #expect(try await device.logs() == ["2026-12-01T07:25:00Z"])
        #expect(try await device.state() == ["taken"])
    }

    /// jtx Board (and OpenTasks since 1.3, dmfs/opentasks#943) write an instance's override in UTC, with
    /// PERCENT-COMPLETE and COMPLETED and, in jtx Board, STATUS:COMPLETED (jtx Board's documentation, "Recurring
    /// entries"): one dose.
    @Test func anInstanceOverrideInUTCIsItsDose() async throws {
        let device = try await Device()
        try await device.app(at: "2026-12-01T07:20:00Z", Self.adding([
            "BEGIN:VTODO", "UID:" + device.uid, "RECURRENCE-ID:20261201T070000Z", "DTSTART:20261201T070000Z", "SUMMARY:Vitamin D",
            "STATUS:COMPLETED", "PERCENT-COMPLETE:100", "COMPLETED:20261201T071500Z", "SEQUENCE:1", "END:VTODO",
        ]))
        #expect(try await device.logs() == ["2026-12-01T07:15:00Z"])
    }

    /// Evolution, and Nextcloud Tasks' web app, complete the whole task (its own STATUS:COMPLETED, COMPLETED and
    /// PERCENT-COMPLETE:100, the RRULE kept): the dose due then is taken, once; the next days still fire.
    @Test func theWholeTaskCompletedIsTheDoseDueThenAndTheScheduleGoesOn() async throws {
        let device = try await Device()
        try await device.app(at: "2026-12-01T07:40:00Z") {
            $0.replacingOccurrences(of: "END:VTODO", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T073500Z\r\nPERCENT-COMPLETE:100\r\nEND:VTODO")
        }
        #expect(try await device.logs() == ["2026-12-01T07:35:00Z"])
        await device.daemon.advance(to: instant("2026-12-02T07:00:01Z"))
        #expect(device.daemon.firings(of: "Vitamin D").last?.kind == .fired)
    }

    /// Tasks.org moves the task's DUE (and DTSTART) to the next date when it is ticked, and keeps no instance
    /// (tasks/tasks, RepeatTaskHelper: the task is rescheduled, not completed): nothing says which dose or when,
    /// so it is no dose, and remindd keeps its schedule (docs/devices.md: set `occurrences` for it).
    @Test func tasksOrgsMovedDueIsNoDoseAndTheScheduleStays() async throws {
        let device = try await Device()
        try await device.app(at: "2026-12-01T07:10:00Z") { text in
            text.components(separatedBy: "\r\n").map { line in
                line.hasPrefix("DUE") || line.hasPrefix("DTSTART") ? line.replacingOccurrences(of: "20261201", with: "20261202") : line
            }.joined(separator: "\r\n")
        }
        #expect(try await device.logs() == [])
        await device.daemon.advance(to: instant("2026-12-02T07:00:01Z"))
        #expect(device.daemon.firings(of: "Vitamin D").map(\.kind).contains(.fired))
    }
}
