import GRDB
import ReminderCore

extension DerivableRequest<StoredReminder> {
    /// The reminders named `name`, in any case ("pills" is "Pills": names are unique regardless of case).
    public func named(_ name: String) -> Self { filter(StoredReminder.Columns.name.collating(.nocase) == name) }

    /// The person's own reminders, not the alarms planned from a calendar's items.
    public func own() -> Self { filter(StoredReminder.Columns.origin == nil) }
}

// MARK: In other stores' transactions

extension RemindersStore {
    /// The reminder that holds a name (in any case), in `db`'s transaction.
    /// SQL: a cached statement; a calendar of 20,000 items read at start asks this once per alarm.
    static func holder(ofName name: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM reminder WHERE name = ? COLLATE NOCASE"), arguments: [name])
    }

    /// The alarms planned from one calendar item, oldest first.
    /// SQL: a cached statement, for the same reason as ``holder(ofName:in:)``.
    static func planned(from origin: String, in db: Database) throws -> [StoredReminder] {
        try StoredReminder.fetchAll(db.cachedStatement(sql: "SELECT * FROM reminder WHERE origin = ? ORDER BY id"), arguments: [origin])
    }

    /// Removes the alarms planned from one calendar item. - Returns: their ids.
    static func removePlanned(from origin: String, in db: Database) throws -> [Int64] {
        let planned = StoredReminder.filter(StoredReminder.Columns.origin == origin)
        let ids = try planned.select(StoredReminder.Columns.id, as: Int64.self).fetchAll(db)
        try planned.deleteAll(db)
        return ids
    }

    /// The calendar items alarms are planned from (all, or those whose path lies in `range`).
    static func origins(within range: Range<String>? = nil, in db: Database) throws -> Set<String> {
        let origin = StoredReminder.Columns.origin
        let request = StoredReminder.filter(range.map { origin >= $0.lowerBound && origin < $0.upperBound } ?? (origin != nil))
        return try request.select(origin, as: String.self).distinct().fetchSet(db)
    }
}
