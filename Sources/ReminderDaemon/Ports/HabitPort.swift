import ReminderCore
import ReminderStore

/// What the reminders' service asks of habits: each goal's streak for a reply, and to remember that something happened once. Habits (``HabitService``) answers.
protocol HabitPort: Sendable {
    /// The streak of each goal at `now`, by reminder id. A history that cannot be read fails the call: a streak
    /// is never answered as 0 because it could not be counted.
    func goalStreaks(_ goals: [StreakGoal], now: Instant) throws(ServiceError) -> [Int64: Int]

    /// Records that something happened once ever; false when it had, or cannot be recorded.
    func recordOnce(_ key: String, now: Instant) -> Bool
}

/// A reminder whose streak a reply carries, with the rule and zone its days are counted by.
struct StreakGoal: Sendable {
    let reminder: StoredReminder
    let rule: ReminderRule
    let zone: TimeZoneRules
}
