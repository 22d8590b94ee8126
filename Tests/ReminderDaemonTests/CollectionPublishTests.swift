import Foundation
import GRDB
import ReminderCore
import ReminderDaemonTesting
import Testing

@testable import ReminderDaemon

/// A first publish of many reminders takes a while (100,000: half a minute); what another device writes meanwhile
/// is applied while it runs, not after it.
@Suite("The first publish")
struct CollectionPublishTests {
    static let reminders = 6_000  // three of the publish's pages

    @Test func anotherDevicesDoseWrittenDuringTheFirstPublishIsAppliedBeforeItEnds() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-publish-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let now = instant("2026-12-01T06:00:00Z")
        let unlinked = try await TestDaemon(now: now)
        try await unlinked.database.write { db in
            for number in 0..<Self.reminders {
                try db.execute(
                    sql: "INSERT INTO reminder (name, rule, enabled, createdAt, handledThrough) VALUES (?, ?, 1, ?, ?)",
                    arguments: ["bulk-\(number)", #"{"daily":true,"at":"20:00"}"#, now.secondsSinceEpoch, now.secondsSinceEpoch])
            }
        }
        var configuration = DaemonConfiguration()
        configuration.collection = folder
        let daemon = try await TestDaemon(now: now, configuration: configuration, database: unlinked.database, readsFolders: false)

        async let firstRead: Void = daemon.current.scanFolders()
        // The first reminder's item is written with the first page; the other device logs a dose of it.
        var uid: String?
        while uid == nil {
            try await Task.sleep(for: .milliseconds(2))
            uid = try await daemon.database.read { try String.fetchOne($0, sql: "SELECT uid FROM collectionItem WHERE kind = 'reminder' AND localId = 1") }
        }
        let name = "dose@other-device.ics"
        try """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//other//EN\r\nBEGIN:VJOURNAL\r\nUID:dose@other-device\r\nDTSTAMP:20261201T055000Z\r
            DTSTART:20261201T055000Z\r\nSUMMARY:Taken: bulk-0\r\nRELATED-TO;RELTYPE=PARENT:\(uid!)\r\nX-REMINDD-RECORD:TAKEN\r
            X-REMINDD-TZ:UTC\r\nEND:VJOURNAL\r\nEND:VCALENDAR\r\n
            """.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
        await daemon.folderChanged(folder, names: [name])
        await firstRead

        // Applied, and before the last reminder's item was written (its row came after the dose's).
        let order = try daemon.database.read { db in
            try Row.fetchOne(db, sql: """
                SELECT (SELECT rowid FROM collectionItem WHERE uid = 'dose@other-device') AS dose,
                       (SELECT max(rowid) FROM collectionItem WHERE kind = 'reminder') AS lastReminder,
                       (SELECT count(*) FROM intake WHERE reminderId = 1) AS logs,
                       (SELECT count(*) FROM collectionItem WHERE kind = 'reminder') AS published,
                       (SELECT count(*) FROM reminder) AS reminders
                """)
        }
        #expect(order?["logs"] == 1)
        let reminders: Int? = order?["reminders"]  // the built-in check-in too
        #expect(order?["published"] == reminders && reminders ?? 0 > Self.reminders)
        let (dose, lastReminder): (Int64?, Int64?) = (order?["dose"], order?["lastReminder"])
        #expect(dose != nil && lastReminder != nil && dose! < lastReminder!)
        // Every reminder's item is in the folder once, and the dose's item as the other device wrote it.
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ics") }
        #expect(files.count == (reminders ?? 0) + 1)
    }

    /// A change feed's delivery waits for nothing long: a publish of everything (the first, with 100,000 reminders
    /// half a minute) ran inside the delivery that came first after the start-up read, and every other feature's
    /// delivery waited for it (a reminder added meanwhile was planned after it and fired 44 s late).
    @Test func aDeliveryLeavesThePublishOfEverythingToTheCollectionsPublisher() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("remindd-publish-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let now = instant("2026-12-01T06:00:00Z")
        var configuration = DaemonConfiguration()
        configuration.collection = folder
        let daemon = try await TestDaemon(now: now, configuration: configuration, readsFolders: false)
        await daemon.current.scanFolders(publishing: false)  // as remindd's folder watch reads them at start
        try await daemon.database.write { db in
            try db.execute(
                sql: "INSERT INTO reminder (name, rule, enabled, createdAt, handledThrough) VALUES ('Added', ?, 1, ?, ?)",
                arguments: [#"{"daily":true,"at":"07:00"}"#, now.secondsSinceEpoch, now.secondsSinceEpoch])
        }
        await daemon.current.deliverChanges()

        #expect(daemon.clock.wakeUp == instant("2026-12-01T07:00:00Z"), "the delivery planned the reminder added")
        let written = { try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ics") }.count }
        #expect(try written() == 0, "the delivery did not publish everything")
        await daemon.current.publishCollectionIfDue()
        #expect(try written() == 2, "the collection's publisher did: the reminder added and the built-in check-in")
    }
}
