import GRDB
import ReminderCore

/// The second half of a firing's durable sequence: recorded unconfirmed (``FiringsStore/recordFirings(_:)``),
/// announced, then confirmed here. A firing a crash left unconfirmed is looked up in the journal at the next
/// start under ``FiringsStore/announcementKey(instance:firingID:)``.
extension FiringsStore {
    /// This store's own id (random, made by its first migration to v9): the journal knows a firing by it and
    /// the firing's row id, which a new or restored store repeats.
    public func instanceID() throws(StoreError) -> String {
        try database.read { db in
            // A store whose row was deleted by hand answers a fixed id: no firing of it is then found in the
            // journal, so an unconfirmed one is announced again rather than lost.
            try StoreInstanceRecord.id(in: db)
        }
    }

    /// The key under which a firing's announcement is written to the journal (`REMINDER_RECORD`).
    public static func announcementKey(instance: String, firingID: Int64) -> String {
        "\(instance)-\(firingID)"
    }

    /// The key of a missed note's announcement.
    public static func announcementKey(instance: String, outcomeID: Int64) -> String {
        "\(instance)-o\(outcomeID)"
    }

    /// The key of an occurrence's announcement again (a repeat or a snooze) at an instant.
    public static func announcementKey(instance: String, firingID: Int64, again: Instant) -> String {
        "\(instance)-\(firingID)@\(again.secondsSinceEpoch)"
    }

    /// The key of an occurrence's escalation (its firing record's id).
    public static func announcementKey(instance: String, escalationOf firingID: Int64) -> String {
        "\(instance)-\(firingID)!"
    }

    /// What a crash left recorded but not confirmed as announced.
    public struct Unconfirmed: Sendable {
        /// Firings recorded, oldest first.
        public var firings: [FiringRecord]
        /// Missed notes recorded, oldest first.
        public var missed: [OutcomeRecord]
        /// Firings whose announcement again (`againPending`, at `lastAnnouncedAt`) was noted, oldest first.
        public var again: [FiringRecord]
        /// Firings whose escalation (at `escalatedAt`) was noted, oldest first.
        public var escalations: [FiringRecord] = []

        public var isEmpty: Bool { firings.isEmpty && missed.isEmpty && again.isEmpty && escalations.isEmpty }

        public init(firings: [FiringRecord], missed: [OutcomeRecord], again: [FiringRecord], escalations: [FiringRecord] = []) {
            (self.firings, self.missed, self.again, self.escalations) = (firings, missed, again, escalations)
        }
    }

    /// Marks what was recorded as announced (all in one transaction, not synced: a confirmation lost to a power
    /// cut only makes the next start look it up in the journal).
    public func confirmAnnounced(firings: [Int64] = [], missed: [Int64] = [], again: [Int64] = [], escalations: [Int64] = []) throws(StoreError) {
        guard !(firings.isEmpty && missed.isEmpty && again.isEmpty && escalations.isEmpty) else { return }
        try database.writeUnsynced { db in
            try Self.set(FiringRecord.Columns.confirmed, "1", of: FiringRecord.databaseTableName, ids: firings, in: db)
            try Self.set(OutcomeRecord.Columns.confirmed, "1", of: OutcomeRecord.databaseTableName, ids: missed, in: db)
            try Self.set(FiringRecord.Columns.againPending, "NULL", of: FiringRecord.databaseTableName, ids: again, in: db)
            try Self.set(FiringRecord.Columns.escalationPending, "NULL", of: FiringRecord.databaseTableName, ids: escalations, in: db)
        }
    }

    /// Sets a column to a constant in the rows of `table` whose id is among `ids`, given as one JSON array: one
    /// statement compiled once per connection, whatever the count (an `IN` list of each chunk's ids was written
    /// and compiled for each chunk of a burst, and is bound by SQLite's limit of variables).
    private static func set(_ column: Column, _ constant: String, of table: String, ids: [Int64], in db: Database) throws {
        guard !ids.isEmpty else { return }
        let sql = "UPDATE \(table) SET \(column.name) = \(constant) WHERE id IN (SELECT value FROM json_each(?))"
        try db.cachedStatement(sql: sql).execute(arguments: [ReminderStore.jsonArray(ids)])
    }

    /// What was recorded but not confirmed as announced (a crash came between).
    public func unconfirmed() throws(StoreError) -> Unconfirmed {
        try database.read { db in
            Unconfirmed(
                firings: try FiringRecord.filter(FiringRecord.Columns.confirmed == false).order(FiringRecord.Columns.id).fetchAll(db),
                missed: try OutcomeRecord.filter(OutcomeRecord.Columns.confirmed == false).order(OutcomeRecord.Columns.id).fetchAll(db),
                again: try FiringRecord.filter(FiringRecord.Columns.againPending != nil).order(FiringRecord.Columns.id).fetchAll(db),
                escalations: try FiringRecord.filter(FiringRecord.Columns.escalationPending != nil).order(FiringRecord.Columns.id).fetchAll(db))
        }
    }
}

/// The store's own id (table `storeInstance`, one row, written by the migration that made it).
struct StoreInstanceRecord: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "storeInstance"

    var id: String
}

extension StoreInstanceRecord {
    /// The store's id; "unknown" when its row was deleted by hand.
    static func id(in db: Database) throws -> String { try fetchOne(db)?.id ?? "unknown" }
}
