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
    /// An IANA zone, or nil to follow the system's.
    public var timeZone: String?
    public var delivery: Delivery

    public init(
        name: String, rule: RuleSpec, enabled: Bool, createdAt: Instant, logs: [Instant], timeZone: String? = nil, delivery: Delivery = Delivery()
    ) {
        (self.name, self.rule, self.enabled, self.createdAt, self.logs) = (name, rule, enabled, createdAt, logs)
        (self.timeZone, self.delivery) = (timeZone, delivery)
    }
}

extension BackupStore {
    /// Adds reminders (following the system zone), their logs (in `zoneName`) and rest days in one
    /// transaction; nothing is written when a name is taken. Their firings are handled through `now`: the
    /// past is history, not announced.
    /// - Returns: the rest days added (a day already marked stays as it is).
    public func importHabits(_ reminders: [ImportedReminder], restDays: [String], reason: String, zoneName: String, now: Instant) throws(StoreError) -> Int {
        try importReminders(reminders, restDays: restDays, reason: reason, zoneName: zoneName, now: now).restDays
    }

    /// Adds reminders (with their logs) and rest days in one transaction: a name already taken (or taken twice)
    /// refuses them all. Returns the reminders' ids and how many rest days were new.
    public func importReminders(
        _ reminders: [ImportedReminder], restDays: [String] = [], reason: String = "Other", zoneName: String, now: Instant
    ) throws(StoreError) -> (ids: [Int64], restDays: Int) {
        try database.write { db in
            var ids: [Int64] = []
            for imported in reminders {
                if try StoredReminder.all().named(imported.name).fetchCount(db) > 0 {
                    throw StoreError.nameTaken(imported.name)
                }
                let reminder = try ReminderFields(
                    name: imported.name, rule: imported.rule, timeZone: imported.timeZone, enabled: imported.enabled,
                    createdAt: min(imported.createdAt, now).secondsSinceEpoch, handledThrough: now.secondsSinceEpoch, windowSeconds: nil,
                    delivery: imported.delivery
                ).insert(db)
                ids.append(reminder.id)
                for instant in imported.logs {
                    try IntakeFields(reminderId: reminder.id, at: instant.secondsSinceEpoch, timeZone: zoneName).insert(db)
                }
            }
            var added = 0
            for date in restDays {
                try db.execute(sql: "INSERT OR IGNORE INTO restDay (date, reason, lightActivities) VALUES (?, ?, '')", arguments: [date, reason])
                added += db.changesCount
            }
            return (ids, added)
        }
    }
}
