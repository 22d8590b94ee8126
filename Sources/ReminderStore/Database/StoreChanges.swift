import GRDB
import ReminderCore
import Synchronization

/// What was committed to the rows the daemon's features follow since the change feed last took it, however it
/// was written (a call, a firing, another device's item, a phone's completed task, an import, a restore): per
/// reminder, which of its parts changed; and the rows that belong to no reminder.
///
/// Kept by temporary triggers on the store's one writing connection, which append a row per changed row (GRDB's
/// transaction observer alone names a deleted row by its rowid only: a deleted log no longer names its reminder
/// and instant); a commit that touched them rings the bell given to ``ReminderStore/onCommit(_:)``. Each
/// feature reads what it follows from it: the habits the ``history``, the linked collection the rows it
/// publishes (``collection``).
public struct StoreChanges: Sendable, Hashable {
    /// What of a reminder changed.
    public struct Parts: OptionSet, Sendable, Hashable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        /// Its row: added, removed, or its name, rule, zone, window, delivery or state changed (not the firing
        /// bookkeeping, `handledThrough`, which moves at every firing).
        public static let definition = Parts(rawValue: 1 << 0)
        /// A log added, changed or deleted.
        public static let logs = Parts(rawValue: 1 << 1)
        /// An occurrence skipped or unskipped.
        public static let skips = Parts(rawValue: 1 << 2)
        /// An occurrence recorded as missed.
        public static let missed = Parts(rawValue: 1 << 3)
        /// Its stock counted, refilled or corrected.
        public static let stock = Parts(rawValue: 1 << 4)
        /// Its rule, zone, window or creation time changed, or it was added or removed: the days of its history
        /// may be others (with ``definition``).
        public static let schedule = Parts(rawValue: 1 << 5)
    }

    /// Per reminder id, what of it changed.
    public var reminders: [Int64: Parts]
    /// The logs (`intake` rows) and the skips (`outcome` rows in state skipped) added, changed or deleted, by id.
    public var logIDs: Set<Int64>
    public var skipIDs: Set<Int64>
    /// Per reminder, the earliest instant of a log or a skip added, changed or deleted (a late take's occurrence
    /// when it is earlier than the log).
    public var earliestChanged: [Int64: Instant]
    /// The earliest rest day marked or unmarked (a local day number; a date that cannot be read: `Int32.min`).
    public var restDaysFrom: Int?
    /// Workouts or food entries added, changed or deleted.
    public var fitness: Bool
    /// Rows were restored from a backup: anything may have changed, the firings' bookkeeping too.
    public var restored: Bool
    /// The activities (intake logs and workouts, by instant and zone) added or removed: what the habits count.
    public var activities: Activities

    /// Activities added (a positive count) or removed (negative) at one instant in one zone.
    public struct ActivityCount: Sendable, Hashable {
        public let at: Int64
        public let timeZone: String
        public let count: Int
        public init(at: Int64, timeZone: String, count: Int) { (self.at, self.timeZone, self.count) = (at, timeZone, count) }
    }

    /// The activities that changed: listed, or too many to list (an import, a restore): to be counted again.
    public enum Activities: Sendable, Hashable {
        case listed([ActivityCount])
        case tooMany

        /// More than this many instants changed: ``tooMany``.
        public static let listLimit = 10_000

        public var isEmpty: Bool { self == .listed([]) }
    }

    public init(
        reminders: [Int64: Parts] = [:], logIDs: Set<Int64> = [], skipIDs: Set<Int64> = [], earliestChanged: [Int64: Instant] = [:],
        restDaysFrom: Int? = nil, fitness: Bool = false, restored: Bool = false, activities: Activities = .listed([])
    ) {
        self.reminders = reminders
        (self.logIDs, self.skipIDs, self.earliestChanged) = (logIDs, skipIDs, earliestChanged)
        self.restDaysFrom = restDaysFrom
        self.fitness = fitness
        self.restored = restored
        self.activities = activities
    }

    public var isEmpty: Bool { reminders.isEmpty && restDaysFrom == nil && !fitness && !restored && activities.isEmpty }

    /// Whether rest days were marked or unmarked.
    public var restDays: Bool { restDaysFrom != nil }

    /// The reminders any of whose `parts` changed.
    public func reminders(changing parts: Parts) -> Set<Int64> {
        Set(reminders.compactMap { $0.value.isDisjoint(with: parts) ? nil : $0.key })
    }
}

