import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Logs and skips more than 14 days old (by UTC day) are folded into one archive item per reminder per quarter:
/// the collection stays 14 days of items long, every device folds into the same items, a device that reads an
/// archive has every record in it, and no log is lost or doubled.
@Suite("Folding the collection")
struct CollectionFoldingTests {
    typealias Devices = CollectionSyncTests.Devices

    /// A dose a day logged on the laptop from August to November (at its time, in the past: each one of an
    /// archived day is folded as it is logged).
    static func history(_ devices: Devices) async throws -> Int {
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00,13:00,20:00"], timeZone: "UTC")
        var count = 0
        let first = ISO8601.parseDate("2026-08-01")!
        for day in first.dayNumber..<ISO8601.parseDate("2026-11-30")!.dayNumber {
            let date = LocalDate(dayNumber: day)
            for time in ["08:05"] {
                try await devices.laptop.log("Metformin", at: "\(date)T\(time):00Z")
                count += 1
            }
        }
        _ = try await devices.laptop.call(Reminders.Skip.self, .init(reminder: "Metformin", reason: "fasting"))
        return count
    }

    /// The device's logs of Metformin from August to December, counted a day at a time.
    static func logCount(_ daemon: TestDaemon) async throws -> Int {
        var count = 0
        for day in ISO8601.parseDate("2026-08-01")!.dayNumber...ISO8601.parseDate("2026-12-31")!.dayNumber {
            count += try await daemon.call(Reminders.Logs.self, .init(date: LocalDate(dayNumber: day).description)).logs.filter { $0.reminderName == "Metformin" }.count
        }
        return count
    }

    /// The files of a device that are log or skip items of their own.
    static func logItems(_ devices: Devices, _ device: String) throws -> [String] {
        try devices.files(device).filter { try String(contentsOfFile: devices.root + "/" + device + "/" + $0, encoding: .utf8).contains("X-REMINDD-RECORD:") }
    }

