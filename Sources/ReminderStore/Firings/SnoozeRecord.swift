import GRDB
import ReminderCore

/// A pending snooze (table `snooze`): an occurrence to announce again at `dueAt`, kept across a restart.
public struct SnoozeRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "snooze"

    public var id: Int64?
    public var reminderId: Int64
    /// The snoozed occurrence's instant (epoch seconds).
    public var scheduledAt: Int64
    /// When to announce it again (epoch seconds).
    public var dueAt: Int64

    public mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

    public enum Columns {
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let scheduledAt = Column(CodingKeys.scheduledAt)
        public static let dueAt = Column(CodingKeys.dueAt)
    }

    /// The snoozes of one occurrence (at most one is kept).
    static func of(reminderID: Int64, scheduledAt: Instant) -> QueryInterfaceRequest<SnoozeRecord> {
        filter(Columns.reminderId == reminderID && Columns.scheduledAt == scheduledAt.secondsSinceEpoch)
    }
}
