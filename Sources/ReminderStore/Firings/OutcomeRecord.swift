import GRDB

/// What became of one occurrence, recorded when it was decided: missed (its window closed with nothing
/// logged) or skipped (the user said so). Taken and suppressed are not recorded: they follow from the logs.
public struct OutcomeRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "outcome"

    /// The recorded states.
    public enum State: String, Codable, Sendable, DatabaseValueConvertible {
        case missed, skipped
    }

    public var id: Int64?
    public var reminderId: Int64
    public var reminderName: String
    public var slot: String
    /// The occurrence's instant (epoch seconds).
    public var scheduledAt: Int64
    public var state: State
    /// When it was decided (epoch seconds).
    public var decidedAt: Int64
    /// The user's reason for a skip.
    public var reason: String?
    /// Its announcement is known to have gone out: false for a missed note from its record until then (a
    /// skip, which the user asked for, is not announced on its own).
    public var confirmed = true

    public init(reminderId: Int64, reminderName: String, slot: String, scheduledAt: Int64, state: State, decidedAt: Int64, reason: String?) {
        self.reminderId = reminderId
        self.reminderName = reminderName
        self.slot = slot
        self.scheduledAt = scheduledAt
        self.state = state
        self.decidedAt = decidedAt
        self.reason = reason
    }
}

extension OutcomeRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let reminderName = Column(CodingKeys.reminderName)
        public static let slot = Column(CodingKeys.slot)
        public static let scheduledAt = Column(CodingKeys.scheduledAt)
        public static let state = Column(CodingKeys.state)
        public static let decidedAt = Column(CodingKeys.decidedAt)
        public static let reason = Column(CodingKeys.reason)
        public static let confirmed = Column(CodingKeys.confirmed)
    }
}
