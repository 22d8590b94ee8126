import ReminderCore
import ReminderScheduling

/// The notices before occurrences (`--before`): planned with each reminder, given when they come due.
extension SchedulingService {
    /// Gives the notices due at `now`. One is not given when its occurrence has already come (the clock jumped
    /// or the machine slept past it: a notice late is no notice), was skipped, paused or postponed ahead, or is already
    /// logged (it would not be announced); one whose logs cannot be read is given (a notice, not a dose).
    func giveHeadsUps(now: Instant) {
        for notice in headsUps.takeDue(now: now) where now < notice.occurrence.instant {
            let key = OccurrenceKey(reminderID: notice.reminder.id, scheduledAt: notice.occurrence.instant)
            if skippedAhead.contains(key) || lifecycle.snoozes[key] != nil || notice.reminder.delivery.pause.span(covering: notice.occurrence.instant) != nil {
                continue
            }
            let logs: [Instant]
            do {
                logs = try stores.intake.instants(reminderID: notice.reminder.id, from: notice.occurrence.instant.adding(seconds: -2 * 86400), through: now)
            } catch {
                logs = []  // unread: the notice is given (it is a notice; the firing reads them again)
            }
            if notice.reminder.rule.suppression(of: notice.occurrence, logs: logs, in: notice.reminder.zone).reason != nil { continue }
            context.announcer.announce(.headsUp(notice))
        }
    }
}
