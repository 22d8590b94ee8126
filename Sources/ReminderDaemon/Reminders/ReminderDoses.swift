import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// Logging a dose: its time, and `done`; how much it takes and whether its limits allow it are medication's
/// (``DosePolicy``).
extension ReminderService {
    /// Logs an intake now or at a past time; it cancels the pending snoozes and repeats of what it takes.
    /// `amount`: how much was taken (`1`, `0.5`), in the dose's unit; default: the reminder's dose.
    func log(key: String, at text: String?, amount: String? = nil, force: Bool = false) async throws(ServiceError) -> LogReply {
        let now = context.clock.now()
        let reminder = try find(key)
        let zone = try context.zone(named: reminder.timeZone)
        let instant = try context.pastInstant(text, parameter: "at", now: now, zone: zone, future: "intake can be logged for now or a past time")
        let day = zone.localDateTime(at: instant).date
        return try await logIntake(reminder, at: instant, amount: try medication.amount(amount, of: reminder, on: day, force: force), force: force, now: now)
    }

    /// Logs an intake now, taking the occurrence that is due; refused when none is.
    func done(key: String, amount: String? = nil, force: Bool = false) async throws(ServiceError) -> LogReply {
        let now = context.clock.now()
        let reminder = try find(key)
        let taken = try medication.amount(amount, of: reminder, on: try context.zone(named: reminder.timeZone).localDateTime(at: now).date, force: force)
        // Taken as needed: nothing is ever due, and "done" is the dose taken now.
        if reminder.rule.asNeeded == true { return try await logIntake(reminder, at: now, amount: taken, force: force, now: now) }
        let target = try await target(of: reminder, ahead: false, now: now)
        guard target.status != nil else {
            throw .nothingDue(reminder.name, "nothing of \(reminder.name) is due now\(nextText(target, now: now)): to record an intake anyway, run remindctl log \"\(reminder.name)\"")
        }
        return try await logIntake(reminder, at: now, amount: taken, force: force, now: now)
    }

    /// Records a dose; one its reminder's limits do not allow is refused, with when the next one is, unless
    /// `force` (then it is recorded as forced).
    func logIntake(_ reminder: StoredReminder, at instant: Instant, amount: Int64?, force: Bool, now: Instant) async throws(ServiceError) -> LogReply {
        let zone = try context.zone(named: reminder.timeZone)
        let forced = try medication.forced(reminder, at: instant, force: force, now: now)
        // After the window of a missed occurrence closed, before the next: it takes that one late.
        if let late = try lateOccurrence(takenBy: instant, of: reminder) {
            let record = try await recordLateTake(reminder, late, at: instant, amount: amount, forced: forced, now: now)
            await context.changes.publish(.init(.logged, reminder: reminder.id))
            return LogReply(log: try intakeValues([record], now: now)[0], cancelledSnoozes: 0)
        }
        let record = try storing { () throws(StoreError) in
            try stores.intake.log(reminderID: reminder.id!, at: instant, timeZone: zone.identifier, amount: amount, forced: forced)
        }
        let cancelled = await scheduling.reconsider(reminderID: reminder.id!, now: now)
        await habits.changed(now: now, activity: .added(instant, zone: zone.identifier))
        await context.changes.publish(.init(.logged, reminder: reminder.id))
        return LogReply(log: try intakeValues([record], now: now)[0], cancelledSnoozes: cancelled)
    }
}
