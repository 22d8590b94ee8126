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
    /// SQL: a cached statement; a calendar's alarms ask it for a name their chunk's one query left in doubt.
    static func holder(ofName name: String, in db: Database) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT id FROM reminder WHERE name = ? COLLATE NOCASE"), arguments: [name])
    }

    /// The alarms planned from each of some calendar items, oldest first, by item.
    /// SQL: a cached statement (a request built per chunk was compiled each time: 7% of storing a calendar of
    /// 20,000 items that has no alarms stored yet).
    static func planned(from origins: [String], in db: Database) throws -> [String: [StoredReminder]] {
        var planned: [String: [StoredReminder]] = [:]
        let (table, id, origin) = (StoredReminder.databaseTableName, StoredReminder.Columns.id.name, StoredReminder.Columns.origin.name)
        let statement = try db.cachedStatement(sql: "SELECT * FROM \(table) WHERE \(origin) IN (SELECT value FROM json_each(?)) ORDER BY \(id)")
        for row in try StoredReminder.fetchAll(statement, arguments: [ReminderStore.jsonArray(origins)]) {
            planned[row.origin ?? "", default: []].append(row)
        }
        return planned
    }

    /// Removes the alarms planned from one calendar item. - Returns: their ids.
    /// With statements compiled once per connection: a calendar emptied removes the alarms of every item in one
    /// transaction, and a statement built per item through the query interface (written, compiled, authorised and
    /// its region added to the transaction's) took 8 s of CPU for 20,000 items.
    static func removePlanned(from origin: String, in db: Database) throws -> [Int64] {
        let (table, id, originColumn) = (StoredReminder.databaseTableName, StoredReminder.Columns.id.name, StoredReminder.Columns.origin.name)
        let ids = try Int64.fetchAll(db.cachedStatement(sql: "SELECT \(id) FROM \(table) WHERE \(originColumn) = ?"), arguments: [origin])
        try db.cachedStatement(sql: "DELETE FROM \(table) WHERE \(originColumn) = ?").execute(arguments: [origin])
        return ids
    }

    /// The calendar items alarms are planned from (all, or those whose path lies in `range`).
    static func origins(within range: Range<String>? = nil, in db: Database) throws -> Set<String> {
        let origin = StoredReminder.Columns.origin
        let request = StoredReminder.filter(range.map { origin >= $0.lowerBound && origin < $0.upperBound } ?? (origin != nil))
        return try request.select(origin, as: String.self).distinct().fetchSet(db)
    }
}
