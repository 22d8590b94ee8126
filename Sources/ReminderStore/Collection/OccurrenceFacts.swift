import GRDB
import ReminderCore

/// What the store holds of a reminder's occurrences in a span: its logs (with the task whose completion each
/// is, if any) and its skips. For occurrence tasks (`collection-mode = "occurrences"`): how each task is closed,
/// and whether an app's completion is a dose not yet recorded.
public struct OccurrenceFacts: Sendable, Hashable {
    public struct Log: Sendable, Hashable {
        public var at: Instant
        /// Made for a missed occurrence (taken late).
        public var forScheduledAt: Instant?
        /// The file of the task whose completion in an app it is (`file#key`), if it is one.
        public var completing: String?
    }

    public var logs: [Log] = []
    public var skips: Set<Instant> = []

    /// The instants of the logs that take or suppress occurrences (not the late takes).
    public var logInstants: [Instant] { logs.filter { $0.forScheduledAt == nil }.map(\.at) }
    /// The late takes, by the occurrence each takes.
    public var takenLate: [Instant: Instant] { Dictionary(logs.compactMap { log in log.forScheduledAt.map { ($0, log.at) } }) { a, _ in a } }
}

extension CollectionStore {
    /// The facts of a reminder's occurrences from `from` through `through` (see ``OccurrenceFacts``).
    public func occurrenceFacts(reminderID: Int64, from: Instant, through: Instant) throws(StoreError) -> OccurrenceFacts {
        try database.read { db in
            var facts = OccurrenceFacts()
            let (low, high) = (from.secondsSinceEpoch, through.secondsSinceEpoch)
            let intake = IntakeRecord.Columns.self
            let loggedThen: SQLExpression = intake.at >= low && intake.at <= high
            let takingThen: SQLExpression = intake.forScheduledAt >= low && intake.forScheduledAt <= high
            let logs = try IntakeRecord.filter(intake.reminderId == reminderID).filter(loggedThen || takingThen).fetchAll(db)
            let item = CollectionItemRecord.Columns.self
            var completing: [Int64: String] = [:]
            let ids: [Int64] = logs.map(\.id)
            for row in try CollectionItemRecord.filter(item.kind == CollectionItemRecord.Kind.taken.rawValue && ids.contains(item.localId) && item.fileName.like("%#%")).fetchAll(db) {
                if let id = row.localId { completing[id] = row.file }
            }
            facts.logs = logs.map { log in
                OccurrenceFacts.Log(
                    at: Instant(secondsSinceEpoch: log.at), forScheduledAt: log.forScheduledAt.map(Instant.init(secondsSinceEpoch:)), completing: completing[log.id])
            }
            let outcome = OutcomeRecord.Columns.self
            facts.skips = Set(try OutcomeRecord.filter(outcome.reminderId == reminderID && outcome.scheduledAt >= low && outcome.scheduledAt <= high).skips()
                .fetchAll(db).map { Instant(secondsSinceEpoch: $0.scheduledAt) })
            return facts
        }
    }

    /// The occurrence tasks linked to these reminders, by file name.
    public func occurrenceItems(reminderIDs: Set<Int64>) throws(StoreError) -> [String: CollectionItemRecord] {
        try database.read { db in
            let item = CollectionItemRecord.Columns.self
            let rows = try CollectionItemRecord.filter(item.kind == CollectionItemRecord.Kind.occurrence.rawValue && reminderIDs.contains(item.localId)).fetchAll(db)
            return Dictionary(rows.map { ($0.fileName, $0) }) { a, _ in a }
        }
    }

    /// The reminder an item's UID stands for here, if it is here.
    public func reminder(uid: String) throws(StoreError) -> StoredReminder? {
        try database.read { db in try Self.linkedReminder(uid: uid, in: db) }
    }
}
