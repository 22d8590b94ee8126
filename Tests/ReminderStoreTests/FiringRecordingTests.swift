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
