import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore

extension BackupService {
    /// Imports an iCalendar file: ``CalendarImport`` plans the reminders, which are added in one transaction
    /// (a name already taken refuses them all), then planned. A file imported before is refused unless `update`:
    /// then what came from its events is changed in place (``BackupStore/importCalendar(_:file:now:)``).
    func importCalendar(path: String, label: String, all: Bool, update: Bool) async throws(ServiceError) -> Backup.ImportCalendar.Reply {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidInput(parameter: "path", message: "cannot read \(path)")
        }
        guard data.count <= ICalendarReader.maximumSize else {
            throw .invalidInput(parameter: "path", message: "\(path) is larger than 20 MiB: is it a calendar? nothing was imported")
        }
        let now = context.clock.now()
        let context = self.context
        let zones = try context.importZones(names: context.zoneFiles.allZoneNames())
        let plan: CalendarImport
        do {
            plan = try CalendarImport(ICalendarReader.text(utf8: data), file: label, all: all, now: now, zones: zones)
        } catch {
            throw .invalidInput(parameter: "path", message: "\(error.description); nothing was imported")
        }
        let reminders = plan.reminders.map { planned in
            ImportedCalendarReminder(ImportedReminder(
                name: planned.name, rule: planned.rule, enabled: true, createdAt: now, logs: [], timeZone: planned.timeZone,
                delivery: Delivery(repeating: planned.repeating)),
                uid: planned.uid, key: planned.key)
        }
        if !update {
            let before = try storing { () throws(StoreError) in try stores.backups.imported(keys: plan.reminders.compactMap(\.key)) }
            if let name = before.values.sorted().first {
                throw .invalidInput(parameter: "update", message: """
                    '\(name)'\(before.count > 1 ? " and \(before.count - 1) more" : "") came from this calendar's events before: \
                    add --update to change them in place (their logs stay); nothing was imported
                    """)
            }
        }
        let imported = try storing { () throws(StoreError) in try stores.backups.importCalendar(reminders, file: label, now: now) }
        do { try await scheduling.load() } catch { throw ServiceError(error) }
        var added: [Backup.ImportCalendar.CalendarReminder] = []
        for (stored, planned) in zip(imported.ids, plan.reminders) {
            let zone = try context.zone(named: planned.timeZone)
            let rule: ReminderRule
            do { rule = try planned.rule.makeRule() } catch { throw .invalidRule(error.message) }
            let next = rule.nextOccurrence(after: now, in: zone)
            added.append(.init(
                id: stored.id, name: planned.name, summary: rule.summary, timeZone: planned.timeZone ?? context.followedZone.name, next: next?.localISO8601,
                updated: stored.updated ? true : nil))
        }
        return .init(reminders: added, notes: plan.notes, leftOut: plan.leftOut, removed: update ? imported.removed : nil)
    }
}
