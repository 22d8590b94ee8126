import GRDB

/// One logged intake.
public struct IntakeRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "intake"

    public var id: Int64?
    public var reminderId: Int64
    /// Epoch seconds.
    public var at: Int64
    /// The zone in effect when the intake happened.
    public var timeZone: String
    /// The missed occurrence it took late (epoch seconds), or nil for an ordinary log.
    public var forScheduledAt: Int64?
    /// How much was taken, in thousandths of the reminder's dose unit; nil for a reminder without a dose.
    public var amount: Int64? = nil
    /// Logged with force past its reminder's dose limits (nil: not).
    public var forced: Bool? = nil

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension IntakeRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let at = Column(CodingKeys.at)
        public static let timeZone = Column(CodingKeys.timeZone)
        public static let forScheduledAt = Column(CodingKeys.forScheduledAt)
        public static let amount = Column(CodingKeys.amount)
        public static let forced = Column(CodingKeys.forced)
    }
}
