import GRDB

/// One logged intake, as read from the store: its id and its fields (``IntakeFields``), read as `log.at` ...
/// A new log is inserted from its fields (``IntakeFields/insert(_:)``), which gives back the row.
@dynamicMemberLookup
public struct IntakeRecord: Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "intake"

    public let id: Int64
    public var fields: IntakeFields

    public init(id: Int64, fields: IntakeFields) {
        self.id = id
        self.fields = fields
    }

    /// A field read and changed in place, not copied out and back (`reminder.delivery.medication.dose` does not
    /// copy the whole delivery; start-up with 100,000 reminders: READY in 761-787 ms, against 802-983 with a
    /// getter and a setter, in one session's runs, which vary by 100 ms).
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<IntakeFields, Value>) -> Value {
        _read { yield fields[keyPath: field] }
        _modify { yield &fields[keyPath: field] }
    }

    public init(row: Row) throws {
        id = row[Columns.id]
        fields = try IntakeFields(row: row)
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        try fields.encode(to: &container)
    }
}

/// What an intake row holds besides its id.
public struct IntakeFields: Codable, Sendable, Hashable, FetchableRecord, EncodableRecord {

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

    public init(reminderId: Int64, at: Int64, timeZone: String, forScheduledAt: Int64? = nil, amount: Int64? = nil, forced: Bool? = nil) {
        (self.reminderId, self.at, self.timeZone, self.forScheduledAt, self.amount, self.forced) = (reminderId, at, timeZone, forScheduledAt, amount, forced)
    }

    /// Inserts a log with these fields. - Returns: the row.
    @discardableResult
    public func insert(_ db: Database) throws -> IntakeRecord {
        try execute(db, "INSERT", id: nil)
        return IntakeRecord(id: db.lastInsertedRowID, fields: self)
    }

    /// Inserts a log with these fields under `id` (a kept log put back keeps its id), unless a log has that id.
    /// - Returns: whether it was inserted.
    @discardableResult
    public func insertUnlessTaken(_ db: Database, id: Int64) throws -> Bool {
        try execute(db, "INSERT OR IGNORE", id: id)
        return db.changesCount > 0
    }

    private func execute(_ db: Database, _ verb: String, id: Int64?) throws {
        var values = try databaseDictionary
        if let id { values["id"] = id.databaseValue }
        let columns = values.keys.sorted()
        // SQL: one statement per set of columns, compiled once per connection.
        let sql = "\(verb) INTO intake (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))"
        try db.cachedStatement(sql: sql).execute(arguments: StatementArguments(databaseValues: columns.map { values[$0] ?? .null }))
    }
}

extension IntakeFields {
    /// Reads an `intake` row's columns one by one, each value's type checked (``RowReader``): through `Decodable`,
    /// decoding was a tenth of the daemon's time for `history --limit 100000`.
    public init(row: Row) throws {
        let reader = RowReader(row, table: "intake")
        reminderId = try reader.value("reminderId")
        at = try reader.value("at")
        timeZone = try reader.value("timeZone")
        forScheduledAt = try reader.value("forScheduledAt")
        amount = try reader.value("amount")
        forced = try reader.value("forced")
    }
}

extension IntakeRecord {
    /// The table's columns, for queries.
    public enum Columns {
        public static let id = Column("id")
        public static let reminderId = Column("reminderId")
        public static let at = Column("at")
        public static let timeZone = Column("timeZone")
        public static let forScheduledAt = Column("forScheduledAt")
        public static let amount = Column("amount")
        public static let forced = Column("forced")
    }
}
