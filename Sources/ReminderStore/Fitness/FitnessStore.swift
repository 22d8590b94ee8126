import GRDB
import ReminderCore

/// Workouts, food and the profile (the fitness service's store).
public struct FitnessStore: Sendable {
    let database: ReminderStore


    /// A logged workout or food entry, as stored.
    public struct LogEntry: Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var kcal: Int
        public var at: Instant
        public var timeZone: String
        /// Workouts only.
        public var minutes: Int?
        public var intensity: String?
        public var met: Double?
    }

    public func addWorkout(exercise: String, minutes: Int, intensity: String, met: Double, kcal: Int, at: Instant, timeZone: String) throws(StoreError) -> Int64 {
        try database.write { db in
            try db.execute(
                sql: "INSERT INTO workout (exercise, minutes, intensity, met, kcal, at, timeZone) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [exercise, minutes, intensity, met, kcal, at.secondsSinceEpoch, timeZone])
            return db.lastInsertedRowID
        }
    }

    public func updateWorkout(id: Int64, minutes: Int, intensity: String, met: Double, kcal: Int) throws(StoreError) {
        try database.write { db in
            try db.execute(
                sql: "UPDATE workout SET minutes = ?, intensity = ?, met = ?, kcal = ? WHERE id = ?",
                arguments: [minutes, intensity, met, kcal, id])
            guard db.changesCount > 0 else { throw StoreError.notFound("workout \(id)") }
        }
    }

    /// Deletes a workout or food entry.
    /// - Returns: the entry, or nil when there is none with that id.
    public func deleteEntry(table: EntryTable, id: Int64) throws(StoreError) -> LogEntry? {
        try database.write { db in
            try Row.fetchOne(db, sql: "DELETE FROM \(table.rawValue) WHERE id = ? RETURNING \(table.columns)", arguments: [id])
                .map { table.entry($0) }
        }
    }

    /// The tables of workouts and food, read as ``LogEntry``.
    public enum EntryTable: String, Sendable {
        case workout, food

        fileprivate var columns: String {
            self == .workout ? "id, exercise, kcal, at, timeZone, minutes, intensity, met" : "id, name, kcal, at, timeZone"
        }

        fileprivate func entry(_ row: Row) -> LogEntry {
            LogEntry(
                id: row[0], name: row[1], kcal: row[2], at: Instant(secondsSinceEpoch: row[3]), timeZone: row[4],
                minutes: self == .workout ? row[5] : nil, intensity: self == .workout ? row[6] : nil, met: self == .workout ? row[7] : nil)
        }
    }

    public func addFood(name: String, kcal: Int, at: Instant, timeZone: String) throws(StoreError) -> Int64 {
        try database.write { db in
            try db.execute(sql: "INSERT INTO food (name, kcal, at, timeZone) VALUES (?, ?, ?, ?)", arguments: [name, kcal, at.secondsSinceEpoch, timeZone])
            return db.lastInsertedRowID
        }
    }

    /// One workout or food entry, or nil when there is none with that id.
    public func entry(_ table: EntryTable, id: Int64) throws(StoreError) -> LogEntry? {
        try database.read { db in
            try Row.fetchOne(db, sql: "SELECT \(table.columns) FROM \(table.rawValue) WHERE id = ?", arguments: [id]).map { table.entry($0) }
        }
    }

    /// Workouts, or food entries, in a time range (inclusive), oldest first.
    public func entries(_ table: EntryTable, from: Instant, through: Instant) throws(StoreError) -> [LogEntry] {
        try database.read { db in
            let sql = "SELECT \(table.columns) FROM \(table.rawValue) WHERE at BETWEEN ? AND ? ORDER BY at, id"
            return try Row.fetchAll(db, sql: sql, arguments: [from.secondsSinceEpoch, through.secondsSinceEpoch]).map { table.entry($0) }
        }
    }

    /// Deletes workouts and food entries before an instant (the config's retention).
    public func pruneEntries(before instant: Instant) throws(StoreError) {
        try database.write { db in
            try db.execute(sql: "DELETE FROM workout WHERE at < ?", arguments: [instant.secondsSinceEpoch])
            try db.execute(sql: "DELETE FROM food WHERE at < ?", arguments: [instant.secondsSinceEpoch])
        }
    }

    public func setProfile(_ key: String, _ value: String) throws(StoreError) {
        try database.write { db in try db.execute(sql: "INSERT OR REPLACE INTO profile (key, value) VALUES (?, ?)", arguments: [key, value]) }
    }

    public func removeProfile(_ key: String) throws(StoreError) {
        try database.write { db in try db.execute(sql: "DELETE FROM profile WHERE key = ?", arguments: [key]) }
    }

    public func profile(_ key: String) throws(StoreError) -> String? {
        try database.read { db in try String.fetchOne(db, sql: "SELECT value FROM profile WHERE key = ?", arguments: [key]) }
    }
}
