import Foundation
import GRDB
import ReminderCore
import Testing

@testable import ReminderStore

/// Every write the linked collection publishes is reported in the change feed's `collection`, once, by id, however it was made
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
        let added = try store.reminders.add(name: "Vitamin D", rule: RuleSpec(daily: true, at: "12:00"), timeZone: "UTC", now: now)
        #expect(try store.takeChanges().collection == CollectionChanges(reminders: [added.id]))
        #expect(try store.takeChanges().collection.isEmpty)
        let log = try store.intake.log(reminderID: meds.id, at: now, timeZone: "UTC")
        _ = try store.firings.recordOutcome(OutcomeRecord(
            reminderId: drops.id, reminderName: "Drops", slot: "s", scheduledAt: now.secondsSinceEpoch, state: .skipped, decidedAt: now.secondsSinceEpoch, reason: nil))
        _ = try store.firings.recordOutcome(OutcomeRecord(
            reminderId: drops.id, reminderName: "Drops", slot: "s", scheduledAt: now.secondsSinceEpoch - 86400, state: .missed, decidedAt: now.secondsSinceEpoch, reason: nil))
        let skip = try store.read { try Int64.fetchOne($0, sql: "SELECT id FROM outcome WHERE state = 'skipped'") }
        // A missed occurrence changes its reminder's item (a one-off's task is cancelled).
        #expect(try store.takeChanges().collection == CollectionChanges(reminders: [drops.id], logs: [log.id], skips: [skip!]))
        // Firing bookkeeping: not published, not a change.
        try store.write { try $0.execute(sql: "UPDATE reminder SET handledThrough = handledThrough + 60") }
        #expect(try store.takeChanges().collection.isEmpty)
        var renamed = drops
        renamed.name = "Eye drops"
        _ = try store.reminders.update(renamed, now: now)
        #expect(try store.takeChanges().collection == CollectionChanges(reminders: [drops.id]))
        // A removal takes its logs with it: both reported.
        try store.reminders.remove(id: meds.id)
        #expect(try store.takeChanges().collection == CollectionChanges(reminders: [meds.id], logs: [log.id]))
    }

    @Test func whatAChangeTouchesIsReadWithTheReminderItBelongsTo() throws {
        _ = try store.takeChanges().collection
        let log = try store.intake.log(reminderID: meds.id, at: now, timeZone: "UTC")
        let changed = try store.collection.published(try store.takeChanges().collection)
        #expect(changed.rows.logs.map(\.id) == [log.id])
        #expect(changed.rows.reminders.map(\.name) == ["Meds"])  // its reminder, not every reminder
        #expect(changed.rows.skips.isEmpty && changed.items.isEmpty)
    }

    /// A publish of everything reads its rows a page at a time: every reminder of remindd's own once, in id
    /// order (not a calendar's alarms), every log, only skips; and which reminders have logs or skips.
    @Test func everythingIsReadInPagesOnceEach() throws {
        let more = try (0..<3).map { number in
            try store.reminders.add(name: "Extra \(number)", rule: RuleSpec(daily: true, at: "09:00"), timeZone: "UTC", now: now)
        }
        try store.write { try $0.execute(sql: "UPDATE reminder SET origin = 'calendar' WHERE id = ?", arguments: [more[1].id]) }
        let log = try store.intake.log(reminderID: drops.id, at: now, timeZone: "UTC")
        _ = try store.firings.recordOutcome(OutcomeRecord(
            reminderId: meds.id, reminderName: "Meds", slot: "s", scheduledAt: now.secondsSinceEpoch, state: .missed, decidedAt: now.secondsSinceEpoch, reason: nil))
        let skipped = try #require(try store.firings.recordOutcome(OutcomeRecord(
            reminderId: more[0].id, reminderName: "Extra 0", slot: "s", scheduledAt: now.secondsSinceEpoch, state: .skipped, decidedAt: now.secondsSinceEpoch, reason: nil)))
        var pages: [[Int64]] = []
        var after: Int64 = 0
        while case let page = try store.collection.publishedReminders(after: after, limit: 2), let last = page.last {
            pages.append(page.map { $0.id })
            after = last.id
        }
        #expect(pages == [[meds.id, drops.id], [more[0].id, more[2].id]])
        #expect(try store.collection.publishedLogs(after: 0, limit: 2).map(\.id) == [log.id])
        #expect(try store.collection.publishedLogs(after: log.id, limit: 2).isEmpty)
        #expect(try store.collection.publishedSkips(after: 0, limit: 2).map(\.id) == [skipped])
        #expect(try store.collection.reminderIDsWithRecords() == [drops.id, more[0].id])
    }
}
