import ReminderCore
import ReminderStore

/// Matches the plain logs the store marks as waiting (``IntakeStore/lateLogsToMatch()``: logs from before late
/// takes were matched when logged, a restored backup's) to the missed occurrences they take late, with each
/// reminder's rule, as each would have been when logged (``ReminderRule/lateTakes(among:in:skips:takenLate:windowSeconds:createdAt:)``).
/// Run before the schedule is read: at a start and after a restore. Nothing waiting: one read.
struct PendingLateLogMatching: Sendable {
    let context: DaemonContext
    let reminders: RemindersStore
    let intake: IntakeStore
    let firings: FiringsStore

    /// Matches what waits, says how many logs became late takes, and records that nothing waits any more. A
    /// store that cannot be read leaves them waiting for the next start (said once).
    func run() {
        do {
            guard try intake.lateLogsToMatch() else { return }
            var matched = 0
            for id in try intake.remindersWithPlainLogs() {
                matched += try match(reminderID: id)
            }
            try intake.lateLogsMatched()
            if matched > 0 {
                context.say(.notice, DaemonMessages.lateLogsMatched, count: matched, matched)
            }
        } catch {
            context.say(.warning, "The logs that may take missed occurrences late could not be matched (they count as plain logs until the next start): \(error)")
        }
    }

    /// Matches one reminder's plain logs. - Returns: how many became late takes.
    private func match(reminderID: Int64) throws(StoreError) -> Int {
        let reminders = try self.reminders.all(ids: reminderID...reminderID)
        guard let reminder = reminders.first else { return 0 }
        // A rule that cannot be used now: its logs take nothing (the scheduler says why).
        guard let (rule, zone) = context.usableRuleAndZone(of: reminder) else { return 0 }
        let logs = try intake.plainLogs(reminderID: reminderID)
        guard let first = logs.first?.at, let last = logs.last?.at else { return 0 }
        let (from, through) = (first.adding(seconds: -3 * 86400), last.adding(seconds: 86400))
        let skips = try firings.skips(from: from, through: through, reminderIDs: [reminderID])[reminderID] ?? []
        let late = try intake.lateTakes(reminderIDs: [reminderID], from: from, through: through)[reminderID] ?? [:]
        let matches = rule.lateTakes(
            among: logs.map(\.at), in: zone, skips: skips, takenLate: late, windowSeconds: reminder.windowSeconds,
            createdAt: Instant(secondsSinceEpoch: reminder.createdAt))
        try intake.recordLateTakes(Dictionary(uniqueKeysWithValues: matches.map { (logs[$0.key].id, $0.value) }))
        return matches.count
    }
}
