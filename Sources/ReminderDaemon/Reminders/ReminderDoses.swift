import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// Logging a dose: its time, and `done`, and deleting a log; how much it takes and whether its limits allow it
/// are medication's (``DosePolicy``).
extension ReminderService {
    /// Logs an intake now or at a past time; it cancels the pending snoozes and repeats of what it takes.
    /// `amount`: how much was taken (`1`, `0.5`), in the dose's unit; default: the reminder's dose.
    func log(key: String, at text: String?, amount: String? = nil, force: Bool = false) async throws(ServiceError) -> LogReply {
        let now = context.clock.now()
        let reminder = try find(key)
        let zone = try context.settings.zone(named: reminder.timeZone)
        let instant = try TypedTime.pastInstant(text, parameter: "at", now: now, zone: zone, future: "intake can be logged for now or a past time")
        let day = zone.localDateTime(at: instant).date
        let unsynced = await freshen(before: reminder, force: force)
        var reply = try await logIntake(
            reminder, at: instant, amount: try medication.amount(amount, of: reminder, on: day, force: force), force: force, now: now, unsynced: unsynced)
        reply.unsynced = unsynced
        return reply
    }

    /// Brings other devices' doses in before the limits of `reminder` are checked (a medication with limits, kept
    /// apart from another, or taken as needed, not forced). - Returns: why that could not be done (nil: done, or not needed).
    private func freshen(before reminder: StoredReminder, force: Bool) async -> String? {
        let medication = reminder.delivery.medication
        guard !force, !medication.limits.isEmpty || !medication.apart.isEmpty || reminder.rule.asNeeded == true else { return nil }
        return await freshness.freshen().map { "the collection was not synced before the dose limits were checked: \($0); decided on the doses this device has" }
    }

    /// Logs an intake now, taking the occurrence that is due; refused when none is.
    func done(key: String, amount: String? = nil, force: Bool = false) async throws(ServiceError) -> LogReply {
        var now = context.clock.now()
        let reminder = try find(key)
        let taken = try medication.amount(amount, of: reminder, on: try context.settings.zone(named: reminder.timeZone).localDateTime(at: now).date, force: force)
        let unsynced = await freshen(before: reminder, force: force)
        now = context.clock.now()  // the sync took a while
        var reply: LogReply
        // Taken as needed: nothing is ever due, and "done" is the dose taken now.
        if reminder.rule.asNeeded == true {
            reply = try await logIntake(reminder, at: now, amount: taken, force: force, now: now, unsynced: unsynced)
        } else {
            let target = try await target(of: reminder, ahead: false, now: now)
            guard target.status != nil else {
                let next = nextLocal(target, now: now)
                throw .nothingDue(
                    reminder.name,
                    "nothing of \(reminder.name) is due now\(next.map { " (next: \($0))" } ?? ""): to record an intake anyway, run remindctl log \"\(reminder.name)\"",
                    next: next)
            }
            reply = try await logIntake(reminder, at: now, amount: taken, force: force, now: now, unsynced: unsynced)
        }
        reply.unsynced = unsynced
        return reply
    }

    /// Records a dose; one its reminder's limits do not allow is refused, with when the next one is, unless
    /// `force` (then it is recorded as forced).
    /// `unsynced`: why other devices' doses could not be brought in first (said with a refusal).
    func logIntake(
        _ reminder: StoredReminder, at instant: Instant, amount: Int64?, force: Bool, now: Instant, unsynced: String? = nil
    ) async throws(ServiceError) -> LogReply {
        let zone = try context.settings.zone(named: reminder.timeZone)
        let forced: Bool
        do { forced = try medication.forced(reminder, at: instant, force: force, now: now) } catch {
            guard let unsynced, case .doseNotAllowed(var refusal, let message) = error else { throw error }
            refusal.unsynced = unsynced
            throw .doseNotAllowed(refusal, message + " (\(unsynced))")
        }
        // After the window of a missed occurrence closed, before the next: it takes that one late.
        if let late = try lateOccurrence(takenBy: instant, of: reminder) {
            let record = try await recordLateTake(reminder, late, at: instant, amount: amount, forced: forced, now: now)
                return LogReply(log: try intakeValues([record], now: now)[0], cancelledSnoozes: 0)
        }
        let snoozed = await scheduling.snoozeCount(reminderID: reminder.id)
        let record = try storing { () throws(StoreError) in
            try stores.intake.log(reminderID: reminder.id, at: instant, timeZone: zone.identifier, amount: amount, forced: forced)
        }
        await context.feed.deliver()
        let cancelled = max(0, snoozed - (await scheduling.snoozeCount(reminderID: reminder.id)))
        return LogReply(log: try intakeValues([record], now: now)[0], cancelledSnoozes: cancelled)
    }

    /// Deletes a logged intake: the occurrence it took is due (or missed) again, the one it suppressed fires.
    func deleteLog(id: Int64) async throws(ServiceError) -> IntakeValue {
        let now = context.clock.now()
        guard let existing = try storing({ () throws(StoreError) in try stores.intake.record(id: id) }) else { throw .logNotFound(id) }
        let value = try intakeValues([existing], now: now)[0]
        _ = try storing { () throws(StoreError) in try stores.intake.delete(id: id) }
        await context.feed.deliver()
        return value
    }
}
