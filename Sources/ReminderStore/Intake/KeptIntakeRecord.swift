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

    /// The table's columns, for queries.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let reminderName = Column(CodingKeys.reminderName)
        public static let reminderUid = Column(CodingKeys.reminderUid)
        public static let at = Column(CodingKeys.at)
        public static let timeZone = Column(CodingKeys.timeZone)
        public static let forScheduledAt = Column(CodingKeys.forScheduledAt)
        public static let amount = Column(CodingKeys.amount)
        public static let forced = Column(CodingKeys.forced)
        public static let removedAt = Column(CodingKeys.removedAt)
    }
}
