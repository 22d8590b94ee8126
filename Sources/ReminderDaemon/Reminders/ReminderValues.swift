import HabitCore
import ReminderCore
import ReminderInterface
import ReminderScheduling
import ReminderStore

/// A reminder as the wire shows it: its schedule in words, its next firing, its streak, its delivery.
extension ReminderService {
    /// The values of some reminders, with their next firings and per-goal streaks: one read of logs and one of
    /// skips for them all. Each reminder's history is read from the day after its settled streak
    /// (``SettledStreaks``), or else from a year before it was created.
    /// The reminders as the methods answer them. One whose rule or zone cannot be used now (a zone tzdata
    /// dropped, a row restored from an older remindd) is answered with no next firing and why in its summary,
    /// so that it can be seen and fixed; it never fails the whole answer.
    func values(of reminders: [StoredReminder], now: Instant) throws(ServiceError) -> [ReminderValue] {
        let epoch = streaks.update(from: context.takeHistoryChanges)
        let restDays = habits.restDayNumbers()
        typealias Goal = (reminder: StoredReminder, rule: ReminderRule, zone: TimeZoneRules, settled: GoalStreak.Settled?, from: Instant)
        var unusable: [Int64: String] = [:]
        let goals: [Goal] = reminders.compactMap { reminder -> Goal? in
            let zone: TimeZoneRules
            let rule: ReminderRule
            do throws(ServiceError) {
                zone = try context.zone(named: reminder.timeZone)
                rule = try context.firingRule(of: reminder)
            } catch {
                unusable[reminder.id!] = "cannot be scheduled: \(error.message)"
                return nil
            }
            let settled = streaks.settled(for: reminder.id!, zone: zone, now: now)
            // From a day before the first unsettled day: logs of settled days change nothing.
            let from = settled.map { zone.resolve(localSeconds: Int64($0.through) * 86400) }
                ?? Instant(secondsSinceEpoch: reminder.createdAt - 366 * 86400)
            return (reminder: reminder, rule: rule, zone: zone, settled: settled, from: from)
        }
        let ids = goals.compactMap(\.reminder.id)
        let earliest = goals.map(\.from).min() ?? now
        // Without the logs, the skips or the late takes a streak would be answered wrong (0, or broken on a day
        // taken late): a store that cannot be read fails the call, as every other read does.
        let (logs, skipsRead, lateRead) = try storing { () throws(StoreError) in
            (try stores.intake.instants(reminderIDs: ids, from: earliest, through: now),
             try scheduling.skips(from: earliest, through: .endOfTime, reminderIDs: ids),
             try stores.intake.lateTakes(reminderIDs: ids, from: earliest, through: now))
        }
        var answered: [Int64: ReminderValue] = [:]
        for goal in goals {
            let (reminder, rule, zone) = (goal.reminder, goal.rule, goal.zone)
            let skips = skipsRead[reminder.id!] ?? []
            var next: FiringValue?
            let nextOccurrence = reminder.enabled
                ? rule.nextOccurrence(after: max(now, Instant(secondsSinceEpoch: reminder.handledThrough)), in: zone, passing: skips) : nil
            if let nextOccurrence { next = FiringValue(reminderID: reminder.id!, name: reminder.name, occurrence: nextOccurrence) }
            // A pending snooze announces first: it is the next announcement (list and show said the occurrence).
            if reminder.enabled, let snooze = scheduling.pendingSnooze(of: reminder.id!), nextOccurrence.map({ snooze.due <= $0.instant }) ?? true {
                next = FiringValue(reminderID: reminder.id!, name: reminder.name, occurrence: snooze.firing.occurrence, snoozedUntil: snooze.due, in: zone)
            }
            let counted = GoalStreak.length(
                rule: rule, zone: zone, logs: (logs[reminder.id!] ?? []).filter { $0 >= goal.from }, skips: skips,
                windowSeconds: reminder.windowSeconds, restDays: restDays, createdAt: Instant(secondsSinceEpoch: reminder.createdAt), now: now,
                settled: goal.settled, takenLate: lateRead[reminder.id!] ?? [:])
            let streak = counted.length
            streaks.keep(counted.settled, for: reminder.id!, zone: zone, epoch: epoch)
            let today = zone.localDateTime(at: now).date
            let value = ReminderValue(
                id: reminder.id!, name: reminder.name, rule: reminder.rule,
                summary: rule.summary + (reminder.rule.fromLastDose == true ? ", counted from the last dose" : "")
                    + (reminder.delivery.medication.steps.map { ", tapering through \($0.lastDay)" } ?? ""), timeZone: reminder.timeZone,
                effectiveTimeZone: zone.identifier, enabled: reminder.enabled, next: next.map { $0.saying(reminder.delivery.medication.dose(on: nextOccurrence?.scheduledDate ?? today)) },
                streak: streak, windowSeconds: reminder.windowSeconds, delivery: reminder.delivery.shown(on: today))
            answered[reminder.id!] = value
        }
        return reminders.map { reminder in
            answered[reminder.id!] ?? ReminderValue(
                id: reminder.id!, name: reminder.name, rule: reminder.rule, summary: unusable[reminder.id!] ?? "", timeZone: reminder.timeZone,
                effectiveTimeZone: reminder.timeZone ?? context.followedZone.name, enabled: reminder.enabled, next: nil, streak: 0,
                windowSeconds: reminder.windowSeconds, delivery: reminder.delivery.shown(on: nil))
        }
    }

    func value(of reminder: StoredReminder, now: Instant) throws(ServiceError) -> ReminderValue {
        try values(of: [reminder], now: now)[0]
    }
}
