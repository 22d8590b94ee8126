import HabitCore
import ReminderCore
import ReminderStore

extension HabitService: HabitPort {
    /// The streak of each goal at `now`: one read of logs, of late takes and of skips for them all. Each goal's
    /// history is read from the day after its settled streak (``SettledStreaks``), or else from a year before it
    /// was created. Without the logs, the skips, the late takes or the rest days a streak would be answered
    /// wrong (0, or broken on a day taken late or rested): a store that cannot be read fails the call.
    func goalStreaks(_ goals: [StreakGoal], now: Instant) throws(ServiceError) -> [Int64: Int] {
        guard !goals.isEmpty else { return [:] }
        let epoch = settledStreaks.epoch
        let restDays = try restDayNumbers()
        let counted = goals.map { goal in
            let settled = settledStreaks.settled(for: goal.reminder.id, zone: goal.zone, now: now)
            // From a day before the first unsettled day: logs of settled days change nothing.
            let from = settled.map { goal.zone.resolve(localSeconds: Int64($0.through) * 86400) }
                ?? Instant(secondsSinceEpoch: goal.reminder.createdAt - 366 * 86400)
            return (goal: goal, settled: settled, from: from)
        }
        let ids = goals.compactMap(\.reminder.id)
        let earliest = counted.map(\.from).min() ?? now
        let (history, skips) = try storing { () throws(StoreError) in
            (try activities.goalHistory(ids, earliest, now), try scheduling.skips(from: earliest, through: now, reminderIDs: ids))
        }
        var streaks: [Int64: Int] = [:]
        for (goal, settled, from) in counted {
            let id = goal.reminder.id
            let length = GoalStreak.length(
                rule: goal.rule, zone: goal.zone, logs: (history.logs[id] ?? []).filter { $0 >= from }, skips: skips[id] ?? [],
                windowSeconds: goal.reminder.windowSeconds, restDays: restDays, createdAt: Instant(secondsSinceEpoch: goal.reminder.createdAt),
                now: now, settled: settled, takenLate: history.late[id] ?? [:], pauses: goal.reminder.delivery.pause)
            settledStreaks.keep(length.settled, for: id, zone: goal.zone, epoch: epoch)
            streaks[id] = length.length
        }
        return streaks
    }

    /// Drops the settled streaks kept in memory (the zone data changed: a past log may fall on another day).
    func forgetSettledStreaks() {
        settledStreaks.forget()
    }
}
