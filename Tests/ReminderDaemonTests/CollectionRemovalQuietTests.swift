import Foundation
import ReminderCore
import ReminderInterface
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// Items gone from the collection are applied as deletions made elsewhere only once no other went for
/// ``PendingRemovals/quietSeconds``: a folder emptied item by item (`rm -rf` on a loaded machine, a sync client
/// resetting it) is then seen gone as a whole and held, where the first items it lost were applied as deletions
/// (a reminder and its logs gone from the store, and not brought back by relink).
@Suite("Deletions wait for a quiet")
struct CollectionRemovalQuietTests {
    typealias Devices = CollectionSyncTests.Devices

    @Test func aFolderEmptiedItemByItemIsHeldAndRelinkBringsEverythingBack() async throws {
        let devices = try await CollectionHoldTests.linkedDevices()
        let folder = devices.root + "/laptop"
        let files = try devices.files("laptop")
        let (reminders, logs) = (try await devices.laptop.ownReminders(), try await CollectionHoldTests.logs(devices.laptop))
        #expect(files.count >= 4 && logs.count == 2)
        // One item unlinked a second, each seen by the watcher on its own; then the folder itself.
        for file in files {
            try FileManager.default.removeItem(atPath: folder + "/" + file)
            await devices.laptop.folderChanged(folder, names: [file])
            await devices.laptop.advance(by: 1)
        }
        try FileManager.default.removeItem(atPath: folder)
        await devices.laptop.folderChanged(folder)
        #expect(try await CollectionHoldTests.held(devices.laptop) == "the folder does not exist")
        await devices.laptop.advance(by: 2 * PendingRemovals.quietSeconds)
        #expect(try await devices.laptop.ownReminders() == reminders)
        #expect(try await CollectionHoldTests.logs(devices.laptop) == logs)
        #expect(!devices.laptop.announcer.messages.contains { $0.contains("removed on another device") })
        // Made again and relinked on purpose: every item this device linked is written back.
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let aliases = try await CollectionHoldTests.aliases(devices.laptop)
        let relinked = try await devices.laptop.call(Reminders.RelinkCollection.self, .init())
        #expect(relinked.restored == files.count - aliases.count)
        #expect(Set(try devices.files("laptop")) == Set(files).subtracting(aliases))
    }

    /// A sync client that deletes an item and writes it again (a conflict resolved, a rename undone) removes nothing.
    @Test func anItemGoneAndBackWithinTheQuietRemovesNothing() async throws {
        let devices = try await CollectionHoldTests.linkedDevices()
        let folder = devices.root + "/laptop"
        let reminders = try await devices.laptop.ownReminders()
        let file = try #require(try devices.files("laptop").first)
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        try FileManager.default.removeItem(atPath: folder + "/" + file)
        await devices.laptop.folderChanged(folder, names: [file])
        await devices.laptop.advance(by: 1)
        try text.write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(folder, names: [file])
        await devices.laptop.advance(by: 2 * PendingRemovals.quietSeconds)
        #expect(try await devices.laptop.ownReminders() == reminders)
        #expect(try await CollectionHoldTests.logs(devices.laptop).count == 2)
        #expect(!devices.laptop.announcer.messages.contains { $0.contains("removed on another device") })
    }

    /// A deletion seen just before a restart is still applied after it, once.
    @Test func aDeletionPendingAtARestartIsAppliedAfterIt() async throws {
        let devices = try await CollectionHoldTests.linkedDevices()
        _ = try await devices.desktop.call(Reminders.Remove.self, .init(reminder: "Ramipril"))
        try await devices.sync()
        try await devices.laptop.restart()
        #expect(try await devices.laptop.ownReminders().count == 2)
        await devices.letRemovalsSettle()
        #expect(try await devices.laptop.ownReminders().map(\.name) == ["Metformin"])
        #expect(devices.laptop.announcer.messages.filter { $0.contains("removed on another device") }.count == 1)
        try await devices.laptop.restart()
        #expect(try await devices.laptop.ownReminders().map(\.name) == ["Metformin"])
    }

    /// The wall clock set back an hour between a deletion and its application: applied after the quiet, not an
    /// hour later.
    @Test func aDeletionWaitingWhenTheClockIsSetBackIsAppliedAfterTheQuiet() async throws {
        let devices = try await CollectionHoldTests.linkedDevices()
        _ = try await devices.desktop.call(Reminders.Remove.self, .init(reminder: "Ramipril"))
        try await devices.sync()
        await devices.laptop.setClock(to: devices.laptop.clock.now().adding(seconds: -3600))
        #expect(try await devices.laptop.ownReminders().count == 2)
        await devices.laptop.advance(by: PendingRemovals.quietSeconds)
        #expect(try await devices.laptop.ownReminders().map(\.name) == ["Metformin"])
    }

    @Test func theQuietStartsAgainAtEachItemGoneAndEndsWhenAllAreBack() {
        var removals = PendingRemovals()
        let start = Instant(secondsSinceEpoch: 1_800_000_000)
        removals.scanned(gone: ["a.ics"], lookedAt: ["a.ics"], now: start)
        #expect(removals.due == start.adding(seconds: PendingRemovals.quietSeconds))
        removals.scanned(gone: ["b.ics"], lookedAt: ["b.ics"], now: start.adding(seconds: 2))
        #expect(removals.files == ["a.ics", "b.ics"])
        #expect(removals.due == start.adding(seconds: 2 + PendingRemovals.quietSeconds))
        // Seen again, not new: the quiet does not start again.
        removals.scanned(gone: ["a.ics", "b.ics"], lookedAt: nil, now: start.adding(seconds: 3))
        #expect(removals.due == start.adding(seconds: 2 + PendingRemovals.quietSeconds))
        let due = start.adding(seconds: 2 + PendingRemovals.quietSeconds)
        #expect(!removals.apply(now: due.adding(seconds: -1), lookedAt: nil))
        #expect(!removals.apply(now: due, lookedAt: ["a.ics"]))  // a scan that did not look at b.ics
        #expect(removals.apply(now: due, lookedAt: ["a.ics", "b.ics"]) && removals.apply(now: due, lookedAt: nil))
        // A named scan that finds one back leaves the other; a whole one that finds both back leaves none.
        removals.scanned(gone: [], lookedAt: ["a.ics"], now: due)
        #expect(removals.files == ["b.ics"])
        removals.scanned(gone: [], lookedAt: nil, now: due)
        #expect(removals.files.isEmpty && removals.due == nil)
        // The clock set back an hour: the quiet counts from the scan after it, not from the hour ahead.
        removals.scanned(gone: ["c.ics"], lookedAt: ["c.ics"], now: due)
        removals.scanned(gone: ["c.ics"], lookedAt: ["c.ics"], now: due.adding(seconds: -3600))
        #expect(removals.due == due.adding(seconds: PendingRemovals.quietSeconds - 3600))
    }
}
