import ReminderCore

/// Per-goal streaks and the rest suggestion: pure functions of a rule, logs and "today".
public enum GoalStreak {
    /// Consecutive scheduled days, back from today, on which every slot of the goal was logged.
    ///
    /// Days on which the goal has no slot (a weekly goal's other days) and rest days are neutral; today
    /// counts when all its slots are logged and is neutral while it is still open. Counting stops at `firstDay`
    /// (the day the goal was added).
    public static func length(
        rule: ReminderRule, zone: TimeZoneRules, logs: [Instant], restDays: Set<Int>, today: Int, firstDay: Int
    ) -> Int {
        var logsPerDay: [Int: Int] = [:]
        for log in logs { logsPerDay[zone.localDayNumber(at: log), default: 0] += 1 }
        var streak = 0
        var day = today
        while day >= firstDay && today - day < 3660 {
            defer { day -= 1 }
            let slots = rule.occurrences(on: LocalDate(dayNumber: day), in: zone).count
            if slots == 0 || restDays.contains(day) { continue }
            if logsPerDay[day, default: 0] >= slots {
                streak += 1
            } else if day != today {
                break
            }
        }
        return streak
    }

    /// Whether to suggest a rest day today: the 6 days before today were all active (no rest day among them).
    public static func suggestsRest(_ report: StreakReport, today: Int) -> Bool {
        ((today - 6)...(today - 1)).allSatisfy { report.days[$0] == .active }
    }
}
