import GRDB

/// One item of the linked collection as remindd last wrote or read it.
public struct CollectionItemRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "collectionItem"

    /// What an item stands for.
    public enum Kind: String, Codable, Sendable, DatabaseValueConvertible {
        /// A reminder (`localId`: reminder.id).
        case reminder
        /// A log (`localId`: intake.id).
        case taken
        /// A skipped occurrence (`localId`: outcome.id).
        case skipped
        /// One occurrence of a reminder as a task of its own (`localId`: reminder.id).
        case occurrence
        /// Another client's task or event, left alone (`localId`: nil).
        case foreign
        /// Another device's item for a reminder of the same name that this device published under a smaller
        /// UID before the two were linked (`localId`: that reminder): the other device drops it for this one; logs
        /// made there meanwhile refer to it and count for this reminder.
        case alias
        /// A month of a reminder's logs and skips (`localId`: reminder.id); each record it holds has a row of its
        /// own, `archive-file#record-uid`, of kind `taken` or `skipped`.
        case archive
        /// A record an archive holds that was deleted (`localId`: nil), under `archive-file#record-uid`: the archive
        /// says so, so that another device deletes it too rather than writing it back.
        case removed
    }

    public var fileName: String
    public var uid: String
    public var kind: Kind
    public var localId: Int64?
    /// The file's etag when remindd last wrote or read it.
    public var etag: String
    public var text: String
    /// LAST-MODIFIED of the text (epoch seconds).
    public var modifiedAt: Int64

    public init(fileName: String, uid: String, kind: Kind, localId: Int64?, etag: String, text: String, modifiedAt: Int64) {
        (self.fileName, self.uid, self.kind, self.localId, self.etag, self.text, self.modifiedAt) = (fileName, uid, kind, localId, etag, text, modifiedAt)
    }
    /// The file the item is in: its `fileName`, less the `#key` of a completion or an archived record.
    public var file: String { String(fileName.prefix { $0 != "#" }) }
}

extension CollectionItemRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let fileName = Column(CodingKeys.fileName)
        public static let uid = Column(CodingKeys.uid)
        public static let kind = Column(CodingKeys.kind)
        public static let localId = Column(CodingKeys.localId)
        public static let etag = Column(CodingKeys.etag)
        public static let text = Column(CodingKeys.text)
        public static let modifiedAt = Column(CodingKeys.modifiedAt)
    }
}

extension DerivableRequest<CollectionItemRecord> {
    /// The items of linked files, not the completions kept under `name#key`.
    /// SQL: the query interface has no `instr`.
    func files() -> Self { filter(sql: "instr(fileName, '#') = 0") }

    /// The item that stands for the reminder of `uid` here: its own, or an alias of it.
    func reminder(uid: String) -> Self {
        filter(
            CollectionItemRecord.Columns.uid == uid
                && [CollectionItemRecord.Kind.reminder.rawValue, CollectionItemRecord.Kind.alias.rawValue].contains(CollectionItemRecord.Columns.kind))
    }
}
