import GRDB

/// One handled firing: announced, suppressed, caught up late, or skipped.
public struct FiringRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "firing"

    /// How a firing was handled.
    public enum Kind: String, Codable, Sendable, DatabaseValueConvertible {
        case fired, suppressed, late, skipped
        /// Not announced at its time: the user snoozed it before it came due; the snooze announces it.
        case postponed
    }

    public var id: Int64?
    public var reminderId: Int64
    public var reminderName: String
    public var slot: String
    public var scheduledAt: Int64
    public var handledAt: Int64
    public var kind: Kind
    public var lateSeconds: Int64
    public var slotsDue: Int
    public var detail: String?
    /// 0 for a slot's first record; 1, 2, ... when it was handled again after the clock went back.
    public var replanned: Int = 0
    /// How often the occurrence was repeated (its reminder's `--repeat`), so that a restart keeps the count.
    public var repeats: Int = 0
    /// When it was last announced again (a repeat or a snooze; epoch seconds), or nil when only at `handledAt`.
    public var lastAnnouncedAt: Int64?
    /// Its announcement is known to have gone out; false from its record until then (see `confirmAnnounced`).
    public var confirmed = true
    /// An announcement again (at `lastAnnouncedAt`) noted but not yet confirmed: its repeat number, 0 for a
    /// snooze; nil when none is pending (see `noteAnnouncedAgain`).
    public var againPending: Int?
    /// When its escalation ran at its `--escalate-after` delay (epoch seconds); nil: it did not.
    public var escalatedAt: Int64?
    /// The escalation was noted (before its command ran) and not yet confirmed as announced; nil: none pending.
    public var escalationPending: Bool?

    public init(
        reminderId: Int64, reminderName: String, slot: String, scheduledAt: Int64, handledAt: Int64, kind: Kind,
        lateSeconds: Int64, slotsDue: Int, detail: String?
    ) {
        self.reminderId = reminderId
        self.reminderName = reminderName
        self.slot = slot
        self.scheduledAt = scheduledAt
        self.handledAt = handledAt
        self.kind = kind
        self.lateSeconds = lateSeconds
        self.slotsDue = slotsDue
        self.detail = detail
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension FiringRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let reminderName = Column(CodingKeys.reminderName)
        public static let slot = Column(CodingKeys.slot)
        public static let scheduledAt = Column(CodingKeys.scheduledAt)
        public static let handledAt = Column(CodingKeys.handledAt)
        public static let kind = Column(CodingKeys.kind)
        public static let lateSeconds = Column(CodingKeys.lateSeconds)
        public static let slotsDue = Column(CodingKeys.slotsDue)
        public static let detail = Column(CodingKeys.detail)
        public static let replanned = Column(CodingKeys.replanned)
        public static let repeats = Column(CodingKeys.repeats)
        public static let lastAnnouncedAt = Column(CodingKeys.lastAnnouncedAt)
        public static let confirmed = Column(CodingKeys.confirmed)
        public static let againPending = Column(CodingKeys.againPending)
        public static let escalatedAt = Column(CodingKeys.escalatedAt)
        public static let escalationPending = Column(CodingKeys.escalationPending)
    }
}

extension FiringRecord {
    /// Reads a row column by column, each value's type checked (``RowReader``): through `Decodable`, decoding
    /// was a fifth of the daemon's time for `history --limit 100000` (100,000 firings).
    public init(row: Row) throws {
        let reader = RowReader(row, table: Self.databaseTableName)
        id = try reader.value("id")
        reminderId = try reader.value("reminderId")
        reminderName = try reader.value("reminderName")
        slot = try reader.value("slot")
        scheduledAt = try reader.value("scheduledAt")
        handledAt = try reader.value("handledAt")
        kind = try reader.value("kind")
        lateSeconds = try reader.value("lateSeconds")
        slotsDue = try reader.value("slotsDue")
        detail = try reader.value("detail")
        replanned = try reader.value("replanned")
        repeats = try reader.value("repeats")
        lastAnnouncedAt = try reader.value("lastAnnouncedAt")
        confirmed = try reader.value("confirmed")
        againPending = try reader.value("againPending")
        escalatedAt = try reader.value("escalatedAt")
        escalationPending = try reader.value("escalationPending")
    }
}
