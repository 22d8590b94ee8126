import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// Doses taken after their window closed: `done --late` (and the notification's "Taken late") takes the most
/// recent missed occurrence, and a plain log after a missed occurrence's window, before the next occurrence and
/// within ``ReminderRule/lateTakeHoursAfterWindow`` of it, takes it late as well (``ReminderRule/lateTake``):
/// late, not missed, in `today`, the journal and the report.
extension ReminderService {
    /// Takes the most recent missed occurrence of the last two days late: a log now, made for it, so that it
    /// neither covers nor suppresses another occurrence (a dose missed at 08:00 and taken at 13:00 leaves the
    /// 20:00 one due); announced as taken late.
    func takeLate(key: String) async throws(ServiceError) -> OccurrenceValue {
        let now = context.clock.now()
        let reminder = try find(key)
        let id = reminder.id
        let schedulable = try await scheduling.schedulable(reminder)
        let (rule, zone) = (schedulable.rule, schedulable.zone)
        let from = now.adding(seconds: -2 * 86400)
        let (logs, skips, late) = try around(reminder, from: from, through: now)
        var missed: OccurrenceStatus?
        var next = rule.nextOccurrence(after: from, in: zone)
        while let occurrence = next, occurrence.instant <= now {
            let status = rule.state(
                of: occurrence, in: zone, logs: logs, skips: skips, windowSeconds: reminder.windowSeconds, now: now, takenLate: late,
                pauses: reminder.delivery.pause)
            if status.state == .missed, occurrence.instant.secondsSinceEpoch >= reminder.createdAt { missed = status }
            next = rule.nextOccurrence(after: occurrence.instant, in: zone)
        }
        guard let missed else {
            throw .nothingDue(reminder.name, "nothing of \(reminder.name) was missed in the last two days to take late: to record an intake, run remindctl log \"\(reminder.name)\"")
        }
        let amount = reminder.delivery.medication.dose(on: missed.occurrence.scheduledDate)?.thousandths
        _ = try await recordLateTake(reminder, missed, at: now, amount: amount, forced: false, now: now)
        var status = missed
        (status.state, status.coveredBy) = (.takenLate, now)
        return OccurrenceValue(reminderID: id, name: reminder.name, status: status).saying(reminder.delivery.medication.dose(on: missed.occurrence.scheduledDate))
    }

    /// The missed occurrence a plain log at `instant` takes late, or nil (it takes another, or none: a log).
    func lateOccurrence(takenBy instant: Instant, of reminder: StoredReminder) throws(ServiceError) -> OccurrenceStatus? {
        // A rule that cannot be used now: its logs take nothing (the scheduler says why).
        guard let (rule, zone) = context.usableRuleAndZone(of: reminder) else { return nil }
        let (logs, skips, late) = try around(reminder, from: instant.adding(seconds: -3 * 86400), through: instant.adding(seconds: 86400))
        return rule.lateTake(
            by: instant, in: zone, logs: logs, skips: skips, takenLate: late, windowSeconds: reminder.windowSeconds,
            createdAt: Instant(secondsSinceEpoch: reminder.createdAt))
    }

    /// Records a dose at `at` that takes `missed` late, and announces it as taken late (once: the journal says
    /// so, a notification of it closes). - Returns: the log.
    func recordLateTake(
        _ reminder: StoredReminder, _ missed: OccurrenceStatus, at: Instant, amount: Int64?, forced: Bool, now: Instant
    ) async throws(ServiceError) -> IntakeRecord {
        let schedulable = try await scheduling.schedulable(reminder)
        let occurrence = missed.occurrence
        let record = try storing { () throws(StoreError) in
            try stores.intake.log(
                reminderID: reminder.id, at: at, timeZone: schedulable.zone.identifier, lateFor: occurrence.instant, amount: amount, forced: forced)
        }
        let firing = DueFiring(reminder: schedulable, occurrence: occurrence, slotsDue: 1, lateSeconds: at.secondsSinceEpoch - occurrence.instant.secondsSinceEpoch)
        context.announcer.announce(.occurrence(OccurrenceEvent(state: .takenLate, firing: firing, windowEnd: missed.windowEnd, decidedAt: now, loggedAt: at)))
        await context.feed.deliver()
        return record
    }

    /// A reminder's plain logs, skips and late takes between two instants.
    private func around(_ reminder: StoredReminder, from: Instant, through: Instant) throws(ServiceError) -> (logs: [Instant], skips: Set<Instant>, late: [Instant: Instant]) {
        let id = reminder.id
        return try storing { () throws(StoreError) in
            (
                try stores.intake.instants(reminderID: id, from: from.adding(seconds: -2 * 86400), through: through),
                try scheduling.skips(from: from, through: through, reminderIDs: [id])[id] ?? [],
                try stores.intake.lateTakes(reminderIDs: [id], from: from, through: through)[id] ?? [:]
            )
        }
    }
}
