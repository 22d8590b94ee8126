import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// An archive item deletes only its own reminder's records of its own quarter (#57 item 1). Before, any UID it
/// listed in `X-REMINDD-ARCHIVE-DELETED` that this device knew was deleted, and its file removed from the folder
/// (so the next sync deleted it everywhere), silently and past the hold: one archive of one medication's quarter
/// of 2025 listing today's 50 logs of five other medications left 1 of 50, and each dose gone was due again.
@Suite("Hostile archives")
struct HostileArchiveTests {
    typealias Devices = CollectionSyncTests.Devices
    static let medications = ["Metformin", "Ramipril", "Atorvastatin", "Levothyroxine", "Aspirin"]

    /// The UIDs of the log items in a device's folder.
    static func logUIDs(_ devices: Devices, _ device: String) throws -> [String] {
        try devices.files(device).compactMap { file in
            let text = try String(contentsOfFile: devices.root + "/" + device + "/" + file, encoding: .utf8)
            guard text.contains("X-REMINDD-RECORD:") else { return nil }
            return text.split(separator: "\r\n").first { $0.hasPrefix("UID:") }.map { String($0.dropFirst(4)) }
        }
    }

    /// The UID of a reminder's item in a device's folder.
    static func reminderUID(_ devices: Devices, _ device: String, named name: String) throws -> String {
        for file in try devices.files(device) {
            let text = try String(contentsOfFile: devices.root + "/" + device + "/" + file, encoding: .utf8)
            if text.contains("SUMMARY:\(name)\r\n"), text.contains("BEGIN:VTODO") || text.contains("X-REMINDD-RULE") {
                if let uid = text.split(separator: "\r\n").first(where: { $0.hasPrefix("UID:") }) { return String(uid.dropFirst(4)) }
            }
        }
        throw CocoaError(.fileNoSuchFile)
    }

    static func todaysLogs(_ daemon: TestDaemon) async throws -> Int {
        try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.count
    }

    @Test func anArchiveListingOtherMedicationsLogsDeletesNothing() async throws {
        let devices = try await Devices(now: "2026-12-01T05:00:00Z")
        for name in Self.medications + ["Vitamin D"] {
            try await devices.laptop.add(name, ["daily": true, "at": "06:00"], timeZone: "UTC")
        }
        for name in Self.medications {
            for minute in 0..<10 { try await devices.laptop.log(name, at: "2026-12-01T04:\(10 + minute):00Z") }
        }
        try await devices.sync()
        let uids = try Self.logUIDs(devices, "desktop")
        let before = try await Self.todaysLogs(devices.desktop)
        #expect(uids.count == 50 && before == 50)
        // Vitamin D's archive of a quarter of 2025, listing the 50 logs as deleted.
        var archive = CollectionArchive(reminder: try Self.reminderUID(devices, "desktop", named: "Vitamin D"), month: "2025-01", records: [])
        archive.deleted = uids
        try archive.text(reminderName: "Vitamin D").write(
            toFile: devices.root + "/desktop/" + CollectionItem.fileName(uid: archive.uid), atomically: true, encoding: .utf8)
        await devices.desktop.folderChanged(devices.root + "/desktop")
        #expect(try await Self.todaysLogs(devices.desktop) == 50, "no log deleted")
        #expect(try Self.logUIDs(devices, "desktop").count == 50, "no file removed")
        let said = devices.desktop.announcer.messages.filter { $0.contains("not its own") }
        #expect(said.count == 1 && said[0].contains("50 records"), "\(devices.desktop.announcer.messages)")
        // Synced on: the laptop keeps every log too.
        try await devices.sync()
        #expect(try await Self.todaysLogs(devices.laptop) == 50)
        #expect(try await Self.todaysLogs(devices.desktop) == 50)
    }

    /// Its own reminder's records, but so many at once that any removal would be held: held too, said.
    @Test func anArchiveDeletingMostOfTheCollectionAtOnceIsHeld() async throws {
        let devices = try await Devices(now: "2026-12-20T05:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "06:00"], timeZone: "UTC")
        for day in 1...12 { try await devices.laptop.log("Metformin", at: String(format: "2026-10-%02dT06:05:00Z", day)) }
        try await devices.sync()
        let archives = try devices.files("desktop").filter { $0.contains("-archive-") }
        try #require(archives.count == 1)
        let path = devices.root + "/desktop/" + archives[0]
        guard case .archive(var archive) = try CollectionItem.read(try String(contentsOfFile: path, encoding: .utf8), file: archives[0]) else {
            Issue.record("not an archive")
            return
        }
        archive.deleted = archive.records.map(\.uid)
        archive.records = []
        try archive.text(reminderName: "Metformin").write(toFile: path, atomically: true, encoding: .utf8)
        await devices.desktop.folderChanged(devices.root + "/desktop")
        var count = 0
        for day in 1...12 { count += try await devices.desktop.call(Reminders.Logs.self, .init(date: String(format: "2026-10-%02d", day))).logs.count }
        #expect(count == 12, "held: nothing deleted")
        #expect(devices.desktop.announcer.messages.contains { $0.contains("held as any mass removal") }, "\(devices.desktop.announcer.messages)")
    }

    /// A bad item rewritten over and over (every 40 ms, by a broken client) was said at every version: 1,455
    /// journal lines a minute. It is said once per start, however often it changes.
    @Test func aBadItemRewrittenAgainAndAgainIsSaidOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T05:00:00Z")
        let path = devices.root + "/desktop/broken.ics"
        for version in 0..<50 {
            try "BEGIN:VCALENDAR\r\nBEGIN:VTODO\r\nUID:broken\r\nDUE:not a time \(version)\r\nEND:VTODO\r\n".write(toFile: path, atomically: true, encoding: .utf8)
            await devices.desktop.folderChanged(devices.root + "/desktop", names: ["broken.ics"])
        }
        let said = devices.desktop.announcer.messages.filter { $0.contains("broken.ics") }
        #expect(said.count == 1, "\(said)")
    }

    /// A log item of a reminder nobody has was dropped silently: it is said once (and kept aside, applied if the
    /// reminder comes).
    @Test func aLogOfAReminderNobodyHasIsSaidOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T05:00:00Z")
        let record = CollectionItem.Record(
            uid: "orphan-log@elsewhere", kind: .taken, reminder: "no-such-reminder@elsewhere", at: instant("2026-12-01T04:00:00Z"), timeZone: "UTC")
        try CollectionItem.text(record, reminderName: "Ghost").write(
            toFile: devices.root + "/desktop/" + CollectionItem.fileName(uid: record.uid), atomically: true, encoding: .utf8)
        await devices.desktop.folderChanged(devices.root + "/desktop")
        await devices.desktop.folderChanged(devices.root + "/desktop")
        let said = devices.desktop.announcer.messages.filter { $0.contains("does not have") }
        #expect(said.count == 1 && said[0].contains("no-such-reminder@elsewhere"), "\(devices.desktop.announcer.messages)")
        #expect(try await Self.todaysLogs(devices.desktop) == 0)
    }
}
