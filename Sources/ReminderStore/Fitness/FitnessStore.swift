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
            var record = WorkoutRecord(
                id: nil, exercise: exercise, minutes: minutes, intensity: intensity, met: met, kcal: kcal, at: at.secondsSinceEpoch, timeZone: timeZone)
            try record.insert(db)
            return db.lastInsertedRowID
        }
    }

    public func updateWorkout(id: Int64, minutes: Int, intensity: String, met: Double, kcal: Int) throws(StoreError) {
        try database.write { db in
            guard var record = try WorkoutRecord.fetchOne(db, key: id) else { throw StoreError.notFound("workout \(id)") }
            (record.minutes, record.intensity, record.met, record.kcal) = (minutes, intensity, met, kcal)
            try record.update(db)
        }
    }

    /// Deletes a workout or food entry.
    /// - Returns: the entry, or nil when there is none with that id.
    public func deleteEntry(table: EntryTable, id: Int64) throws(StoreError) -> LogEntry? {
        try database.write { db in
            let entry = try table.entry(id: id, db)
            if entry != nil { _ = try table == .workout ? WorkoutRecord.deleteOne(db, key: id) : FoodRecord.deleteOne(db, key: id) }
            return entry
        }
    }

    /// The tables of workouts and food, read as ``LogEntry``.
    public enum EntryTable: String, Sendable {
        case workout, food

        fileprivate func entry(id: Int64, _ db: Database) throws -> LogEntry? {
            switch self {
            case .workout: try WorkoutRecord.fetchOne(db, key: id).map(LogEntry.init)
            case .food: try FoodRecord.fetchOne(db, key: id).map(LogEntry.init)
            }
        }

        fileprivate func entries(from: Instant, through: Instant, _ db: Database) throws -> [LogEntry] {
            let range = from.secondsSinceEpoch...through.secondsSinceEpoch
            return switch self {
            case .workout:
                try WorkoutRecord.filter(range.contains(WorkoutRecord.Columns.at)).order(WorkoutRecord.Columns.at, WorkoutRecord.Columns.id).fetchAll(db)
                    .map(LogEntry.init)
            case .food:
                try FoodRecord.filter(range.contains(FoodRecord.Columns.at)).order(FoodRecord.Columns.at, FoodRecord.Columns.id).fetchAll(db).map(LogEntry.init)
            }
        }
    }

    public func addFood(name: String, kcal: Int, at: Instant, timeZone: String) throws(StoreError) -> Int64 {
        try database.write { db in
            var record = FoodRecord(id: nil, name: name, kcal: kcal, at: at.secondsSinceEpoch, timeZone: timeZone)
            try record.insert(db)
            return db.lastInsertedRowID
        }
    }

    /// One workout or food entry, or nil when there is none with that id.
    public func entry(_ table: EntryTable, id: Int64) throws(StoreError) -> LogEntry? {
        try database.read { db in try table.entry(id: id, db) }
    }

    /// Workouts, or food entries, in a time range (inclusive), oldest first.
    public func entries(_ table: EntryTable, from: Instant, through: Instant) throws(StoreError) -> [LogEntry] {
        try database.read { db in try table.entries(from: from, through: through, db) }
    }

    /// Deletes workouts and food entries before an instant (the config's retention).
    public func pruneEntries(before instant: Instant) throws(StoreError) {
        try database.write { db in
            _ = try WorkoutRecord.filter(WorkoutRecord.Columns.at < instant.secondsSinceEpoch).deleteAll(db)
            _ = try FoodRecord.filter(FoodRecord.Columns.at < instant.secondsSinceEpoch).deleteAll(db)
        }
    }

    public func setProfile(_ key: String, _ value: String) throws(StoreError) {
        try database.write { db in try ProfileRecord(key: key, value: value).upsert(db) }
    }

    public func removeProfile(_ key: String) throws(StoreError) {
        try database.write { db in _ = try ProfileRecord.deleteOne(db, key: key) }
    }

    public func profile(_ key: String) throws(StoreError) -> String? {
        try database.read { db in try ProfileRecord.fetchOne(db, key: key)?.value }
    }
}

extension FitnessStore.LogEntry {
    init(_ record: WorkoutRecord) {
        self.init(
            id: record.id ?? 0, name: record.exercise, kcal: record.kcal, at: Instant(secondsSinceEpoch: record.at), timeZone: record.timeZone,
            minutes: record.minutes, intensity: record.intensity, met: record.met)
    }

    init(_ record: FoodRecord) {
        self.init(
            id: record.id ?? 0, name: record.name, kcal: record.kcal, at: Instant(secondsSinceEpoch: record.at), timeZone: record.timeZone,
            minutes: nil, intensity: nil, met: nil)
    }
}
