import GRDB

/// A log of a reminder that another device removed, kept here: a sync never erases a dose history. It keeps the
/// log's own id, and goes back to `intake` when an item of the same UID comes back (``CollectionStore``).
public struct KeptIntakeRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "keptIntake"

    /// The log's id in `intake`.
    public var id: Int64
    /// The removed reminder's id (it gets it back when it returns).
    public var reminderId: Int64
    public var reminderName: String
    /// The UID of the reminder's item in the linked collection.
    public var reminderUid: String
    /// Epoch seconds.
    public var at: Int64
    public var timeZone: String
    public var forScheduledAt: Int64?
    public var amount: Int64?
    public var forced: Bool?
    /// When the removal was applied here (epoch seconds).
    public var removedAt: Int64

    /// The columns, for queries.
    public enum Columns {
        public static let reminderUid = Column(CodingKeys.reminderUid)
    }
}
