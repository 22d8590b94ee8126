import Foundation
import GRDB
@testable import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// What another device writes into the collection is checked as `remindctl log` checks its input: a log from a
/// device with a wrong clock, from year 0 or in a zone that does not exist is refused, said once and never
/// applied; an item's completed instances become logs only for occurrences that exist, once each.
@Suite("Collection items checked as the CLI checks")
struct CollectionInputTests {
    typealias Devices = CollectionSyncTests.Devices

    /// A log item of `reminder` as another device would write it, dropped into the laptop's folder.
    static func drop(_ devices: Devices, log reminder: String, at: String, zone: String = "UTC", file: String) async throws {
        let uid = try await devices.laptop.database.read {
            try String.fetchOne($0, sql: "SELECT c.uid FROM collectionItem c JOIN reminder r ON r.id = c.localId WHERE c.kind = 'reminder' AND r.name = ?", arguments: [reminder])
        }
        let record = CollectionItem.Record(uid: file + "@other", kind: .taken, reminder: try #require(uid), at: instant(at), timeZone: zone)
        try CollectionItem.text(record, reminderName: reminder).write(toFile: devices.root + "/laptop/" + file + ".ics", atomically: true, encoding: .utf8)
    }

    static func logCount(_ daemon: TestDaemon) async throws -> Int {
        try await daemon.database.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM intake") ?? 0 }
    }

    @Test func aLogFromADeviceWithAWrongClockNeitherMovesNorSuppressesADose() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Amoxicillin", ["every": "8h", "start": "2026-12-01T06:00", "fromLastDose": true], timeZone: "UTC")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await devices.laptop.log("Amoxicillin")  // 06:00: the next dose at 14:00
        let next = try #require(try await devices.laptop.call(Reminders.Get.self, .init(reminder: "Amoxicillin")).reminder.next?.utc)
        #expect(next == "2026-12-01T14:00:00Z")
        try await Self.drop(devices, log: "Amoxicillin", at: "2026-12-03T06:00:00Z", file: "ahead")
        try await Self.drop(devices, log: "Amoxicillin", at: "9999-12-31T00:00:00Z", file: "forever")
        try await Self.drop(devices, log: "Metformin", at: "2026-12-02T07:00:00Z", file: "tomorrow")
        try await Self.drop(devices, log: "Metformin", at: "0000-01-01T00:00:00Z", file: "yearzero")
        try await Self.drop(devices, log: "Metformin", at: "2026-12-01T05:00:00Z", zone: "Mars/Olympus", file: "mars")
        let logs = try await Self.logCount(devices.laptop)
        await devices.laptop.folderChanged(devices.root + "/laptop")
        await devices.laptop.folderChanged(devices.root + "/laptop")
        #expect(try await Self.logCount(devices.laptop) == logs)
        let said = devices.laptop.announcer.messages.filter { $0.hasPrefix("Collection: item") && $0.contains("is not applied") }
        for file in ["ahead", "forever", "tomorrow", "yearzero", "mars"] {
            #expect(said.filter { $0.contains("item \(file).ics ") }.count == 1, "\(file): \(said)")
        }
        #expect(said.first { $0.contains("ahead.ics") }?.contains("wrong clock") == true)
        // Each dose still fires at its time: the antibiotic at 14:00 today, Metformin tomorrow at 08:00.
        await devices.laptop.advance(to: instant("2026-12-02T08:00:01Z"))
        #expect(devices.laptop.firings(of: "Amoxicillin").map(\.scheduled).first == instant("2026-12-01T14:00:00Z"))
        #expect(devices.laptop.firings(of: "Metformin").filter { $0.kind == .fired }.map(\.scheduled) == [
            instant("2026-12-01T08:00:00Z"), instant("2026-12-02T08:00:00Z"),
        ])
        // A log two minutes ahead (two clocks a little apart) is applied.
        try await Self.drop(devices, log: "Metformin", at: "2026-12-02T08:02:00Z", file: "close")
        await devices.laptop.folderChanged(devices.root + "/laptop")
        #expect(try await Self.logCount(devices.laptop) == logs + 1)
    }

    @Test func aThousandCompletedOverridesLogOnlyTheOccurrencesThatExistOnceEach() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Vitamin D", ["daily": true, "at": "08:00"], timeZone: "UTC")
        await devices.advance(to: "2026-12-04T09:00:00Z")
        let folder = devices.root + "/laptop"
        let file = try #require(try devices.files("laptop").first { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8).contains("SUMMARY:Vitamin D") })
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        let uid = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        // 1,000 instances marked done, one a minute from the reminder's first day; the 08:00 of each day three
        // times over (in UTC, in the item's zone, as a day); and one ahead.
        var overrides = (0..<1000).map { minute in
            let at = instant("2026-12-01T07:00:00Z").adding(seconds: Int64(minute) * 60)
            return "RECURRENCE-ID:\(ICalendar.utc(at))"
        }
        overrides += ["RECURRENCE-ID;TZID=UTC:20261202T080000", "RECURRENCE-ID;VALUE=DATE:20261203", "RECURRENCE-ID:20261205T080000Z"]
        let components = overrides.map {
            "BEGIN:VTODO\r\nUID:\(uid)\r\n\($0)\r\nSUMMARY:Vitamin D\r\nSTATUS:COMPLETED\r\nCOMPLETED:20261204T085000Z\r\nEND:VTODO\r\n"
        }
        try text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: components.joined() + "END:VCALENDAR\r\n").write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(folder)
        await devices.laptop.folderChanged(folder)
        // The 1st's 08:00 is among the minutes, the 2nd's in the item's zone, the 3rd's as a day; the 5th is ahead.
        #expect(try await Self.logCount(devices.laptop) == 3)
        let said = devices.laptop.announcer.messages.filter { $0.contains("not taken as doses") }
        #expect(said.count == 1 && said[0].contains("marks 1000 instances of Vitamin D done"), "\(said)")
    }
}

