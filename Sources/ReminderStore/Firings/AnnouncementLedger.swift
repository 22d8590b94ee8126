import GRDB

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
            try StoreInstanceRecord.fetchOne(db)?.id ?? "unknown"
        }
    }

    /// The key under which a firing's announcement is written to the journal (`REMINDER_RECORD`).
    public static func announcementKey(instance: String, firingID: Int64) -> String {
        "\(instance)-\(firingID)"
    }

    /// Marks recorded firings as announced (all in one transaction, not synced: a confirmation lost to a power
    /// cut only makes the next start look the firing up in the journal).
    public func confirmAnnounced(_ ids: [Int64]) throws(StoreError) {
        guard !ids.isEmpty else { return }
        try database.writeUnsynced { db in
            _ = try FiringRecord.filter(keys: ids).updateAll(db, Column("confirmed").set(to: true))
        }
    }

    /// The firings recorded but not confirmed as announced (a crash came between), oldest first.
    public func unconfirmedFirings() throws(StoreError) -> [FiringRecord] {
        try database.read { db in
            try FiringRecord.filter(Column("confirmed") == false).order(Column("id")).fetchAll(db)
        }
    }
}

/// The store's own id (table `storeInstance`, one row, written by the migration that made it).
struct StoreInstanceRecord: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "storeInstance"

    var id: String
}
