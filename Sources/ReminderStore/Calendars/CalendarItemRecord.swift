import GRDB

/// A read-only calendar's item as its alarms were last planned: its path and the etag of what they were planned
/// from (an item whose etag is unchanged is not read again, also after a restart).
public struct CalendarItemRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "calendarItem"

    /// The item file's absolute path.
    public var path: String
    public var etag: String

    public init(path: String, etag: String) {
        (self.path, self.etag) = (path, etag)
    }
}

extension CalendarItemRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let path = Column(CodingKeys.path)
        public static let etag = Column(CodingKeys.etag)
    }
}
