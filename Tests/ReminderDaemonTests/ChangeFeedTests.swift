import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore
import Synchronization
import Testing

@testable import ReminderDaemon
@testable import ReminderDaemonTesting

/// A dose that arrives another way than a call here (another device's log item, a phone's completed task) reaches
/// every feature a dose logged here reaches: it went through the folder, which called scheduling and habits
/// itself and told nobody else, so a medication it brought under its refill days said nothing until the next
/// dose logged on this device (#58).
@Suite("The change feed")
struct ChangeFeedTests {
    typealias Devices = CollectionSyncTests.Devices

    static func lowStockNotices(_ daemon: TestDaemon) -> [LowStockNotice] {
        daemon.announcer.events.compactMap { if case .lowStock(let notice) = $0 { notice } else { nil } }
    }

    @Test func anotherDevicesDosesThatBringAMedicationUnderItsRefillDaysAreToldOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["dose": "4", "unit": "tablet", "refillDays": 10])
        // 44 tablets: 11 doses, today's 08:00 to the 11th, 10 days away: not under 10.
        _ = try await devices.laptop.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "44"))
        try await devices.sync()
        #expect(Self.lowStockNotices(devices.laptop).isEmpty)

        // The desktop logs today's dose twice: 36 left, through the 10th, 9 days away.
        await devices.advance(to: "2026-12-01T07:10:00Z")
        try await devices.desktop.log("Metformin")
        try await devices.desktop.log("Metformin")
        try await devices.sync()
        let notices = Self.lowStockNotices(devices.laptop)
        #expect(notices.count == 1)
        #expect(notices.first.map { ($0.name, $0.left, $0.days) } ?? ("", Dose(thousandths: 0, unit: ""), 0) == ("Metformin", Dose(thousandths: 36_000, unit: "tablet"), 9))
        try await devices.sync()
        #expect(Self.lowStockNotices(devices.laptop).count == 1)
    }

    @Test func aPhonesCompletedTaskThatBringsAMedicationUnderItsRefillDaysIsToldOnce() async throws {
        let devices = try await Devices(now: "2026-12-01T06:00:00Z")
        try await devices.laptop.add("Metformin", ["daily": true, "at": "08:00"], timeZone: "Europe/Berlin", ["dose": "4", "unit": "tablet", "refillDays": 10])
        // Today's 08:00 is past and was missed: 40 tablets are 10 doses, from the 2nd to the 11th, 10 days away.
        await devices.advance(to: "2026-12-01T10:00:00Z")
        _ = try await devices.laptop.call(Medication.StockSet.self, .init(reminder: "Metformin", amount: "40"))
        #expect(Self.lowStockNotices(devices.laptop).isEmpty)
        // At 11:05 the phone ticks today's occurrence (an override of the reminder's task, COMPLETED): 36 left.
        await devices.advance(to: "2026-12-01T10:10:00Z")
        let folder = devices.root + "/laptop"
        let file = try #require(try devices.files("laptop").first { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8).contains("SUMMARY:Metformin") })
        let text = try String(contentsOfFile: folder + "/" + file, encoding: .utf8)
        let uid = try #require(text.split(separator: "\r\n").first { $0.hasPrefix("UID:") }).dropFirst(4)
        let override = "BEGIN:VTODO\r\nUID:\(uid)\r\nRECURRENCE-ID;TZID=Europe/Berlin:20261201T080000\r\nSUMMARY:Metformin\r\n"
            + "STATUS:COMPLETED\r\nCOMPLETED:20261201T100500Z\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
        try text.replacingOccurrences(of: "END:VCALENDAR\r\n", with: override).write(toFile: folder + "/" + file, atomically: true, encoding: .utf8)
        await devices.laptop.folderChanged(folder, names: [file])
        // Told as the folder is read (no call here since).
        let notices = Self.lowStockNotices(devices.laptop)
        #expect(notices.count == 1 && notices.first?.left == Dose(thousandths: 36_000, unit: "tablet") && notices.first?.days == 9)
        // One dose of 4 tablets (a completion recorded no amount: the stock did not count the phone's ticks).
        #expect(try await devices.laptop.call(Reminders.Logs.self, .init(date: "2026-12-01")).logs.map(\.amount) == [4])
        await devices.laptop.folderChanged(folder)
        #expect(Self.lowStockNotices(devices.laptop).count == 1)
    }
}

/// ``ChangeFeed`` itself: deliveries do not overlap, each batch is handed once, and a caller that asks while a
/// delivery runs returns only after its own changes were handled.
@Suite("The change feed's deliveries")
struct ChangeFeedDeliveryTests {
    /// A store's change tables: what was committed and not yet taken.
    final class Committed: Sendable {
        private let pending = Mutex(StoreChanges())
        func commit(reminder: Int64) { pending.withLock { _ = $0.reminders[reminder, default: []].insert(.logs) } }
        func take() -> StoreChanges { pending.withLock { taken in defer { taken = StoreChanges() }; return taken } }
    }

