import Foundation
import GRDB
import ReminderCore
import Testing

@testable import ReminderStore

/// Every write the linked collection publishes is reported by `takeChanges`, once, by id, however it was made
/// (a removal's cascade included); the firing bookkeeping it does not publish is not.
@Suite("Collection changes")
struct CollectionChangesTests {
    /// The same store as the history changes' tests: two reminders, their changes not yet taken.
    let fixture: HistoryChangesTests
    var now: Instant { fixture.now }
    var store: ReminderStore { fixture.store }
    var meds: StoredReminder { fixture.meds }
    var drops: StoredReminder { fixture.drops }

    init() throws { fixture = try HistoryChangesTests() }

    @Test func addedChangedAndRemovedRowsAreReportedOnceAndBookkeepingIsNot() throws {
        #expect(try store.collection.takeChanges() == CollectionChanges(reminders: [meds.id!, drops.id!]))
        #expect(try store.collection.takeChanges().isEmpty)
        let log = try store.intake.log(reminderID: meds.id!, at: now, timeZone: "UTC")
        _ = try store.firings.recordOutcome(OutcomeRecord(
            reminderId: drops.id!, reminderName: "Drops", slot: "s", scheduledAt: now.secondsSinceEpoch, state: .skipped, decidedAt: now.secondsSinceEpoch, reason: nil))
        _ = try store.firings.recordOutcome(OutcomeRecord(
            reminderId: drops.id!, reminderName: "Drops", slot: "s", scheduledAt: now.secondsSinceEpoch - 86400, state: .missed, decidedAt: now.secondsSinceEpoch, reason: nil))
        let skip = try store.read { try Int64.fetchOne($0, sql: "SELECT id FROM outcome WHERE state = 'skipped'") }
        #expect(try store.collection.takeChanges() == CollectionChanges(logs: [log.id!], skips: [skip!]))
        // Firing bookkeeping: not published, not a change.
        try store.write { try $0.execute(sql: "UPDATE reminder SET handledThrough = handledThrough + 60") }
        #expect(try store.collection.takeChanges().isEmpty)
        var renamed = drops
        renamed.name = "Eye drops"
        _ = try store.reminders.update(renamed, now: now)
        #expect(try store.collection.takeChanges() == CollectionChanges(reminders: [drops.id!]))
        // A removal takes its logs with it: both reported.
        try store.reminders.remove(id: meds.id!)
        #expect(try store.collection.takeChanges() == CollectionChanges(reminders: [meds.id!], logs: [log.id!]))
    }

    @Test func whatAChangeTouchesIsReadWithTheReminderItBelongsTo() throws {
        _ = try store.collection.takeChanges()
        let log = try store.intake.log(reminderID: meds.id!, at: now, timeZone: "UTC")
        let changed = try store.collection.published(try store.collection.takeChanges())
        #expect(changed.rows.logs.map(\.id) == [log.id])
        #expect(changed.rows.reminders.map(\.name) == ["Meds"])  // its reminder, not every reminder
        #expect(changed.rows.skips.isEmpty && changed.items.isEmpty)
    }
}
