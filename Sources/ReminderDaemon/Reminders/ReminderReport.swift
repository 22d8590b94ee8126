import ReminderCore
import ReminderInterface
import ReminderStore

/// The `Report` method: how well each reminder was kept over a period (``AdherenceFigures``), read from the logs,
/// the skips and the late takes of the period.
extension ReminderService {
    /// The longest period a report covers.
    static let reportMaximumDays = 20 * 366

    func report(from fromText: String?, to toText: String?, keys: [String]?) async throws(ServiceError) -> Reminders.Report.Reply {
        let now = context.clock.now()
        let to = try context.date(toText, parameter: "to", now: now)
        let from = try fromText.map { text throws(ServiceError) in try context.date(text, parameter: "from") } ?? LocalDate(dayNumber: to.dayNumber - 89)
        guard from <= to else {
            throw .invalidTime(parameter: "from", message: "--from \(from) is after --to \(to): give the first day first")
        }
        guard to.dayNumber - from.dayNumber < Self.reportMaximumDays else {
            throw .invalidTime(parameter: "from", message: "\(from) to \(to) is over 20 years: give a shorter period")
        }
        let reminders: [StoredReminder]
        if let keys, !keys.isEmpty {
            reminders = try keys.map { key throws(ServiceError) in try find(key) }
        } else {
            // Every enabled reminder with a schedule of its own: not a calendar's alarm, not one taken as needed.
            reminders = try storing { () throws(StoreError) in try context.store.reminders.all() }
                .filter { $0.enabled && $0.delivery.calendar == nil && $0.rule.asNeeded != true }
        }
        var figures: [ReportReminderValue] = []
        for reminder in reminders {
            let zone = try context.zone(named: reminder.timeZone)
            let rule = try context.firingRule(of: reminder)
            // Two days more on each side: a window or a late take crosses midnight.
            let start = zone.resolve(LocalDateTime(date: LocalDate(dayNumber: from.dayNumber - 2), time: TimeOfDay(hour: 0, minute: 0)!))
            let end = zone.resolve(LocalDateTime(date: LocalDate(dayNumber: to.dayNumber + 3), time: TimeOfDay(hour: 0, minute: 0)!))
            let id = reminder.id!
            let logs = try storing { () throws(StoreError) in try context.store.intake.instants(reminderID: id, from: start, through: end) }
            let outcomes = try storing { () throws(StoreError) in try context.store.firings.outcomes(reminderID: id, from: start, through: end) }
            let late = try storing { () throws(StoreError) in try context.store.intake.lateTakes(reminderIDs: [id], from: start, through: end)[id] ?? [:] }
            let skips = Dictionary(outcomes.filter { $0.state == .skipped }.map { (Instant(secondsSinceEpoch: $0.scheduledAt), $0.reason ?? "") }) { first, _ in first }
            figures.append(ReportReminderValue(
                reminderId: id, reminderName: reminder.name,
                figures: AdherenceFigures(
                    rule: rule, zone: zone, windowSeconds: reminder.windowSeconds, createdAt: Instant(secondsSinceEpoch: reminder.createdAt),
                    from: from, through: to, logs: logs, skips: skips, takenLate: late, now: now)))
            await yieldToQueuedWork()
        }
        return .init(from: from.description, to: to.description, timeZone: try context.zone(named: nil).identifier, madeUtc: now.description, reminders: figures)
    }
}
