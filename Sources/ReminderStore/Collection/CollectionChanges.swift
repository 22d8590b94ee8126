import GRDB

/// The rows the linked collection publishes that were written since it last asked: reminders, logs and skips
/// added, changed or removed, by id, from the change feed (``StoreChanges/collection``), so that every write
/// counts however it was made (a method, a firing, an import, a row another device's item changed), and a
/// publish reads what changed rather than every row.
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

extension StoreChanges {
    /// What of these changes the linked collection publishes: reminders added, changed or removed, or with an
    /// occurrence recorded missed (a one-off's task is then cancelled); logs and skips, by id.
    public var collection: CollectionChanges {
        CollectionChanges(reminders: reminders(changing: [.definition, .missed]), logs: logIDs, skips: skipIDs)
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
