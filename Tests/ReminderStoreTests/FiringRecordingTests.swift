import Foundation
import GRDB
import ReminderCore
import Testing

@testable import ReminderStore

/// Firings recorded once per slot, unconfirmed until announced (the store's half of "a dose fires once").
extension ReminderStoreTests {
    @Test func firingsAreRecordedOncePerSlot() throws {
        let store = try ReminderStore(path: path)
        let reminder = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        let record = FiringRecord(
            reminderId: reminder.id, reminderName: "Meds", slot: "reminder-1-08-00", scheduledAt: now.secondsSinceEpoch + 60,
            handledAt: now.secondsSinceEpoch + 60, kind: .fired, lateSeconds: 0, slotsDue: 1, detail: nil)
        #expect(try store.firings.recordFiring(record, handledThrough: now.adding(seconds: 60)) != .alreadyHandled)
        #expect(try store.firings.recordFiring(record, handledThrough: now.adding(seconds: 60)) == .alreadyHandled)
        #expect(try store.firings.history(since: now).count == 1)
        #expect(try store.reminders.find("Meds").handledThrough == now.secondsSinceEpoch + 60)
        #expect(try store.firings.lastFiring(reminderID: reminder.id)?.slot == "reminder-1-08-00")

        // The clock went back before the slot: it is handled again, and the second record says so.
        #expect(try store.firings.rewindHandled(to: now) == 1)
        #expect(try store.reminders.find("Meds").handledThrough == now.secondsSinceEpoch)
        guard case .recorded(let secondID, replanned: true) = try store.firings.recordFiring(record, handledThrough: now.adding(seconds: 60)) else {
            Issue.record("the slot's second record is not said to be re-planned")
            return
        }
        #expect(try store.firings.history(since: now).map(\.replanned).sorted() == [0, 1])
        #expect(try store.firings.history(since: now).map(\.replanned) == [1, 0])
        #expect(try store.firings.history(since: now).first?.id == secondID)
        #expect(try store.firings.rewindHandled(to: now.adding(seconds: 60)) == 0)

        // And once more: the third record is numbered after both.
        #expect(try store.firings.rewindHandled(to: now) == 1)
        guard case .recorded(_, replanned: true) = try store.firings.recordFiring(record, handledThrough: now.adding(seconds: 60)) else {
            Issue.record("the slot's third record is not said to be re-planned")
            return
        }
        #expect(try store.firings.history(since: now).map(\.replanned).sorted() == [0, 1, 2])
    }

    @Test func firingsAreRecordedUnconfirmedUntilTheirAnnouncementIsConfirmed() throws {
        let store = try ReminderStore(path: path)
        let reminder = try store.reminders.add(name: "Meds", rule: daily, timeZone: nil, now: now)
        let record = FiringRecord(
            reminderId: reminder.id, reminderName: "Meds", slot: "09:00", scheduledAt: now.secondsSinceEpoch + 30, handledAt: now.secondsSinceEpoch + 30,
            kind: .fired, lateSeconds: 0, slotsDue: 1, detail: nil)
        guard case .recorded(let id, replanned: false) = try store.firings.recordFiring(record, handledThrough: now.adding(seconds: 60)) else {
            Issue.record("not recorded")
            return
        }
        #expect(try store.firings.unconfirmed().firings.map(\.id) == [id])
        try store.firings.confirmAnnounced(firings: [id])
        #expect(try store.firings.unconfirmed().isEmpty)
        let instance = try store.firings.instanceID()
        #expect(instance.count == 32)
        #expect(try ReminderStore(path: path + "-other").firings.instanceID() != instance)
    }
}

/// The reminders taken as needed are found through their partial index, not by reading every rule (with
/// 100,000 reminders the scan made each `Next` call 17 ms).
@Suite struct AsNeededIndexTests {
    @Test func theAsNeededQueryUsesItsIndex() throws {
        let queue = try DatabaseQueue()
        let store = try ReminderStore(database: queue)
        let plan = try queue.read { db in
            let statement = try StoredReminder.filter(sql: RemindersStore.asNeededTerm).filter(Column("enabled")).order(Column("id")).makePreparedRequest(db).statement
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.contains { $0.contains("reminder_as_needed") }, "\(plan)")
        _ = store
    }
}

/// A reminder's history is read through its index by reminder and time: through the unique key's index, every
/// firing of a reminder of twenty years was read and sorted for the newest 20 (814 ms).
@Suite struct FiringHistoryIndexTests {
    @Test func oneRemindersHistoryUsesItsIndexAndNoSort() throws {
        let queue = try DatabaseQueue()
        let store = try ReminderStore(database: queue)
        let plan = try queue.read { db in
            let request = FiringsStore.historyRequest(since: Instant(secondsSinceEpoch: 0), reminderID: 1, limit: 20)
            let statement = try request.makePreparedRequest(db).statement
            return try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + statement.sql, arguments: statement.arguments).map { $0["detail"] as String? ?? "" }
        }
        #expect(plan.contains { $0.contains("firing_by_reminder_time") }, "\(plan)")
        #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")
        _ = store
    }

    /// A store holding one firing (id 7, of reminder 1) whose `column` was set to `value` (SQL) by hand.
    private func storeWithFiring(setting column: String, to value: String) throws -> ReminderStore {
        let queue = try DatabaseQueue()
        let store = try ReminderStore(database: queue)
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO firing (id, reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue)
                VALUES (7, 1, 'Meds', 'reminder-1', 1795000000, 1795000000, 'fired', 0, 1)
                """)
            try db.execute(sql: "UPDATE firing SET \(column) = \(value) WHERE id = 7")
        }
        return store
    }

    /// Whether `error` refuses the firing with id 7 naming `column`.
    private func refusesFiring7(_ error: any Error, naming column: String) -> Bool {
        guard case .unusable(let row) = error as? StoreError else { return false }
        return row.table == "firing" && row.id == 7 && row.column == column
    }

    /// A firing row holding what no firing holds (a kind written by hand) is refused naming its table, row and column,
    /// as a reminder's row is; read through `Decodable` it was "the database cannot be used" with a decoding
    /// error's dump.
    @Test func aFiringRowThatCannotBeReadIsNamed() throws {
        let store = try storeWithFiring(setting: "kind", to: "'announced'")
        #expect {
            _ = try store.firings.history(since: Instant(secondsSinceEpoch: 0))
        } throws: { refusesFiring7($0, naming: "kind") }
    }

    /// Text where a number belongs (a row mended by hand, a damaged store) is refused naming the column: SQLite's
    /// fast path read `'tomorrow'` in `scheduledAt` as 0, a firing of 1 January 1970, and `'12x'` in
    /// `lateSeconds` as 12.
    @Test(arguments: [("scheduledAt", "'tomorrow'"), ("lateSeconds", "'12x'"), ("handledAt", "x'00'")])
    func textWhereANumberBelongsIsRefused(column: String, value: String) throws {
        let store = try storeWithFiring(setting: column, to: value)
        #expect {
            _ = try store.firings.history(since: Instant(secondsSinceEpoch: 0), reminderID: 1)
        } throws: { refusesFiring7($0, naming: column) }
    }
}
