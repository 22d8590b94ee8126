import Foundation
import GRDB
import ReminderCore
import Testing

@testable import ReminderStore

/// Every write that can change a goal's streak is reported in the change feed's `history`, once, with the earliest
/// instant or day it touched; writes that cannot change one are not.
@Suite("History changes")
struct HistoryChangesTests {
    let now = Instant(secondsSinceEpoch: 1_795_000_000)
    let store: ReminderStore
    let meds: StoredReminder
    let drops: StoredReminder

    init() throws {
        store = try ReminderStore(database: try DatabaseQueue())
        meds = try store.reminders.add(name: "Meds", rule: RuleSpec(daily: true, at: "08:00"), timeZone: "UTC", now: now)
        drops = try store.reminders.add(name: "Drops", rule: RuleSpec(daily: true, at: "21:00"), timeZone: nil, now: now)
        _ = try store.takeChanges().history
    }

    func at(_ days: Int) -> Instant { now.adding(seconds: Int64(days) * 86400) }

    func skip(_ reminder: StoredReminder, at instant: Instant, state: OutcomeRecord.State = .skipped) throws {
        _ = try store.firings.recordOutcome(OutcomeRecord(
            reminderId: reminder.id, reminderName: reminder.name, slot: "s", scheduledAt: instant.secondsSinceEpoch, state: state,
            decidedAt: now.secondsSinceEpoch, reason: nil))
    }

    @Test func logsAndTheirDeletionAreReportedWithTheEarliestInstant() throws {
        _ = try store.intake.log(reminderID: meds.id, at: at(-3), timeZone: "UTC")
        let old = try store.intake.log(reminderID: meds.id, at: at(-30), timeZone: "UTC")
        _ = try store.intake.log(reminderID: drops.id, at: at(-1), timeZone: "UTC")
        #expect(try store.takeChanges().history == HistoryChanges(goals: [meds.id: at(-30), drops.id: at(-1)]))
        #expect(try store.takeChanges().history.isEmpty)
        _ = try store.intake.delete(id: old.id)
        #expect(try store.takeChanges().history == HistoryChanges(goals: [meds.id: at(-30)]))
    }

    @Test func skipsAreReportedAndMissedOutcomesAreNot() throws {
        try skip(meds, at: at(-2), state: .missed)
        #expect(try store.takeChanges().history.isEmpty)
        try skip(meds, at: at(-5))
        #expect(try store.takeChanges().history == HistoryChanges(goals: [meds.id: at(-5)]))
    }

    @Test func restDaysAreReportedAsDayNumbers() throws {
        try store.habits.markRestDays([RestDayRecord(date: "2026-11-03", reason: "sick", activities: []), RestDayRecord(date: "2026-10-30", reason: "sick", activities: [])])
        #expect(try store.takeChanges().history == HistoryChanges(restDaysFrom: LocalDate(year: 2026, month: 10, day: 30)!.dayNumber))
        _ = try store.habits.unmarkRestDay("2026-11-03")
        #expect(try store.takeChanges().history == HistoryChanges(restDaysFrom: LocalDate(year: 2026, month: 11, day: 3)!.dayNumber))
    }

    @Test func aChangedRuleZoneOrWindowChangesEverythingAndARenameNothing() throws {
        var changed = meds
        changed.name = "Morning meds"
        changed.enabled = false
        changed = try store.reminders.update(changed, now: now)
        #expect(try store.takeChanges().history.isEmpty)
        for change in [{ (r: inout StoredReminder) in r.rule = RuleSpec(daily: true, at: "09:00") }, { $0.timeZone = "Asia/Tokyo" }, { $0.windowSeconds = 600 }] {
            change(&changed)
            changed = try store.reminders.update(changed, now: now)
            #expect(try store.takeChanges().history == HistoryChanges(goals: [meds.id: HistoryChanges.everything]))
        }
        try store.reminders.remove(id: drops.id)
        #expect(try store.takeChanges().history.goals[drops.id] == HistoryChanges.everything)
    }

    @Test func aRestoreReportsEveryReminderAndRestDay() throws {
        _ = try store.intake.log(reminderID: meds.id, at: at(-3), timeZone: "UTC")
        try store.habits.markRestDays([RestDayRecord(date: "2026-11-03", reason: "sick", activities: [])])
        var pages = try store.backups.pages(pageSize: 1)
        var tables: [String: [[String: Any]]] = [:]
        while let page = try pages.next() {
            tables[page.table, default: []] += page.rows.map { row in
                row.mapValues { value -> Any in
                    switch value {
                    case .null: NSNull()
                    case .integer(let number): number
                    case .real(let number): number
                    case .text(let text): text
                    case .blob(let bytes): ["base64": bytes.base64EncodedString()]
                    }
                }
            }
        }
        let document: [String: Any] = ["format": BackupFormat.name, "version": 1, "schema": pages.schema, "exportedAt": "now", "tables": tables]
        let path = NSTemporaryDirectory() + "remindd-restore-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: document).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }  // (a temporary file: nothing to report if it is gone)
        _ = try store.takeChanges().history
        let other = try ReminderStore(database: try DatabaseQueue())
        _ = try other.takeChanges().history
        _ = try other.backups.restore(path: path, merge: false)
        let changes = try other.takeChanges().history
        #expect(changes.goals[meds.id] == HistoryChanges.everything)
        #expect(changes.goals[drops.id] == HistoryChanges.everything)
        #expect(changes.restDaysFrom == LocalDate(year: 2026, month: 11, day: 3)!.dayNumber)
    }
}