extension CollectionInputTests {
    /// A dose from another device past this device's limits (both devices logged within the minimum interval
    /// between two syncs) is kept, and recorded as forced, as `--force` records it, and said.
    @Test func aDosePastTheLimitsFromAnotherDeviceIsRecordedAsForced() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Ibuprofen", ["asNeeded": true], ["dose": "400mg", "minInterval": "6h", "maxPerDay": .number(3)])
        try await devices.sync()
        _ = try await devices.laptop.call(Reminders.Done.self, .init(reminder: "Ibuprofen"))
        await devices.advance(to: "2026-12-01T07:00:00Z")
        _ = try await devices.desktop.call(Reminders.Done.self, .init(reminder: "Ibuprofen"))
        try await devices.sync()
        let logs = try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01", reminder: "Ibuprofen")).logs
        #expect(logs.map(\.forced) == [nil, true])
        #expect(devices.laptop.announcer.messages.contains { $0.contains("past its reminder's dose limits here: recorded as forced") })
    }

    /// Logs from elsewhere are applied many to a transaction (one flush each 256, not one per log): more than two
    /// batches' worth are all applied once, and a dose past the limits within a batch sees the ones before it.
    @Test func manyLogsFromAnotherDeviceAreAppliedOnceEachAcrossBatches() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "UTC")
        try await devices.laptop.add("Ibuprofen", ["asNeeded": true], ["dose": "400mg", "maxPerDay": .number(3)])
        let count = 2 * CollectionService.applyBatchSize + 10
        for day in 0..<count {
            let at = instant("2026-11-30T08:05:00Z").adding(seconds: -Int64(day) * 86400)
            try await Self.drop(devices, log: "Metformin", at: ISO8601.format(at, offsetSeconds: 0), file: "metformin-\(day)")
        }
        for hour in 1...4 { try await Self.drop(devices, log: "Ibuprofen", at: "2026-11-30T0\(hour):00:00Z", file: "ibuprofen-\(hour)") }
        let before = try await Self.logCount(devices.laptop)
        await devices.laptop.folderChanged(devices.root + "/laptop")
        await devices.laptop.folderChanged(devices.root + "/laptop")
        #expect(try await Self.logCount(devices.laptop) == before + count + 4)
        let linked = try await devices.laptop.database.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM collectionItem WHERE kind = 'taken' AND localId IN (SELECT id FROM intake)") ?? 0
        }
        #expect(linked == count + 4)
        let forced = try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-11-30", reminder: "Ibuprofen")).logs.map(\.forced)
        #expect(forced == [nil, nil, nil, true])
    }
}
