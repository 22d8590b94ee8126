import GRDB
import ReminderCore

/// What changed in the history a goal's streak is counted from, since the last time it was asked: per
/// reminder, the earliest instant of a log or skipped occurrence that was added, deleted or changed (or
/// ``everything`` when the reminder was added, removed, or given another rule, zone, window or creation time),
/// and the earliest rest day marked or unmarked.
///
/// Read from the change feed's ``StoreChanges/history``: every write counts, however it was made (a log, a
/// deletion, a restore, an import), and nothing is written to the file for it.
public struct HistoryChanges: Sendable, Hashable {
    /// Per reminder id, the earliest instant whose day changed.
    public var goals: [Int64: Instant] = [:]
    /// The earliest rest day marked or unmarked (a local day number); a date that cannot be read is `Int.min`.
    public var restDaysFrom: Int?

    public init(goals: [Int64: Instant] = [:], restDaysFrom: Int? = nil) {
        self.goals = goals
        self.restDaysFrom = restDaysFrom
    }

    public var isEmpty: Bool { goals.isEmpty && restDaysFrom == nil }

    /// The earliest instant of a change to a whole reminder: 0001-01-01.
    public static let everything = Instant(secondsSinceEpoch: -62_135_596_800)
}

extension StoreChanges {
    /// What of the history a goal's streak is counted from changed: a reminder's whole history when its
    /// schedule changed, else from its earliest changed log or skip; and the earliest rest day.
    public var history: HistoryChanges {
        var goals = earliestChanged
        for id in reminders(changing: .schedule) { goals[id] = HistoryChanges.everything }
        return HistoryChanges(goals: goals, restDaysFrom: restDaysFrom)
    }
}
