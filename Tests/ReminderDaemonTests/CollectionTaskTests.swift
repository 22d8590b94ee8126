import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// What a task app shows of the collection's one-off tasks: a task made there keeps its due time, and a one-off
/// taken, skipped or missed anywhere is closed (completed or cancelled) for every app, without a second log.
@Suite("Tasks in the collection")
struct CollectionTaskTests {
    typealias Devices = CollectionSyncTests.Devices

    /// The text of the item whose SUMMARY is `summary` on `device`.
    static func item(_ devices: Devices, _ device: String, _ summary: String) throws -> String {
        let folder = devices.root + "/" + device
        for file in try devices.files(device) {
            let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
            if text.contains("\r\nSUMMARY:" + summary + "\r\n"), text.contains("BEGIN:VTODO") { return text }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    static func lines(_ text: String, _ name: String) -> [String] {
        text.components(separatedBy: "\r\n").filter { $0.hasPrefix(name + ":") || $0.hasPrefix(name + ";") }
    }

    /// `todoman new --due "2026-12-01 18:00"` writes DUE alone: remindd fires at it and writes the task back with
    /// that DUE (it wrote DTSTART 18:00 and DUE 19:00, so the app showed it an hour late).
    @Test func aTaskMadeInATaskAppKeepsItsDueTime() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        let todo = """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//todoman//EN\r\nBEGIN:VTODO\r\nUID:buy-pills@todoman\r\nSUMMARY:Buy pills\r
            DTSTAMP:20261201T055000Z\r\nLAST-MODIFIED:20261201T055000Z\r\nDUE;TZID=Europe/Berlin:20261201T180000\r\nSTATUS:NEEDS-ACTION\r\nEND:VTODO\r\nEND:VCALENDAR\r\n
            """
        try todo.write(toFile: devices.root + "/laptop/buy-pills.ics", atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(devices.root + "/laptop")
        let next = try await devices.laptop.ownReminders().first { $0.name == "Buy pills" }?.next?.utc
        #expect(next == "2026-12-01T17:00:00Z")
        let written = try Self.item(devices, "laptop", "Buy pills")
        #expect(Self.lines(written, "DUE") == ["DUE;TZID=Europe/Berlin:20261201T180000"], "\(written)")
        #expect(Self.lines(written, "DTSTART").isEmpty, "\(written)")
        #expect(Self.lines(written, "TRIGGER").contains("TRIGGER;RELATED=END:PT0S"), "\(written)")
        #expect(Self.lines(written, "STATUS") == ["STATUS:NEEDS-ACTION"])
    }

    @Test func aOneOffTakenHereIsCompletedForEveryAppAndLoggedOnceOnTheOtherDevice() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Antibiotic", ["once": "2026-12-01T09:00"], timeZone: "Europe/Berlin", ["window": "1h"])
        try await devices.sync()
        await devices.advance(to: "2026-12-01T08:05:00Z")
        _ = try await devices.laptop.call(Reminders.Done.self, .init(reminder: "Antibiotic"))
        let laptop = try Self.item(devices, "laptop", "Antibiotic")
        #expect(Self.lines(laptop, "STATUS") == ["STATUS:COMPLETED"] && Self.lines(laptop, "COMPLETED") == ["COMPLETED:20261201T080500Z"], "\(laptop)")
        #expect(Self.lines(laptop, "PERCENT-COMPLETE") == ["PERCENT-COMPLETE:100"])
        try await devices.sync()
        try await devices.sync()
        // The desktop has the log once (its own item), not a second one from the completed task.
        let logs = try await devices.desktop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.filter { $0.reminderName == "Antibiotic" }
        #expect(logs.map(\.utc) == ["2026-12-01T08:05:00Z"])
        #expect(Self.lines(try Self.item(devices, "desktop", "Antibiotic"), "STATUS") == ["STATUS:COMPLETED"])
        await devices.advance(to: "2026-12-01T10:00:00Z")
        #expect(!devices.desktop.announcer.occurrences.contains { $0.state == .missed })
    }

    @Test func aOneOffMissedOrSkippedIsCancelled() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Antibiotic", ["once": "2026-12-01T09:00"], timeZone: "Europe/Berlin", ["window": "1h"])
        try await devices.laptop.add("Blood test", ["once": "2026-12-01T11:00"], timeZone: "Europe/Berlin")
        #expect(Self.lines(try Self.item(devices, "laptop", "Antibiotic"), "STATUS").isEmpty)
        _ = try await devices.laptop.call(Reminders.Skip.self, .init(reminder: "Blood test", reason: "moved"))
        #expect(Self.lines(try Self.item(devices, "laptop", "Blood test"), "STATUS") == ["STATUS:CANCELLED"])
        await devices.advance(to: "2026-12-01T09:00:01Z")
        #expect(devices.laptop.announcer.occurrences.contains { $0.state == .missed })
        let missed = try Self.item(devices, "laptop", "Antibiotic")
        #expect(Self.lines(missed, "STATUS") == ["STATUS:CANCELLED"] && Self.lines(missed, "X-REMINDD-CLOSED") == ["X-REMINDD-CLOSED:MISSED"], "\(missed)")
        // Taken late after all (from the task app: `todo done`): one log, and the app's status stands.
        let file = try #require(try devices.files("laptop").first { try String(contentsOfFile: devices.root + "/laptop/" + $0, encoding: .utf8) == missed })
        let done = missed.replacingOccurrences(of: "STATUS:CANCELLED", with: "STATUS:COMPLETED\r\nCOMPLETED:20261201T083000Z")
        try done.write(toFile: devices.root + "/laptop/" + file, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(devices.root + "/laptop")
        await devices.laptop.folderChanged(devices.root + "/laptop")
        let logs = try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.filter { $0.reminderName == "Antibiotic" }
        #expect(logs.map(\.utc) == ["2026-12-01T08:30:00Z"])
        let after = try Self.item(devices, "laptop", "Antibiotic")
        #expect(Self.lines(after, "STATUS") == ["STATUS:COMPLETED"] && Self.lines(after, "X-REMINDD-CLOSED").isEmpty, "\(after)")
        // The desktop learns the completion from the task itself: one log there too.
        try await devices.sync()
        try await devices.sync()
        let there = try await devices.desktop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.filter { $0.reminderName == "Antibiotic" }
        #expect(there.map(\.utc) == ["2026-12-01T08:30:00Z"])
    }
}
