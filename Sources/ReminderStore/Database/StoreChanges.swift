import GRDB
import Synchronization

/// What was committed to the rows the daemon's features follow since the change feed last took it, however it
/// was written (a call, a firing, another device's item, a phone's completed task, an import, a restore): per
/// reminder, which of its parts changed; and the rows that belong to no reminder.
///
/// Kept like ``HistoryChanges``, by temporary triggers on the store's one writing connection (a deleted log
/// still names its reminder); a commit that touched them rings the bell given to ``ReminderStore/onCommit(_:)``.
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
    }

    /// Per reminder id, what of it changed.
    public var reminders: [Int64: Parts]
    /// Rest days marked or unmarked.
    public var restDays: Bool
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

    public init(reminders: [Int64: Parts] = [:], restDays: Bool = false, fitness: Bool = false, restored: Bool = false, activities: Activities = .listed([])) {
        self.reminders = reminders
        self.restDays = restDays
        self.fitness = fitness
        self.restored = restored
        self.activities = activities
    }

    public var isEmpty: Bool { reminders.isEmpty && !restDays && !fitness && !restored && activities.isEmpty }

    /// The reminders any of whose `parts` changed.
    public func reminders(changing parts: Parts) -> Set<Int64> {
        Set(reminders.compactMap { $0.value.isDisjoint(with: parts) ? nil : $0.key })
    }
}

extension ReminderStore {
    /// The temporary tables and triggers behind ``takeChanges()``: each trigger appends a row, and a take reads
    /// them `DISTINCT`. (A key on the table and a `NOT EXISTS` check per row, as the older change tables have,
    /// cost 300 ms a trigger for a 106,504-event import, in the transaction that holds the writer: a dose due
    /// meanwhile fired 1.4-2.2 s late instead of 0.7 s. No `INSERT OR IGNORE` in a trigger either: an upsert's
    /// conflict clause replaces the trigger's; see ``historyChangeTriggers``.)
    static let storeChangeTriggers: String = {
        func part(_ name: String, _ event: String, on table: String, reminder: String, _ part: StoreChanges.Parts, when: String = "1") -> String {
            """
            CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON main.\(table) WHEN \(when) BEGIN
                INSERT INTO changedPart VALUES (\(reminder), \(part.rawValue)); END;
            """
        }
        func other(_ name: String, _ event: String, on table: String, _ kind: String) -> String {
            """
            CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON main.\(table) BEGIN
                INSERT INTO changedOther VALUES ('\(kind)'); END;
            """
        }
        func activity(_ name: String, _ event: String, on table: String) -> String {
            let change = { (row: String, sign: Int) in "INSERT INTO changedActivity VALUES (\(row).at, \(row).timeZone, \(sign));" }
            return switch event {
            case "INSERT": "CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER INSERT ON main.\(table) BEGIN \(change("NEW", 1)) END;"
            case "DELETE": "CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER DELETE ON main.\(table) BEGIN \(change("OLD", -1)) END;"
            default:
                """
                CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER UPDATE OF at, timeZone ON main.\(table)
                    WHEN OLD.at IS NOT NEW.at OR OLD.timeZone IS NOT NEW.timeZone BEGIN \(change("OLD", -1)) \(change("NEW", 1)) END;
                """
            }
        }
        let definition = ["name", "rule", "timeZone", "enabled", "windowSeconds", "delivery", "createdAt", "origin"].map { "OLD.\($0) IS NOT NEW.\($0)" }
        let rows: [String: String] = ["INSERT": "NEW", "DELETE": "OLD", "UPDATE": "NEW"]
        var triggers = [
            "CREATE TEMP TABLE IF NOT EXISTS changedPart (reminderId INTEGER NOT NULL, part INTEGER NOT NULL);",
            "CREATE TEMP TABLE IF NOT EXISTS changedOther (kind TEXT NOT NULL);",
            "CREATE TEMP TABLE IF NOT EXISTS changedActivity (at INTEGER NOT NULL, timeZone TEXT NOT NULL, sign INTEGER NOT NULL);",
            part("changedReminderINSERT", "INSERT", on: "reminder", reminder: "NEW.id", .definition),
            part("changedReminderDELETE", "DELETE", on: "reminder", reminder: "OLD.id", .definition),
            part("changedReminderUPDATE", "UPDATE", on: "reminder", reminder: "NEW.id", .definition, when: definition.joined(separator: " OR ")),
            part("changedMissedINSERT", "INSERT", on: "outcome", reminder: "NEW.reminderId", .missed, when: "NEW.state = 'missed'"),
        ]
        for (event, row) in rows.sorted(by: { $0.key < $1.key }) {
            triggers.append(part("changedLog\(event)", event, on: "intake", reminder: "\(row).reminderId", .logs))
            triggers.append(part("changedStock\(event)", event, on: "stockChange", reminder: "\(row).reminderId", .stock))
            let skipped = event == "UPDATE" ? "OLD.state = 'skipped' OR NEW.state = 'skipped'" : "\(row).state = 'skipped'"
            triggers.append(part("changedSkip\(event)", event, on: "outcome", reminder: "\(row).reminderId", .skips, when: skipped))
            triggers.append(other("changedRestDay\(event)", event, on: "restDay", "restDay"))
            triggers.append(other("changedWorkout\(event)", event, on: "workout", "fitness"))
            triggers.append(other("changedFood\(event)", event, on: "food", "fitness"))
            triggers.append(activity("changedLogActivity\(event)", event, on: "intake"))
            triggers.append(activity("changedWorkoutActivity\(event)", event, on: "workout"))
        }
        return triggers.joined(separator: "\n")
    }()

    /// The tables whose rows the triggers follow: a commit that changed one rings the bell.
    static let followedTables: Set<String> = ["reminder", "intake", "stockChange", "outcome", "restDay", "workout", "food"]

    /// What was committed since the last call (or since the store was opened), and forgets it. Nothing
    /// committed since: no statement at all (every call asks, and a `Status` must not wait on the writer).
    public func takeChanges() throws(StoreError) -> StoreChanges {
        guard commitBell.takeCommitted() else { return StoreChanges() }
        return try write { db in
            var changes = StoreChanges()
            for row in try Row.fetchAll(db, sql: "SELECT DISTINCT reminderId, part FROM temp.changedPart") {
                changes.reminders[row[0], default: []].insert(StoreChanges.Parts(rawValue: row[1]))
            }
            for kind in try String.fetchAll(db, sql: "SELECT DISTINCT kind FROM temp.changedOther") {
                switch kind {
                case "restDay": changes.restDays = true
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

/// Watches the writing connection's transactions for a change to a followed row (GRDB's transaction observer):
/// once such a transaction commits, it rings the bell. Used only on that connection's queue.
final class CommitObserver: TransactionObserver {
    private let bell: CommitBell
    private var changed = false

    init(bell: CommitBell) { self.bell = bell }

    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool {
        // A firing moves its reminder's `handledThrough` only: no change to ring for.
        if case .update("reminder", let columns) = eventKind, columns.isSubset(of: ["handledThrough"]) { return false }
        // A restore notes itself there (it may have added only the firings' bookkeeping).
        if case .insert("changedOther") = eventKind { return true }
        return ReminderStore.followedTables.contains(eventKind.tableName)
    }

    func databaseDidChange(with event: DatabaseEvent) {
        changed = true
        stopObservingDatabaseChangesUntilNextTransaction()
    }

    func databaseDidCommit(_ db: Database) {
        guard changed else { return }
        changed = false
        bell.rang()
    }

    func databaseDidRollback(_ db: Database) { changed = false }
}
