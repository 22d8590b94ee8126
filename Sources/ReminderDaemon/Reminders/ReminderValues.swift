import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// A reminder as the wire shows it: its schedule in words, its next firing, its streak, its delivery.
extension ReminderService {
    /// The values of some reminders, with their next firings and their streaks (from habits, one count for
    /// them all). One whose rule or zone cannot be used now (a zone tzdata dropped, a row restored from an older
    /// remindd) is answered with no next firing and why in its summary, so that it can be seen and fixed; it
    /// never fails the whole answer. A history that cannot be read fails it.
    func values(of reminders: [StoredReminder], now: Instant) throws(ServiceError) -> [ReminderValue] {
        var unusable: [Int64: String] = [:]
        let goals: [StreakGoal] = reminders.compactMap { reminder -> StreakGoal? in
            do throws(ServiceError) {
                return StreakGoal(reminder: reminder, rule: try context.firingRule(of: reminder), zone: try context.settings.zone(named: reminder.timeZone))
            } catch {
                unusable[reminder.id] = "cannot be scheduled: \(error.message)"
                return nil
            }
        }
        let streaks = try habits.goalStreaks(goals, now: now)
        let skipsRead = try storing { () throws(StoreError) in
            try scheduling.skips(from: now, through: .endOfTime, reminderIDs: goals.compactMap(\.reminder.id))
        }
        var answered: [Int64: ReminderValue] = [:]
        for goal in goals {
            let (reminder, rule, zone) = (goal.reminder, goal.rule, goal.zone)
            var next: FiringValue?
            let nextOccurrence = reminder.enabled
                ? rule.nextOccurrence(after: max(now, Instant(secondsSinceEpoch: reminder.handledThrough)), in: zone, passing: skipsRead[reminder.id] ?? [],
                    pauses: reminder.delivery.pause)
                : nil
            if let nextOccurrence { next = FiringValue(reminderID: reminder.id, name: reminder.name, occurrence: nextOccurrence) }
            // A pending snooze announces first: it is the next announcement (list and show said the occurrence).
            if reminder.enabled, let snooze = scheduling.pendingSnooze(of: reminder.id), nextOccurrence.map({ snooze.due <= $0.instant }) ?? true {
                next = FiringValue(reminderID: reminder.id, name: reminder.name, occurrence: snooze.firing.occurrence, snoozedUntil: snooze.due, in: zone)
            }
            let today = zone.localDateTime(at: now).date
            answered[reminder.id] = ReminderValue(
                id: reminder.id, name: reminder.name, rule: reminder.rule,
                summary: rule.summary + (reminder.rule.fromLastDose == true ? ", counted from the last dose" : "")
                    + (reminder.delivery.medication.steps.map { ", tapering through \($0.lastDay)" } ?? ""), timeZone: reminder.timeZone,
                effectiveTimeZone: zone.identifier, enabled: reminder.enabled,
                next: next.map { $0.saying(reminder.delivery.medication.dose(on: nextOccurrence?.scheduledDate ?? today)) },
                streak: streaks[reminder.id] ?? 0, windowSeconds: reminder.windowSeconds, delivery: reminder.delivery.shown(on: today))
        }
        return reminders.map { reminder in
            answered[reminder.id] ?? ReminderValue(
                id: reminder.id, name: reminder.name, rule: reminder.rule, summary: unusable[reminder.id] ?? "", timeZone: reminder.timeZone,
                effectiveTimeZone: reminder.timeZone ?? context.settings.followedZone.name, enabled: reminder.enabled, next: nil, streak: 0,
                windowSeconds: reminder.windowSeconds, delivery: reminder.delivery.shown(on: nil))
        }
    }

    func value(of reminder: StoredReminder, now: Instant) throws(ServiceError) -> ReminderValue {
        try values(of: [reminder], now: now)[0]
    }
}