extension ReminderStore {
    /// The temporary tables and triggers behind ``takeChanges()``: each trigger appends a row, and a take reads
    /// them grouped. (A key on the table and a `NOT EXISTS` check per row cost 300 ms a trigger for a 106,504-event
    /// import, in the transaction that holds the writer: a dose due meanwhile fired 1.4-2.2 s late instead of
    /// 0.7 s. No `INSERT OR IGNORE` in a trigger either: an outer statement's conflict clause, an upsert's,
    /// replaces the trigger's, and the second change of a row then failed the whole write.)
    ///
    /// `changedPart` holds a reminder's changed part, with the log's or skip's id and instant for those; a
    /// reminder's `handledThrough` moves at every firing and is not a change.
    static let storeChangeTriggers: String = {
        func trigger(_ name: String, _ event: String, on table: String, when: String = "1", _ inserts: String...) -> String {
            "CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON main.\(table) WHEN \(when) BEGIN \(inserts.joined(separator: " ")) END;"
        }
        func part(_ reminder: String, _ part: String, row: String = "NULL", at: String = "NULL") -> String {
            "INSERT INTO changedPart VALUES (\(reminder), \(part), \(row), \(at));"
        }
        func log(_ row: String) -> String {
            part("\(row).reminderId", "\(StoreChanges.Parts.logs.rawValue)", row: "\(row).id", at: "min(\(row).at, coalesce(\(row).forScheduledAt, \(row).at))")
        }
        func skip(_ row: String) -> String {
            part("\(row).reminderId", "\(StoreChanges.Parts.skips.rawValue)", row: "\(row).id", at: "\(row).scheduledAt")
        }
        func other(_ kind: String, day: String = "NULL") -> String { "INSERT INTO changedOther VALUES ('\(kind)', \(day));" }
        func restDay(_ row: String) -> String { other("restDay", day: "coalesce(CAST(julianday(\(row).date) - 2440587.5 AS INTEGER), \(Int32.min))") }
        func activity(_ row: String, _ sign: Int) -> String { "INSERT INTO changedActivity VALUES (\(row).at, \(row).timeZone, \(sign));" }
        let changed = { (columns: [String]) in columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ") }
        // The pauses are part of the schedule (a paused day is neutral to a streak, and has no occurrence task);
        // read from the delivery's JSON only when both are JSON (a damaged row must not fail the write).
        let pauses = """
            CASE WHEN json_valid(OLD.delivery) AND json_valid(NEW.delivery) \
            THEN json_extract(OLD.delivery, '$.pauses') IS NOT json_extract(NEW.delivery, '$.pauses') \
            ELSE OLD.delivery IS NOT NEW.delivery END
            """
        let schedule = changed(["rule", "timeZone", "windowSeconds", "createdAt"]) + " OR " + pauses
        let definitionColumns = ["name", "rule", "timeZone", "enabled", "windowSeconds", "delivery", "createdAt", "origin"]
        let definition = changed(definitionColumns)
        let whole = "\(StoreChanges.Parts([.definition, .schedule]).rawValue)"
        let stock = "\(StoreChanges.Parts.stock.rawValue)"
        return [
            "CREATE TEMP TABLE IF NOT EXISTS changedPart (reminderId INTEGER NOT NULL, part INTEGER NOT NULL, rowId INTEGER, at INTEGER);",
            "CREATE TEMP TABLE IF NOT EXISTS changedOther (kind TEXT NOT NULL, day INTEGER);",
            "CREATE TEMP TABLE IF NOT EXISTS changedActivity (at INTEGER NOT NULL, timeZone TEXT NOT NULL, sign INTEGER NOT NULL);",
            trigger("changedReminderINSERT", "INSERT", on: "reminder", part("NEW.id", whole)),
            trigger("changedReminderDELETE", "DELETE", on: "reminder", part("OLD.id", whole)),
            // `UPDATE OF`: a firing's update of `handledThrough` alone does not even run it.
            trigger("changedReminderUPDATE", "UPDATE OF \(definitionColumns.joined(separator: ", "))", on: "reminder", when: definition, part(
                "NEW.id", "\(StoreChanges.Parts.definition.rawValue) | CASE WHEN \(schedule) THEN \(StoreChanges.Parts.schedule.rawValue) ELSE 0 END")),
            trigger("changedMissedINSERT", "INSERT", on: "outcome", when: "NEW.state = 'missed'", part("NEW.reminderId", "\(StoreChanges.Parts.missed.rawValue)")),
            trigger("changedLogINSERT", "INSERT", on: "intake", log("NEW"), activity("NEW", 1)),
            trigger("changedLogDELETE", "DELETE", on: "intake", log("OLD"), activity("OLD", -1)),
            trigger("changedLogUPDATE", "UPDATE", on: "intake", log("OLD"), log("NEW")),
            trigger("changedLogActivityUPDATE", "UPDATE OF at, timeZone", on: "intake", when: changed(["at", "timeZone"]), activity("OLD", -1), activity("NEW", 1)),
            trigger("changedSkipINSERT", "INSERT", on: "outcome", when: "NEW.state = 'skipped'", skip("NEW")),
            trigger("changedSkipDELETE", "DELETE", on: "outcome", when: "OLD.state = 'skipped'", skip("OLD")),
            trigger("changedSkipUPDATEFrom", "UPDATE", on: "outcome", when: "OLD.state = 'skipped'", skip("OLD")),
            trigger("changedSkipUPDATETo", "UPDATE", on: "outcome", when: "NEW.state = 'skipped'", skip("NEW")),
            trigger("changedStockINSERT", "INSERT", on: "stockChange", part("NEW.reminderId", stock)),
            trigger("changedStockDELETE", "DELETE", on: "stockChange", part("OLD.reminderId", stock)),
            trigger("changedStockUPDATE", "UPDATE", on: "stockChange", part("NEW.reminderId", stock)),
            trigger("changedRestDayINSERT", "INSERT", on: "restDay", restDay("NEW")),
            trigger("changedRestDayDELETE", "DELETE", on: "restDay", restDay("OLD")),
            trigger("changedRestDayUPDATE", "UPDATE", on: "restDay", restDay("OLD"), restDay("NEW")),
            trigger("changedWorkoutINSERT", "INSERT", on: "workout", other("fitness"), activity("NEW", 1)),
            trigger("changedWorkoutDELETE", "DELETE", on: "workout", other("fitness"), activity("OLD", -1)),
            trigger("changedWorkoutUPDATE", "UPDATE", on: "workout", other("fitness")),
            trigger("changedWorkoutActivityUPDATE", "UPDATE OF at, timeZone", on: "workout", when: changed(["at", "timeZone"]), activity("OLD", -1), activity("NEW", 1)),
            trigger("changedFoodINSERT", "INSERT", on: "food", other("fitness")),
            trigger("changedFoodDELETE", "DELETE", on: "food", other("fitness")),
            trigger("changedFoodUPDATE", "UPDATE", on: "food", other("fitness")),
        ].joined(separator: "\n")
    }()

    /// Installs the triggers on the writing connection (once, after migrating), the observer that rings the
    /// commit bell after a commit that changed a followed row, and the one that has the reminders counted again.
    static func followChanges(_ database: any DatabaseWriter, bell: CommitBell, counts: ReminderCountCache) throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: storeChangeTriggers)
            db.add(transactionObserver: CommittedChangeObserver(observing: CommitBell.rings, committed: bell.rang), extent: .databaseLifetime)
            db.add(transactionObserver: CommittedChangeObserver(observing: ReminderCountCache.changes, committed: counts.invalidate), extent: .databaseLifetime)
        }
    }

    /// The tables whose rows the triggers follow: a commit that changed one rings the bell.
    static let followedTables: Set<String> = ["reminder", "intake", "stockChange", "outcome", "restDay", "workout", "food"]

    /// What was committed since the last call (or since the store was opened), and forgets it. Nothing
    /// committed since: no statement at all (every call asks, and a `Status` must not wait on the writer).
    public func takeChanges() throws(StoreError) -> StoreChanges {
        guard commitBell.takeCommitted() else { return StoreChanges() }
        return try write { db in
            var changes = StoreChanges()
            for row in try Row.fetchAll(db, sql: "SELECT reminderId, part, min(at) FROM temp.changedPart GROUP BY reminderId, part") {
                let (id, part) = (row[0] as Int64, StoreChanges.Parts(rawValue: row[1]))
                changes.reminders[id, default: []].formUnion(part)
                if let at = row[2] as Int64? {
                    changes.earliestChanged[id] = min(changes.earliestChanged[id] ?? Instant(secondsSinceEpoch: at), Instant(secondsSinceEpoch: at))
                }
            }
            for row in try Row.fetchAll(db, sql: "SELECT DISTINCT part, rowId FROM temp.changedPart WHERE rowId IS NOT NULL") {
                if row[0] == StoreChanges.Parts.logs.rawValue { changes.logIDs.insert(row[1]) } else { changes.skipIDs.insert(row[1]) }
            }
            for row in try Row.fetchAll(db, sql: "SELECT kind, min(day) FROM temp.changedOther GROUP BY kind") {
                switch row[0] as String {
                case "restDay": changes.restDaysFrom = row[1]
                case "restored": changes.restored = true
                default: changes.fitness = true
                }
            }
            changes.activities = try Self.changedActivities(db)
            if !changes.isEmpty {
                try db.execute(sql: "DELETE FROM temp.changedPart; DELETE FROM temp.changedOther; DELETE FROM temp.changedActivity")
            }
            return changes
        }
    }

    /// The activities added and removed, net per instant and zone (a log added and deleted again is none).
    private static func changedActivities(_ db: Database) throws -> StoreChanges.Activities {
        let limit = StoreChanges.Activities.listLimit
        let rows = try Row.fetchAll(db, sql: """
            SELECT at, timeZone, SUM(sign) FROM temp.changedActivity GROUP BY at, timeZone HAVING SUM(sign) <> 0 LIMIT \(limit + 1)
            """)
        guard rows.count <= limit else { return .tooMany }
        return .listed(rows.map { StoreChanges.ActivityCount(at: $0[0], timeZone: $0[1], count: $0[2]) })
    }

    /// Calls `ring` after each commit that changed a followed row, on the writing connection's thread (it
    /// must not use the store: the change feed takes the changes later, with ``takeChanges()``).
    public func onCommit(_ ring: @escaping @Sendable () -> Void) {
        commitBell.ring.withLock { $0 = ring }
    }
}

