import GRDB

/// The rows the linked collection publishes that were written since it last asked: reminders, logs and skips
/// added, changed or removed, by id. Kept like ``HistoryChanges``, by temporary triggers on the store's one
/// writing connection, so that every write counts however it was made (a method, a firing, an import, a row
/// another device's item changed), and a publish reads what changed rather than every row.
public struct CollectionChanges: Sendable, Hashable {
    public var reminders: Set<Int64> = []
    public var logs: Set<Int64> = []
    public var skips: Set<Int64> = []

    public init(reminders: Set<Int64> = [], logs: Set<Int64> = [], skips: Set<Int64> = []) {
        (self.reminders, self.logs, self.skips) = (reminders, logs, skips)
    }

    public var isEmpty: Bool { reminders.isEmpty && logs.isEmpty && skips.isEmpty }

    public mutating func formUnion(_ other: CollectionChanges) {
        reminders.formUnion(other.reminders)
        logs.formUnion(other.logs)
        skips.formUnion(other.skips)
    }
}

extension ReminderStore {
    /// The temporary table and triggers behind ``CollectionStore/takeChanges()``: each appends a row, read
    /// `DISTINCT` (a key and a check per row cost 300 ms of a 106,504-event import; see ``storeChangeTriggers``).
    /// A skip is an `outcome` row in state `skipped`; a missed occurrence changes its reminder's item (a one-off's
    /// task is then cancelled); a reminder's `handledThrough` moves at every firing and is not published, so it is
    /// not a change. (No `INSERT OR IGNORE` in a trigger: an outer statement's conflict clause, an upsert's,
    /// replaces the trigger's, and the second change of a row then failed the whole write.)
    static let collectionChangeTriggers = """
        CREATE TEMP TABLE IF NOT EXISTS changedForCollection (kind TEXT NOT NULL, id INTEGER NOT NULL);
        \(["INSERT": "NEW", "DELETE": "OLD"].map { event, row in
            """
            CREATE TEMP TRIGGER IF NOT EXISTS collectionReminder\(event) AFTER \(event) ON main.reminder BEGIN
                INSERT INTO changedForCollection VALUES ('reminder', \(row).id); END;
            CREATE TEMP TRIGGER IF NOT EXISTS collectionLog\(event) AFTER \(event) ON main.intake BEGIN
                INSERT INTO changedForCollection VALUES ('log', \(row).id); END;
            CREATE TEMP TRIGGER IF NOT EXISTS collectionSkip\(event) AFTER \(event) ON main.outcome WHEN \(row).state = 'skipped' BEGIN
                INSERT INTO changedForCollection VALUES ('skip', \(row).id); END;
            """
        }.sorted().joined(separator: "\n"))
        CREATE TEMP TRIGGER IF NOT EXISTS collectionReminderUPDATE AFTER UPDATE ON main.reminder
            WHEN \(["name", "rule", "timeZone", "enabled", "windowSeconds", "delivery", "createdAt", "origin"].map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
            BEGIN INSERT INTO changedForCollection VALUES ('reminder', NEW.id); END;
        CREATE TEMP TRIGGER IF NOT EXISTS collectionLogUPDATE AFTER UPDATE ON main.intake BEGIN
            INSERT INTO changedForCollection VALUES ('log', NEW.id); END;
        CREATE TEMP TRIGGER IF NOT EXISTS collectionMissedINSERT AFTER INSERT ON main.outcome WHEN NEW.state = 'missed' BEGIN
            INSERT INTO changedForCollection VALUES ('reminder', NEW.reminderId); END;
        CREATE TEMP TRIGGER IF NOT EXISTS collectionSkipUPDATE AFTER UPDATE ON main.outcome WHEN OLD.state = 'skipped' OR NEW.state = 'skipped' BEGIN
            INSERT INTO changedForCollection VALUES ('skip', NEW.id); END;
        """
}

extension CollectionStore {
    /// The rows written since the last call (or since the store was opened), and forgets them.
    public func takeChanges() throws(StoreError) -> CollectionChanges {
        try database.write { db in
            var changes = CollectionChanges()
            for row in try Row.fetchAll(db, sql: "SELECT DISTINCT kind, id FROM temp.changedForCollection") {
                switch row[0] as String {
                case "reminder": changes.reminders.insert(row[1])
                case "log": changes.logs.insert(row[1])
                default: changes.skips.insert(row[1])
                }
            }
            if !changes.isEmpty { try db.execute(sql: "DELETE FROM temp.changedForCollection") }
            return changes
        }
    }
}

/// What became of a one-off reminder's occurrence, for its task's status in the collection.
public struct OneOffOutcome: Sendable, Hashable {
    /// Its first log, and whether that log is a task app's completion of the reminder's own item (`todo done`,
    /// kept under `file#key`): the item then already says so.
    public var firstLog: IntakeRecord?
    public var loggedByCompletion = false
    /// Skipped or missed, when it was not taken.
    public var outcome: OutcomeRecord.State?
}

extension CollectionStore {
    /// What became of a one-off reminder's occurrence (see ``OneOffOutcome``).
    public func oneOffOutcome(reminderID: Int64) throws(StoreError) -> OneOffOutcome {
        try database.read { db in
            var found = OneOffOutcome()
            found.firstLog = try IntakeRecord.filter(IntakeRecord.Columns.reminderId == reminderID).order(IntakeRecord.Columns.at).fetchOne(db)
            if let log = found.firstLog {
                found.loggedByCompletion = try CollectionItemRecord.filter(
                    CollectionItemRecord.Columns.kind == CollectionItemRecord.Kind.taken.rawValue && CollectionItemRecord.Columns.localId == log.id
                        && CollectionItemRecord.Columns.fileName.like("%#%")
                ).fetchCount(db) > 0
            }
            found.outcome = try OutcomeRecord.filter(OutcomeRecord.Columns.reminderId == reminderID).order(OutcomeRecord.Columns.decidedAt).fetchOne(db)?.state
            return found
        }
    }
}
