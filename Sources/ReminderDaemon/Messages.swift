import ReminderCore
import ReminderScheduling

/// The journal MESSAGE_IDs of remindd's entries (128-bit, fixed forever; explained by `catalog/remindd.catalog`).
public enum MessageID {
    public static let fired = "4f1c2a7e9b3d4c58a6e0f2b1d7c39a51"
    public static let suppressed = "8d2e6b1f0a9c4e37b5d1c8f3a2e70b64"
    public static let caughtUp = "c3a95e7d1b2f4068a9e4d0c7b6f21e83"
    public static let freezeEarned = "5b7e0d2c8a1f4e69b3c6d9a2f0e4b718"
    public static let freezeUsed = "9e3a6c1b7d2f4085a4e8c0b3d6f1a952"
    public static let streakBroken = "2d8f4b6e0c9a4173b5e1d7c2a8f06e34"
    public static let achievement = "71c4e9a3b5d04f28a6c2e8b1d9f3a057"
    public static let restSuggestion = "e6b2a9d4c1f3407e8d5a0b7c3e9f2146"
}

/// Human wording of firings, for the journal's MESSAGE and the daemon's STATUS.
enum Wording {
    /// `weekly`, `daily`, `twice a day`, `every 3 days`...
    static func kind(of rule: ReminderRule) -> String {
        if let preset = rule.preset { return preset.rawValue.lowercased() }
        switch rule.days {
        case .daily: return "daily"
        case .weekly: return "weekly"
        case .monthly, .nthWeekday: return "monthly"
        case .yearly: return "yearly"
        case .everyDays(let n): return "every \(n) days"
        case .everyWeeks(let n, _): return "every \(n) weeks"
        case .once: return "once"
        }
    }

    /// `Sun 09:00` (local to the firing's zone).
    static func when(_ occurrence: Occurrence) -> String {
        let local = occurrence.localDateTime
        return "\(local.date.weekday.displayName) \(local.time)"
    }

    /// `Reminder: Vitamin D (weekly, Sun 09:00)`.
    static func reminder(_ firing: DueFiring) -> String {
        "\(firing.reminder.name) (\(kind(of: firing.reminder.rule)), \(when(firing.occurrence)))"
    }

    /// `2h 5m`, `45s`, `3d 2h`.
    static func duration(seconds: Int64) -> String {
        let s = max(0, seconds)
        if s < 60 { return "\(s)s" }
        if s < 3600 { return "\(s / 60)m" }
        if s < 86400 { return "\(s / 3600)h \(s / 60 % 60)m" }
        return "\(s / 86400)d \(s / 3600 % 24)h"
    }
}