/// What ``ReminderStore/onCommit(_:)`` calls, and whether a followed row was committed since the changes were
/// last taken; shared with the observer on the writing connection.
final class CommitBell: Sendable {
    let ring = Mutex<(@Sendable () -> Void)?>(nil)
    private let committed = Mutex(false)

    /// A transaction that changed a followed row committed.
    func rang() {
        committed.withLock { $0 = true }
        ring.withLock { $0 }?()
    }

    /// Whether one did since the last call (cleared before the changes are read: one committed meanwhile is
    /// read at the next).
    func takeCommitted() -> Bool {
        committed.withLock { committed in
            defer { committed = false }
            return committed
        }
    }
}

/// Watches the writing connection's transactions for a change it `observes` (GRDB's transaction observer):
/// once such a transaction commits, it calls `committed`. Used only on that connection's queue.
final class CommittedChangeObserver: TransactionObserver {
    private let observesKind: @Sendable (DatabaseEventKind) -> Bool
    private let committed: @Sendable () -> Void
    private var changed = false

    init(observing: @escaping @Sendable (DatabaseEventKind) -> Bool, committed: @escaping @Sendable () -> Void) {
        (observesKind, self.committed) = (observing, committed)
    }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { observesKind(eventKind) }

    func databaseDidChange(with event: DatabaseEvent) {
        changed = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        guard changed else { return }
        changed = false
        committed()
    }

    func databaseDidRollback(_ db: Database) { changed = false }
}

extension CommitBell {
    /// Whether a change of this kind rings the bell: one to a followed row.
    static func rings(for eventKind: DatabaseEventKind) -> Bool {
        // A firing moves its reminder's `handledThrough` only: no change to ring for.
        if case .update("reminder", let columns) = eventKind, columns.isSubset(of: ["handledThrough"]) { return false }
        // A restore notes itself there (it may have added only the firings' bookkeeping).
        if case .insert("changedOther") = eventKind { return true }
        return ReminderStore.followedTables.contains(eventKind.tableName)
    }
}