    @Test func aDeliveryAskedForWhileOneRunsReturnsAfterItsChangesWereHandled() async throws {
        let committed = Committed()
        let feed = ChangeFeed(take: { committed.take() }, failed: { _ in Issue.record("no take fails here") })
        let handled = Mutex<[Set<Int64>]>([])
        let (entered, enter) = AsyncStream.makeStream(of: Void.self)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        feed.subscribe { changes in
            handled.withLock { $0.append(Set(changes.reminders.keys)) }
            if changes.reminders[1] != nil {  // the first batch is handled slowly: it waits for the gate
                enter.yield()
                for await _ in gate { break }
            }
        }
        committed.commit(reminder: 1)
        let first = Task { await feed.deliver() }
        for await _ in entered { break }
        // Committed while the first delivery runs; its writer asks for a delivery and waits for it.
        committed.commit(reminder: 2)
        let second = Task { () -> [Set<Int64>] in
            await feed.deliver()
            return handled.withLock { $0 }
        }
        for _ in 0..<100 { await Task.yield() }
        open.yield()
        await first.value
        let seenBySecond = await second.value
        #expect(seenBySecond == [[1], [2]])
        #expect(handled.withLock { $0 } == [[1], [2]])
        // Nothing committed: nothing handed out.
        await feed.deliver()
        #expect(handled.withLock { $0 }.count == 2)
    }
}

/// Hundreds of reminders changed in one commit (an import, a calendar read, another program): each is planned
/// again as it is now, read together rather than one by one, and without loading the whole schedule again (a
/// calendar of 20,000 items read a chunk at a time loaded it at every chunk: 8-11 s instead of 2).
@Suite("Many reminders changed at once")
struct ManyChangedTests {
    static func fired(_ daemon: TestDaemon, from start: Int) -> [String] {
        daemon.announcer.events[start...].compactMap { if case .firing(let event) = $0, event.kind == .fired { event.firing.reminder.name } else { nil } }
    }

    @Test func eachIsPlannedAsItIsNowAddedChangedOrDisabled() async throws {
        let daemon = try await TestDaemon(now: instant("2026-12-01T06:00:00Z"), systemZone: "UTC")
        let names = (0..<300).map { "many-\($0)" }
        try await daemon.database.write { db in  // another writer, one commit
            for name in names {
                try db.execute(
                    sql: "INSERT INTO reminder (name, rule, timeZone, enabled, createdAt, handledThrough) VALUES (?, '{\"daily\":true,\"at\":\"07:00\"}', 'UTC', 1, ?, ?)",
                    arguments: [name, instant("2026-12-01T06:00:00Z").secondsSinceEpoch, instant("2026-12-01T06:00:00Z").secondsSinceEpoch])
            }
        }
        await daemon.current.deliverChanges()
        var seen = daemon.announcer.events.count
        await daemon.advance(to: instant("2026-12-01T07:00:00Z"))
        #expect(Self.fired(daemon, from: seen).sorted() == names.sorted())

        // The first half disabled, the second moved to 09:00, in one commit.
        try await daemon.database.write { db in
            try db.execute(sql: "UPDATE reminder SET enabled = 0 WHERE name IN (\(names[..<150].map { "'\($0)'" }.joined(separator: ",")))")
            try db.execute(sql: #"UPDATE reminder SET rule = '{"daily":true,"at":"09:00"}' WHERE name IN ("# + names[150...].map { "'\($0)'" }.joined(separator: ",") + ")")
        }
        await daemon.current.deliverChanges()
        seen = daemon.announcer.events.count
        await daemon.advance(to: instant("2026-12-01T08:59:59Z"))
        #expect(Self.fired(daemon, from: seen).isEmpty)
        await daemon.advance(to: instant("2026-12-01T09:00:00Z"))
        #expect(Self.fired(daemon, from: seen).sorted() == names[150...].sorted())
        seen = daemon.announcer.events.count
        await daemon.advance(to: instant("2026-12-02T08:59:59Z"))
        #expect(Self.fired(daemon, from: seen).isEmpty, "none fires at 07:00 any more")
    }
}

/// The channels a user sees and hears hear of an event only once the ledger (the journal) has sent it: a crash
/// between the two would leave a notification shown that the ledger lacks, and the next start would announce it
/// again (the journal on a thread of its own let the desktop go first, session 41).
@Suite("The ledger first")
struct LedgerFirstTests {
    /// A ledger that sends only when told to, as the journal's thread does when it gets to it.
    final class SlowLedger: Announcer {
        private let queued = Mutex<[@Sendable () -> Void]>([])
        let sent = Mutex<[DaemonEvent]>([])

        func announce(_ event: DaemonEvent) { queued.withLock { $0.append { self.sent.withLock { $0.append(event) } } } }
        func whenSent(_ body: @escaping @Sendable () -> Void) { queued.withLock { $0.append(body) } }
        func sendQueued() { for body in queued.withLock({ queued in defer { queued = [] }; return queued }) { body() } }
    }

    @Test func theOthersHearOfAnEventAfterTheLedgerSentItAndAConfirmationComesLast() {
        let (ledger, desktop) = (SlowLedger(), RecordingAnnouncer())
        let group = AnnouncerGroup([ledger, desktop])
        let confirmed = Mutex(false)
        group.announce(.daemon(DaemonMessage(.notice, "Metformin is due")))
        group.whenSent { confirmed.withLock { $0 = true } }
        #expect(desktop.events.isEmpty && !confirmed.withLock { $0 }, "nothing before the ledger has it")
        ledger.sendQueued()
        #expect(ledger.sent.withLock { $0.count } == 1)
        #expect(desktop.events.count == 1 && confirmed.withLock { $0 })
    }
}