    @Test func oldMonthsAreFoldedAndEveryDeviceKeepsEveryLogOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        let logged = try await Self.history(devices)
        try await devices.sync()
        #expect(try await Self.logCount(devices.desktop) == logged)
        // December 1: August to November 16 are older than 14 days: logged late, they went into the archives of
        // the third and fourth quarters at once.
        let before = try devices.files("laptop")
        #expect(before.filter { $0.contains("-archive-") }.sorted().map { $0.suffix(11) } == ["2026-07.ics", "2026-10.ics"])
        #expect(try Self.logItems(devices, "laptop").count == 13 + 1, "November 17 to 29, and the skip")
        // December 31: those are too; the laptop's upkeep wake-ups (each midnight) fold them a day at a time.
        await devices.laptop.advance(to: instant("2026-12-31T00:00:05Z"))
        let folded = try devices.files("laptop")
        let archives = folded.filter { $0.contains("-archive-") }
        #expect(archives.count == 2, "\(archives)")
        #expect(folded.count == before.count - 13 - 1, "\(folded.count) of \(before.count): \(folded)")
        #expect(try await Self.logCount(devices.laptop) == logged)
        // The desktop takes the fold as it is: the items gone are no deletions (nothing held, no log lost), and it
        // does not write them back.
        await devices.desktop.advance(to: instant("2026-12-31T00:00:05Z"))
        try await devices.sync()
        try await devices.sync()
        #expect(try await Self.logCount(devices.desktop) == logged)
        #expect(try await Self.logCount(devices.laptop) == logged)
        #expect(try devices.files("desktop") == (try devices.files("laptop")))
        // (Each device had its own rest check-in: one is left after the sync; what counts is the logs' items.)
        #expect(try Self.logItems(devices, "laptop") == (try Self.logItems(devices, "desktop")))
        #expect(try Self.logItems(devices, "laptop").isEmpty)
        #expect(!devices.desktop.announcer.messages.contains { $0.contains("is not used") }, "\(devices.desktop.announcer.messages)")
        // A third device linked now: every log from the archives, once.
        let fresh = devices.root + "/fresh"
        try FileManager.default.createDirectory(atPath: fresh, withIntermediateDirectories: true)
        for file in try devices.files("laptop") { try FileManager.default.copyItem(atPath: devices.root + "/laptop/" + file, toPath: fresh + "/" + file) }
        var configuration = DaemonConfiguration()
        configuration.collection = fresh
        let third = try await TestDaemon(now: instant("2026-12-31T00:01:00Z"), systemZone: "Europe/Berlin", configuration: configuration)
        #expect(try await Self.logCount(third) == logged)
        let day = try await third.call(Reminders.Logs.self, .init(date: "2026-09-14")).logs.map(\.utc)
        #expect(day == ["2026-09-14T08:05:00Z"])
    }

    @Test func twoDevicesFoldingAtOnceConvergeWithNoConflictAndNoLogLostOrDoubled() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        let logged = try await Self.history(devices)
        try await devices.sync()
        // Both fold the same months between two syncs: the same items, so no conflict.
        await devices.advance(to: "2026-12-31T00:00:05Z")
        for _ in 0..<2 { try await devices.sync() }
        #expect(devices.link.conflicts.isEmpty, "\(devices.link.conflicts.map(\.name))")
        #expect(try devices.files("desktop") == (try devices.files("laptop")))
        // The desktop logs one more September dose (a late entry), its month folded again at once; the laptop, a
        // skip of September meanwhile: two versions of the archive meet, and both devices end with every record.
        try await devices.desktop.log("Metformin", at: "2026-09-14T22:00:00Z")
        try await devices.laptop.log("Metformin", at: "2026-09-15T22:00:00Z")
        await devices.advance(to: "2027-01-01T00:00:05Z")
        for _ in 0..<4 { try await devices.sync() }
        #expect(try await Self.logCount(devices.laptop) == logged + 2)
        #expect(try await Self.logCount(devices.desktop) == logged + 2)
        #expect(try devices.files("desktop") == (try devices.files("laptop")))
        let september = try #require(try devices.files("laptop").first { $0.hasSuffix("-archive-2026-07.ics") })
        let text = try String(contentsOfFile: devices.root + "/laptop/" + september, encoding: .utf8)
        #expect(text.components(separatedBy: "X-REMINDD-ARCHIVED:").count - 1 == 61 + 2)
    }

    /// Hostile archives: garbage, a record of another month, too many records; refused and said once.
    @Test func aHostileArchiveIsRefusedAndSaidOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC")
        let reminder = try #require(try devices.files("laptop").compactMap { try String(contentsOfFile: devices.root + "/laptop/" + $0, encoding: .utf8) }
            .first { $0.contains("SUMMARY:Metformin") })
        let uid = try #require(reminder.components(separatedBy: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        let good = CollectionArchive(reminder: String(uid), month: "2026-07", records: [
            CollectionItem.Record(uid: "a@x", kind: .taken, reminder: String(uid), at: instant("2026-09-01T08:00:00Z"), timeZone: "UTC"),
        ]).text(reminderName: "Metformin")
        let lines = (0..<6000).map { "X-REMINDD-ARCHIVED:TAKEN r\($0) 20260901T080000Z UTC - - " }.joined(separator: "\r\n")
        let cases = [
            ("garbage", good.replacingOccurrences(of: "X-REMINDD-ARCHIVED:TAKEN a@x 20260901T080000Z", with: "X-REMINDD-ARCHIVED:TAKEN a@x yesterday")),
            ("month", good.replacingOccurrences(of: "20260901T080000Z UTC", with: "20261001T080000Z UTC").replacingOccurrences(of: "a@x", with: "b@x")),
            ("many", good.replacingOccurrences(of: "END:VJOURNAL", with: lines + "\r\nEND:VJOURNAL").replacingOccurrences(of: "a@x", with: "c@x")),
        ]
        for (name, text) in cases { try text.write(toFile: devices.root + "/laptop/x-archive-\(name).ics", atomically: true, encoding: .utf8) }
        await devices.laptop.folderChanged(devices.root + "/laptop")
        await devices.laptop.folderChanged(devices.root + "/laptop")
        #expect(try await Self.logCount(devices.laptop) == 0)
        let said = devices.laptop.announcer.messages.filter { $0.contains("x-archive-") }
        #expect(said.count == cases.count, "\(said)")
    }
}
