import GRDB

/// A count or a refill of a medication's stock: a pack, with the last day it may be used.
public struct StockChangeRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "stockChange"

    /// What the change says of the stock.
    public enum Kind: String, Codable, Sendable, DatabaseValueConvertible {
        /// Counted: `amount` is left.
        case set
        /// Refilled: `amount` more.
        case added
    }

    public var id: Int64?
    public var reminderId: Int64
    /// Epoch seconds.
    public var at: Int64
    public var kind: Kind
    /// Thousandths of the dose's unit.
    public var amount: Int64
    /// A count: how many of the reminder's logs with an amount in its own second (`at`) were made before it;
    /// the count includes them, so they are not taken from it again.
    public var seenLogs: Int64 = 0
    /// The pack's last day (YYYY-MM-DD in the reminder's zone); nil: it does not expire.
    public var expires: String? = nil
    /// When its expiry was said (epoch seconds; said once).
    public var expirySaidAt: Int64? = nil

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// When a reminder's low-stock notice was last given (given again only once the stock grew: a refill, or a
/// count of more than was left then).
public struct StockNoticeRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "stockNotice"

    public var reminderId: Int64
    /// Epoch seconds.
    public var at: Int64
    /// What was left then (thousandths); -1 with `lastChangeId` -1: no notice was given (the row keeps only
    /// `shortReportedAt`), so any count or refill lets it be given.
    public var left: Int64
    /// The last `stockChange` id then.
    public var lastChangeId: Int64
    /// When the last dose logged with too little left was taken that was said (epoch seconds).
    public var shortReportedAt: Int64? = nil
}

extension StockChangeRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let id = Column(CodingKeys.id)
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let at = Column(CodingKeys.at)
        public static let kind = Column(CodingKeys.kind)
        public static let amount = Column(CodingKeys.amount)
        public static let seenLogs = Column(CodingKeys.seenLogs)
        public static let expires = Column(CodingKeys.expires)
        public static let expirySaidAt = Column(CodingKeys.expirySaidAt)
    }
}

extension StockNoticeRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let reminderId = Column(CodingKeys.reminderId)
        public static let at = Column(CodingKeys.at)
        public static let left = Column(CodingKeys.left)
        public static let lastChangeId = Column(CodingKeys.lastChangeId)
        public static let shortReportedAt = Column(CodingKeys.shortReportedAt)
    }
}
