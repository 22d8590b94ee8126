import GRDB
import ReminderCore

/// What changed in the history a goal's streak is counted from, since the last time it was asked: per
/// reminder, the earliest instant of a log or skipped occurrence that was added, deleted or changed (or
/// ``everything`` when the reminder was added, removed, or given another rule, zone, window or creation time),
/// and the earliest rest day marked or unmarked.
///
/// Kept by temporary triggers on the store's one writing connection, so that every write counts, however it
/// was made (a log, a deletion, a restore, an import), and nothing is written to the file for it.
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

extension ReminderStore {
    /// The temporary tables and triggers behind ``takeHistoryChanges()``: each appends a row, and a take reads the
    /// earliest per reminder (a key and a check per row cost 300 ms a trigger in a large import: see
    /// ``storeChangeTriggers``). A skip is an `outcome` row in state `skipped`; a rest day's date becomes a day
    /// number (days since 1970-01-01). (No `INSERT OR IGNORE` in a trigger: an upsert's conflict clause replaces
    /// the trigger's, and marking a rest day a second time failed with "UNIQUE constraint failed".)
    static let historyChangeTriggers = """
        CREATE TEMP TABLE IF NOT EXISTS changedGoal (reminderId INTEGER NOT NULL, earliestAt INTEGER NOT NULL);
        CREATE TEMP TABLE IF NOT EXISTS changedRestDay (earliestDay INTEGER NOT NULL);
        \(goalTrigger("intakeAdded", "INSERT", on: "intake", row: "NEW", at: "at", orEarlier: "forScheduledAt"))
        \(goalTrigger("intakeDeleted", "DELETE", on: "intake", row: "OLD", at: "at", orEarlier: "forScheduledAt"))
        \(goalTrigger("intakeChangedFrom", "UPDATE", on: "intake", row: "OLD", at: "at", orEarlier: "forScheduledAt"))
        \(goalTrigger("intakeChangedTo", "UPDATE", on: "intake", row: "NEW", at: "at", orEarlier: "forScheduledAt"))
        \(goalTrigger("skipAdded", "INSERT", on: "outcome", row: "NEW", at: "scheduledAt", when: "NEW.state = 'skipped'"))
        \(goalTrigger("skipDeleted", "DELETE", on: "outcome", row: "OLD", at: "scheduledAt", when: "OLD.state = 'skipped'"))
        \(goalTrigger("skipChangedFrom", "UPDATE", on: "outcome", row: "OLD", at: "scheduledAt", when: "OLD.state = 'skipped'"))
        \(goalTrigger("skipChangedTo", "UPDATE", on: "outcome", row: "NEW", at: "scheduledAt", when: "NEW.state = 'skipped'"))
        \(goalTrigger("goalAdded", "INSERT", on: "reminder", row: "NEW", at: nil))
        \(goalTrigger("goalDeleted", "DELETE", on: "reminder", row: "OLD", at: nil))
        \(goalTrigger("goalChanged", "UPDATE", on: "reminder", row: "NEW", at: nil, when: ["rule", "timeZone", "windowSeconds", "createdAt", "id"].map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR ")))
        \(restDayTrigger("restDayMarked", "INSERT", row: "NEW"))
        \(restDayTrigger("restDayUnmarked", "DELETE", row: "OLD"))
        \(restDayTrigger("restDayChangedFrom", "UPDATE", row: "OLD"))
        \(restDayTrigger("restDayChangedTo", "UPDATE", row: "NEW"))
        """

    /// - Parameters:
    ///   - column: the instant's column, or nil for the whole reminder (a row of `reminder`).
    ///   - earlier: a column whose instant, when set and earlier, is the change's instead (a late take changes
    ///     the day of the occurrence it takes).
    private static func goalTrigger(
        _ name: String, _ event: String, on table: String, row: String, at column: String?, orEarlier earlier: String? = nil, when: String = "1"
    ) -> String {
        var (id, at) = column.map { ("\(row).reminderId", "\(row).\($0)") } ?? ("\(row).id", "\(HistoryChanges.everything.secondsSinceEpoch)")
        if let earlier { at = "min(\(at), coalesce(\(row).\(earlier), \(at)))" }
        return """
            CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON main.\(table) WHEN \(when) BEGIN
                INSERT INTO changedGoal VALUES (\(id), \(at));
            END;
            """
    }

    private static func restDayTrigger(_ name: String, _ event: String, row: String) -> String {
        let day = "coalesce(CAST(julianday(\(row).date) - 2440587.5 AS INTEGER), \(Int32.min))"
        return """
            CREATE TEMP TRIGGER IF NOT EXISTS \(name) AFTER \(event) ON main.restDay BEGIN
                INSERT INTO changedRestDay VALUES (\(day));
            END;
            """
    }

    /// Installs the triggers on the writing connection (once, after migrating), and the observer that rings
    /// `bell` after a commit that changed a followed row (``StoreChanges``).
    static func recordHistoryChanges(_ database: any DatabaseWriter, bell: CommitBell) throws {
        try database.writeWithoutTransaction { db in
            try db.execute(sql: historyChangeTriggers + collectionChangeTriggers + storeChangeTriggers)
            db.add(transactionObserver: CommitObserver(bell: bell), extent: .databaseLifetime)
        }
    }

    /// The history changes written since the last call, and forgets them.
    public func takeHistoryChanges() throws(StoreError) -> HistoryChanges {
        try write { db in
            var changes = HistoryChanges()
            for row in try Row.fetchAll(db, sql: "SELECT reminderId, min(earliestAt) FROM temp.changedGoal GROUP BY reminderId") {
                changes.goals[row[0]] = Instant(secondsSinceEpoch: row[1])
            }
            changes.restDaysFrom = try Int.fetchOne(db, sql: "SELECT min(earliestDay) FROM temp.changedRestDay")
            if !changes.isEmpty { try db.execute(sql: "DELETE FROM temp.changedGoal; DELETE FROM temp.changedRestDay") }
            return changes
        }
    }
}
