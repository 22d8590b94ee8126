import GRDB
import ReminderCore

/// A reminder brought from another habit tracker, with the instants it was done.
public struct ImportedReminder: Sendable {
    public var name: String
    public var rule: RuleSpec
    public var enabled: Bool
    /// When its history begins (its first day), so that the days before are not counted against it.
    public var createdAt: Instant
    public var logs: [Instant]

    public init(name: String, rule: RuleSpec, enabled: Bool, createdAt: Instant, logs: [Instant]) {
        (self.name, self.rule, self.enabled, self.createdAt, self.logs) = (name, rule, enabled, createdAt, logs)
    }
}

extension BackupStore {
    /// Adds reminders (following the system zone), their logs (in `zoneName`) and rest days in one
    /// transaction; nothing is written when a name is taken. Their firings are handled through `now`: the
    /// past is history, not announced.
    /// - Returns: the rest days added (a day already marked stays as it is).
    public func importHabits(_ reminders: [ImportedReminder], restDays: [String], reason: String, zoneName: String, now: Instant) throws(StoreError) -> Int {
        try database.write { db in
            for imported in reminders {
                if try StoredReminder.filter(Column("name").collating(.nocase) == imported.name).fetchCount(db) > 0 {
                    throw StoreError.nameTaken(imported.name)
                }
                var reminder = StoredReminder(
                    id: nil, name: imported.name, rule: imported.rule, timeZone: nil, enabled: imported.enabled,
                    createdAt: min(imported.createdAt, now).secondsSinceEpoch, handledThrough: now.secondsSinceEpoch, windowSeconds: nil,
                    delivery: Delivery())
                try reminder.insert(db)
                for instant in imported.logs {
                    var record = IntakeRecord(id: nil, reminderId: reminder.id!, at: instant.secondsSinceEpoch, timeZone: zoneName)
                    try record.insert(db)
                }
            }
            var added = 0
            for date in restDays {
                try db.execute(sql: "INSERT OR IGNORE INTO restDay (date, reason, lightActivities) VALUES (?, ?, '')", arguments: [date, reason])
                added += db.changesCount
            }
            return added
        }
    }
}
