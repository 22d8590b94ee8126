import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore

extension BackupService {
    /// Imports an iCalendar file: ``CalendarImport`` plans the reminders, which are staged, then added in one
    /// transaction when no firing is due for a while (``FiringLulls``; a name already taken refuses them all),
    /// then planned. A file imported before is refused unless `update`: then what came from its events is changed
    /// in place (``BackupStore/importStaged(_:)``).
    ///
    /// Read, planned and written off the event loops (a 20 MB file of 106,504 events held one for 10 s: a dose
    /// due meanwhile fired 10 s late and `status` waited as long).
    func importCalendar(path: String, label: String, all: Bool, update: Bool) async throws(ServiceError) -> Backup.ImportCalendar.Reply {
        let now = context.clock.now()
        let context = self.context
        let zones = try context.settings.importZones(names: context.settings.zoneFiles.allZoneNames())
        let plan = try await offTheEventLoops { () throws(ServiceError) in try Self.plan(path: path, label: label, all: all, now: now, zones: zones) }
        let backups = stores.backups
        if !update {
            let before = try await offTheEventLoops { () throws(ServiceError) in
                try storing { () throws(StoreError) in try backups.imported(keys: plan.reminders.compactMap(\.key)) }
            }
            if let name = before.values.sorted().first {
                throw .invalidInput(parameter: "update", message: """
                    '\(name)'\(before.count > 1 ? " and \(before.count - 1) more" : "") came from this calendar's events before: \
                    add --update to change them in place (their logs stay); nothing was imported
                    """)
            }
        }
        let staged = try await offTheEventLoops { () throws(ServiceError) in
            let reminders = plan.reminders.map { planned in
                ImportedCalendarReminder(ImportedReminder(
                    name: planned.name, rule: planned.rule, enabled: true, createdAt: now, logs: [], timeZone: planned.timeZone,
                    delivery: Delivery(repeating: planned.repeating)),
                    uid: planned.uid, key: planned.key)
            }
            return try storing { () throws(StoreError) in try backups.stageCalendar(reminders, file: label, now: now) }
        }
        // The move holds the writer (about 750 ms for 106,504 reminders): not while a dose is about to be recorded.
        await context.lulls.lull(lasting: FiringLulls.seconds(toWrite: staged.rows))
        let imported = try await offTheEventLoops { () throws(ServiceError) in
            try storing { () throws(StoreError) in try backups.importStaged(staged) }
        }
        await context.feed.deliver()
        let added = try await offTheEventLoops { () throws(ServiceError) in try Self.summaries(imported.ids, plan: plan, now: now, context: context) }
        return .init(reminders: added, notes: plan.notes, leftOut: plan.leftOut, removed: update ? imported.removed : nil)
    }

    /// The file read and planned.
    private static func plan(path: String, label: String, all: Bool, now: Instant, zones: CalendarImport.Zones) throws(ServiceError) -> CalendarImport {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput(parameter: "path", message: "cannot read \(path)")
        }
        guard data.count <= ICalendarReader.maximumSize else {
            throw .invalidInput(parameter: "path", message: "\(path) is larger than 20 MiB: is it a calendar? nothing was imported")
        }
        do {
            return try CalendarImport(ICalendarReader.text(utf8: data), file: label, all: all, now: now, zones: zones)
        } catch {
            throw .invalidInput(parameter: "path", message: "\(error.description); nothing was imported")
        }
    }

    /// What the reply says of each reminder added or changed: its schedule in words and its next time.
    private static func summaries(
        _ ids: [(id: Int64, updated: Bool)], plan: CalendarImport, now: Instant, context: DaemonContext
    ) throws(ServiceError) -> [Backup.ImportCalendar.CalendarReminder] {
        var added: [Backup.ImportCalendar.CalendarReminder] = []
        for (stored, planned) in zip(ids, plan.reminders) {
            let zone = try context.settings.zone(named: planned.timeZone)
            let rule: ReminderRule
            do { rule = try planned.rule.makeRule() } catch { throw .invalidRule(error.message) }
            let next = rule.nextOccurrence(after: now, in: zone)
            added.append(.init(
                id: stored.id, name: planned.name, summary: rule.summary, timeZone: planned.timeZone ?? context.settings.followedZone.name, next: next?.localISO8601,
                updated: stored.updated ? true : nil))
        }
        return added
    }
}
