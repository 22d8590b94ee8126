import Foundation
import GRDB
import ReminderCore
import ReminderInterface
import ReminderStore
import Testing
import VarlinkProtocol

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// A collection folder that is missing, emptied or replaced is a disk not mounted or a folder moved, never
/// deletions made on another device: nothing is removed here, nothing written there, it is said once and shown by
/// `status`, and it is used again when it is back or relinked on purpose.
@Suite("A missing or emptied collection")
struct CollectionHoldTests {
    typealias Devices = CollectionSyncTests.Devices

    /// Two medications on the laptop, a dose of each logged, everything synced to the desktop.
    static func linkedDevices() async throws -> Devices {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["dose": "2", "unit": "tablet"])
        try await devices.laptop.add("Ramipril", ["daily": true, "at": "20:00"], timeZone: "Europe/Berlin")
        await devices.advance(to: "2026-12-01T07:10:00Z")
        try await devices.laptop.log("Metformin")
        try await devices.laptop.log("Ramipril")
        try await devices.sync()
        return devices
    }

    static func logs(_ daemon: TestDaemon) async throws -> [IntakeValue] {
        try await daemon.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs
    }

    /// The files of other devices' copies of this device's reminders (the built-in check-in of each).
    static func aliases(_ daemon: TestDaemon) async throws -> Set<String> {
        try await daemon.database.read { try String.fetchSet($0, sql: "SELECT fileName FROM collectionItem WHERE kind = 'alias'") }
    }

    static func held(_ daemon: TestDaemon) async throws -> String? {
        try await daemon.call(Reminders.Status.self, .init()).collection?.heldBecause
    }

    @Test func aFolderMovedAwayWhileStoppedRemovesNothingAndIsUsedAgainWhenBack() async throws {
        let devices = try await Self.linkedDevices()
        let folder = devices.root + "/laptop"
        let (reminders, logs, files) = (try await devices.laptop.ownReminders(), try await Self.logs(devices.laptop), try devices.files("laptop"))
        #expect(logs.count == 2)
        // Stopped, the disk not mounted (the folder is elsewhere), started.
        try FileManager.default.moveItem(atPath: folder, toPath: folder + ".unmounted")
        try await devices.laptop.restart()
        #expect(try await devices.laptop.ownReminders() == reminders)
        #expect(try await Self.logs(devices.laptop) == logs)
        #expect(try await Self.held(devices.laptop) == "the folder does not exist")
        #expect(!FileManager.default.fileExists(atPath: folder))  // not made by the daemon
        let said = devices.laptop.announcer.messages.filter { $0.hasPrefix("Collection \(folder) is not used: the folder does not exist") }
        #expect(said.count == 1 && said[0].contains("remindctl collection relink"))
        // A dose logged meanwhile is kept here and not written anywhere; watcher reports change nothing more.
        _ = try await devices.laptop.call(Reminders.Log.self, .init(reminder: "Ramipril"))
        await devices.laptop.folderChanged(folder)
        #expect(devices.laptop.announcer.messages.filter { $0.contains("is not used") }.count == 1)
        // The disk is mounted again: used again, the dose logged meanwhile published, nothing doubled.
        try FileManager.default.moveItem(atPath: folder + ".unmounted", toPath: folder)
        await devices.laptop.folderChanged(folder)
        #expect(try await Self.held(devices.laptop) == nil)
        #expect(devices.laptop.announcer.messages.contains { $0.hasPrefix("Collection \(folder) is back") })
        #expect(try devices.files("laptop").count == files.count + 1)
        try await devices.sync()
        #expect(Set(try await devices.desktop.ownReminders().map(\.name)) == Set(reminders.map(\.name)))
        #expect(try await Self.logs(devices.desktop).count == 3)
        #expect(try await Self.logs(devices.laptop).count == 3)
    }

    @Test func aFolderEmptiedBySyncIsHeldUntilRelinkWritesItBackAndNoDeviceLosesADose() async throws {
        let devices = try await Self.linkedDevices()
        let folder = devices.root + "/laptop"
        let files = try devices.files("laptop")
        let reminders = try await devices.laptop.ownReminders()
        for file in files { try FileManager.default.removeItem(atPath: folder + "/" + file) }
        await devices.laptop.folderChanged(folder)
        #expect(try await devices.laptop.ownReminders() == reminders)
        #expect(try await Self.logs(devices.laptop).count == 2)
        #expect(try await Self.held(devices.laptop)?.hasPrefix("it holds none of the \(files.count) items") == true)
        // Changes here are not written into the held folder.
        try await devices.laptop.add("Water", ["daily": true, "at": "12:00"], timeZone: "Europe/Berlin")
        #expect(try devices.files("laptop").isEmpty)
        // Taken on purpose: every item is back, with the same names, and the new reminder too. Another device's copy
        // of the built-in check-in that gave way to this device's (when its UID is the larger) is not brought back.
        let aliases = try await Self.aliases(devices.laptop)
        let relinked = try await devices.laptop.call(Reminders.RelinkCollection.self, .init())
        // Another device's copy of the built-in check-in that gave way to this device's (when its UID is the larger)
        // is not brought back.
        #expect(relinked.restored == files.count - aliases.count && relinked.folder == folder)
        #expect(try await Self.held(devices.laptop) == nil)
        let written = try devices.files("laptop")
        #expect(Set(written).isSuperset(of: Set(files).subtracting(aliases)) && written.count == files.count - aliases.count + 1)
        try await devices.sync()
        #expect(Set(try await devices.desktop.ownReminders().map(\.name)) == Set(reminders.map(\.name) + ["Water"]))
        #expect(try await Self.logs(devices.desktop).count == 2)
        #expect(try await Self.logs(devices.laptop).count == 2)
    }

    @Test func theCollectionKeyPointedAtAnotherFolderAndReloadedIsHeldNotADeletion() async throws {
        let devices = try await Self.linkedDevices()
        let other = devices.root + "/elsewhere"
        try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
        var configuration = DaemonConfiguration()
        configuration.collection = other
        try await devices.laptop.current.reload(configuration)
        #expect(try await devices.laptop.ownReminders().count == 2)
        #expect(try await Self.logs(devices.laptop).count == 2)
        #expect(try await Self.held(devices.laptop)?.hasPrefix("it holds none") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: other).isEmpty)
        let linked = Set(try devices.files("laptop")).subtracting(try await Self.aliases(devices.laptop))
        let relinked = try await devices.laptop.call(Reminders.RelinkCollection.self, .init())
        #expect(relinked.restored == linked.count)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: other)) == linked)
    }

    @Test func relinkingAFolderThatDoesNotExistSaysHowToFixIt() async throws {
        let devices = try await Self.linkedDevices()
        try FileManager.default.removeItem(atPath: devices.root + "/laptop")
        await #expect { try await devices.laptop.call(Reminders.RelinkCollection.self, .init()) } throws: {
            String(describing: $0).contains("mkdir -p")
        }
        #expect(try await devices.laptop.ownReminders().count == 2)
    }

    @Test func aFewRemindersDeletedOnAnotherDeviceAreStillDeletions() async throws {
        let devices = try await Self.linkedDevices()
        _ = try await devices.desktop.call(Reminders.Remove.self, .init(reminder: "Ramipril"))
        try await devices.sync()
        // Applied once no other item went for a while (the folder is not being emptied).
        #expect(try await devices.laptop.ownReminders().count == 2)
        await devices.letRemovalsSettle()
        #expect(try await devices.laptop.ownReminders().map(\.name) == ["Metformin"])
        #expect(try await Self.held(devices.laptop) == nil)
    }

    /// A reminder removed on another device (or by a phone app that deleted its task) is removed here, but its
    /// logs stay in the store, in backups, and come back with it when its item does: no sync erases a dose history.
    @Test func aReminderRemovedOnAnotherDeviceKeepsItsLogsHereAndGetsThemBackWhenItReturns() async throws {
        let devices = try await Self.linkedDevices()
        let folder = devices.root + "/laptop"
        let ramipril = try #require(try await devices.laptop.call(Reminders.List.self, .init()).reminders.first { $0.name == "Ramipril" })
        let file = try #require(try await devices.laptop.database.read {
            try String.fetchOne($0, sql: "SELECT fileName FROM collectionItem WHERE kind = 'reminder' AND localId = ?", arguments: [ramipril.id])
        })
        let item = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        _ = try await devices.desktop.call(Reminders.Remove.self, .init(reminder: "Ramipril"))
        try await devices.sync()
        await devices.letRemovalsSettle()
        #expect(try await devices.laptop.ownReminders().map(\.name) == ["Metformin"])
        #expect(try await Self.logs(devices.laptop).map(\.reminderName) == ["Metformin"])
        let kept = try await devices.laptop.database.read { try KeptIntakeRecord.fetchAll($0) }
        #expect(kept.map(\.reminderName) == ["Ramipril"])
        #expect(devices.laptop.announcer.messages.contains { $0.contains("removed on another device; 1 of its logs are kept") })
        // In a backup.
        guard case .object(let tables)? = try await devices.laptop.exportBackup()["tables"], case .array(let rows)? = tables["keptIntake"] else {
            Issue.record("no keptIntake table in the backup")
            return
        }
        #expect(rows.count == 1)
        // The item comes back (restored on the phone, or from another device's copy): the same reminder, with its
        // id, its firing history and its one log, not two.
        try item.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(folder)
        let back = try #require(try await devices.laptop.call(Reminders.List.self, .init()).reminders.first { $0.name == "Ramipril" })
        #expect(back.id == ramipril.id)
        #expect(try await Self.logs(devices.laptop).map(\.reminderName).sorted() == ["Metformin", "Ramipril"])
        #expect(try await devices.laptop.database.read { try KeptIntakeRecord.fetchCount($0) } == 0)
    }

    @Test(arguments: [
        (0, 0, true), (5, 0, true), (1, 1, false), (4, 4, false), (10, 2, true), (10, 5, true), (10, 6, false), (4, 3, false), (4, 2, true),
    ])
    func theRuleForAFolderThatLostWhatWasLinked(known: Int, missing: Int, available: Bool) {
        #expect((CollectionPresence.judge(known: known, missing: missing) == .available) == available)
    }
}
