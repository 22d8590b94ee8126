import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// `skip` and `unskip`: an occurrence that is not to be taken (neither taken nor missed), and its undoing while
/// its time has not come (`skip` with nothing due skips the next occurrence, which may not be what was meant).
extension ReminderService {
    /// Skips the occurrence that is due, or else the next one (it will not fire): recorded with the reason;
    /// its snooze and repeats stop.
    func skip(key: String, reason: String?) async throws(ServiceError) -> OccurrenceValue {
        if let reason, reason.count > 500 { throw .invalidInput(parameter: "reason", message: "a reason is at most 500 characters") }
        let now = context.clock.now()
        let reminder = try find(key)
        let target = try await target(of: reminder, ahead: true, now: now)
        guard var status = target.status else {
            throw .nothingDue(reminder.name, "nothing of \(reminder.name) is due or ahead to skip: it is taken, skipped already, or its rule has ended")
        }
        let firing = DueFiring(reminder: target.reminder, occurrence: status.occurrence, slotsDue: 1, lateSeconds: 0)
        let event = OccurrenceEvent(state: .skipped, firing: firing, windowEnd: status.windowEnd, decidedAt: now, reason: reason ?? "")
        try storing { () throws(StoreError) in try scheduling.recordSkip(event) }
        await context.feed.deliver()
        status.state = .skipped
        return OccurrenceValue(reminderID: reminder.id, name: reminder.name, status: status)
            .saying(reminder.delivery.medication.dose(on: status.occurrence.scheduledDate))
    }

    /// Undoes the latest skip of an occurrence still ahead: it is announced at its time again. One whose time
    /// has come is not undone (its moment passed unannounced): a dose taken then is logged as any other.
    func unskip(key: String) async throws(ServiceError) -> OccurrenceValue {
        let now = context.clock.now()
        let reminder = try find(key)
        let id = reminder.id
        let ahead = try storing { () throws(StoreError) in try scheduling.skipsAhead(reminderID: id, after: now) }
        let schedulable = try await scheduling.schedulable(reminder)
        guard let skip = ahead.max(by: { ($0.decidedAt, $0.id) < ($1.decidedAt, $1.id) }),
            let occurrence = schedulable.rule.nextOccurrence(after: Instant(secondsSinceEpoch: skip.scheduledAt - 1), in: schedulable.zone),
            occurrence.instant.secondsSinceEpoch == skip.scheduledAt
        else {
            throw .nothingDue(reminder.name, "no occurrence of \(reminder.name) ahead is skipped: a skip whose time has come stays (log a dose taken then with remindctl log \"\(reminder.name)\" --at TIME)")
        }
        _ = try storing { () throws(StoreError) in try scheduling.removeSkip(id: skip.id) }
        await context.feed.deliver()
        context.say(.info, DaemonMessages.unskipped, reminder.name, occurrence.localISO8601)
        let windowEnd = schedulable.rule.windowEnd(of: occurrence, windowSeconds: reminder.windowSeconds, in: schedulable.zone)
        let status = OccurrenceStatus(occurrence: occurrence, windowEnd: windowEnd, state: .upcoming)
        return OccurrenceValue(reminderID: id, name: reminder.name, status: status).saying(reminder.delivery.medication.dose(on: occurrence.scheduledDate))
    }
}
