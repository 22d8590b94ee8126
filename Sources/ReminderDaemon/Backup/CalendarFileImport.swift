import Foundation
import ReminderCore
import ReminderInterface
import ReminderStore

extension BackupService {
    /// Imports an iCalendar file: ``CalendarImport`` plans the reminders, which are added in one transaction
    /// (a name already taken refuses them all), then planned.
    func importCalendar(path: String, label: String, all: Bool) async throws(ServiceError) -> Backup.ImportCalendar.Reply {
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
            ImportedReminder(
                name: planned.name, rule: planned.rule, enabled: true, createdAt: now, logs: [], timeZone: planned.timeZone,
                delivery: Delivery(repeatPlan: planned.repeatSeconds.map { RepeatPlan(intervalSeconds: $0, maximum: planned.repeatMax) }))
        }
        let ids = try storing { () throws(StoreError) in
            try context.store.backups.importReminders(reminders, zoneName: context.systemZone, now: now).ids
        }
        do { try await scheduling.load() } catch { throw ServiceError(error) }
        var added: [Backup.ImportCalendar.CalendarReminder] = []
        for (id, planned) in zip(ids, plan.reminders) {
            let zone = try context.zone(named: planned.timeZone)
            let rule: ReminderRule
            do { rule = try planned.rule.makeRule() } catch { throw .invalidRule(error.message) }
            let next = rule.nextOccurrence(after: now, in: zone)
            added.append(.init(id: id, name: planned.name, summary: rule.summary, timeZone: planned.timeZone ?? context.followedZone.name, next: next?.localISO8601))
        }
        return .init(reminders: added, notes: plan.notes, leftOut: plan.leftOut)
    }
}
