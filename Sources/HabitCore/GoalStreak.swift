import ReminderCore

/// Per-goal streaks and the rest suggestion: pure functions of a rule, its logs and skips, and "now".
public enum GoalStreak {
    /// Consecutive days, back from today, on which the goal was kept: counted from the states of its
    /// occurrences (``OccurrenceState``).
    ///
    /// A day counts when each of its occurrences is taken, suppressed (logged ahead) or skipped, and at least one
    /// is taken or suppressed. A missed occurrence breaks the streak, today's too. Skipped occurrences, days on
    /// which the goal has no occurrence (a weekly goal's other days), rest days, and today while it still has
    /// an upcoming or due occurrence are neutral. On the day the goal was created, its occurrences before that
    /// instant are neutral; before that day only logs count, and counting stops at the earlier of that day and
    /// the day of the first log.
    /// - Parameters:
    ///   - logs: the goal's logs, oldest first, at least back to where the streak can reach.
    ///   - skips: the instants of the occurrences the user skipped.
    public static func length(
        rule: ReminderRule, zone: TimeZoneRules, logs: [Instant], skips: Set<Instant>, windowSeconds: Int64?, restDays: Set<Int>,
        createdAt: Instant, now: Instant
    ) -> Int {
        // A window ends by the end of its occurrence's day, and suppression counts that day's logs only: the
        // logs of one day decide that day's states.
        var logsPerDay: [Int: [Instant]] = [:]
        for log in logs { logsPerDay[zone.localDayNumber(at: log), default: []].append(log) }
        let today = zone.localDayNumber(at: now)
        let created = zone.localDayNumber(at: createdAt)
        let firstDay = min(created, logs.first.map { zone.localDayNumber(at: $0) } ?? created)
        var streak = 0
        var day = today
        while day >= firstDay && today - day < 3660 {
            defer { day -= 1 }
            if restDays.contains(day) { continue }
            var states = rule.states(
                on: LocalDate(dayNumber: day), in: zone, logs: logsPerDay[day] ?? [], skips: skips, windowSeconds: windowSeconds, now: now)
            if day == created {
                states.removeAll { $0.occurrence.instant < createdAt && $0.state != .taken && $0.state != .suppressed }
            }
            if states.contains(where: { $0.state == .missed }) { break }
            if states.allSatisfy({ [.taken, .suppressed, .skipped].contains($0.state) })
                && states.contains(where: { $0.state == .taken || $0.state == .suppressed })
            {
                streak += 1
            }
        }
        return streak
    }

    /// Whether to suggest a rest day today: the 6 days before today were all active (no rest day among them).
    public static func suggestsRest(_ report: StreakReport, today: Int) -> Bool {
        ((today - 6)...(today - 1)).allSatisfy { report.days[$0] == .active }
    }
}
