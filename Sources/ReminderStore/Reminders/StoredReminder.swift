import Foundation
import GRDB
import ReminderCore

/// A reminder row: its id and its fields (``ReminderFields``), read as `reminder.name`, `reminder.rule` ...
///
/// A row read from the store always has its id: a new reminder is inserted from its fields
/// (``ReminderFields/insert(_:id:)``), which gives back the row. Rows are read and written by hand (not through
/// Codable): reading 100,000 of them is the daemon's start-up.
@dynamicMemberLookup
public struct StoredReminder: Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "reminder"

    public let id: Int64
    public var fields: ReminderFields

    public init(id: Int64, fields: ReminderFields) {
        self.id = id
        self.fields = fields
    }

    /// A field read and changed in place, not copied out and back (`reminder.delivery.medication.dose` does not
    /// copy the whole delivery; start-up with 100,000 reminders: READY in 761-787 ms, against 802-983 with a
    /// getter and a setter, in one session's runs, which vary by 100 ms).
    @inlinable
    public subscript<Value>(dynamicMember field: WritableKeyPath<ReminderFields, Value>) -> Value {
        _read { yield fields[keyPath: field] }
        _modify { yield &fields[keyPath: field] }
    }

    /// Reads a row, checking every value as `Add` would have (see ``ReminderFields/init(reader:at:)``).
    public init(row: Row) throws {
        try self.init(row: row, at: nil)
    }

    /// The same, with the columns where `indexes` found them in the row's statement (nil: found by name).
    init(row: Row, at indexes: ColumnIndexes?) throws {
        let reader = RowReader(row, table: Self.databaseTableName)
        id = try reader.value("id", at: indexes?.id) as Int64
        fields = try ReminderFields(reader: reader, at: indexes)
    }

    /// Where each column is in the rows of one statement, found once for all its rows: GRDB finds a column by
    /// name at each read, lower-casing the name (7% of a start with 100,000 reminders).
    struct ColumnIndexes {
        let id, name, rule, timeZone, enabled, createdAt, handledThrough, windowSeconds, delivery, origin: Int?

        init(_ statement: Statement) {
            func index(_ column: Column) -> Int? { statement.index(ofColumn: column.name) }
            (id, name, rule, timeZone, enabled) = (index(Columns.id), index(Columns.name), index(Columns.rule), index(Columns.timeZone), index(Columns.enabled))
            (createdAt, handledThrough, windowSeconds) = (index(Columns.createdAt), index(Columns.handledThrough), index(Columns.windowSeconds))
            (delivery, origin) = (index(Columns.delivery), index(Columns.origin))
        }
    }

    /// The table's columns, for queries (the record reads and writes its rows itself: no CodingKeys).
    public enum Columns {
        public static let id = Column("id")
        public static let name = Column("name")
        public static let rule = Column("rule")
        public static let timeZone = Column("timeZone")
        public static let enabled = Column("enabled")
        public static let createdAt = Column("createdAt")
        public static let handledThrough = Column("handledThrough")
        public static let windowSeconds = Column("windowSeconds")
        public static let delivery = Column("delivery")
        public static let origin = Column("origin")
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container[Columns.id] = id
        try fields.encode(to: &container)
    }
}

/// What a reminder row holds besides its id: the user's rule as written (`RuleSpec`), its zone, and how far
/// its firings are handled.
public struct ReminderFields: Sendable, Hashable {
    public var name: String
    public var rule: RuleSpec
    /// An IANA zone name, or nil to follow the system zone.
    public var timeZone: String?
    public var enabled: Bool
    public var createdAt: Int64
    /// Firings at or before this instant (epoch seconds) have been handled.
    public var handledThrough: Int64
    /// How long after an occurrence a log still takes it; nil: until the next occurrence (at most the day's end).
    public var windowSeconds: Int64?
    /// Repeats, command, urgency (stored as JSON; null: the default).
    public var delivery: Delivery
    /// The calendar item a calendar's alarm comes from (the file's absolute path); nil for the user's own.
    public var origin: String?

    public init(
        name: String, rule: RuleSpec, timeZone: String?, enabled: Bool, createdAt: Int64, handledThrough: Int64,
        windowSeconds: Int64? = nil, delivery: Delivery = Delivery(), origin: String? = nil
    ) {
        self.name = name
        self.rule = rule
        self.timeZone = timeZone
        self.enabled = enabled
        self.createdAt = createdAt
        self.handledThrough = handledThrough
        self.windowSeconds = windowSeconds
        self.delivery = delivery
        self.origin = origin
    }

    /// Reads a row's fields, checking every value as `Add` would have (types, instants, window, delivery): a
    /// row written by hand, by an older bug or restored from a damaged backup throws ``UnusableRow``, never traps.
    /// (`indexes`: where the row's statement has each column, or nil to find each by name.)
    init(reader: RowReader, at indexes: StoredReminder.ColumnIndexes?) throws {
        name = try reader.value("name", at: indexes?.name)
        // SQLite hands a blob over as text: a name `add` could not have made is refused here (a NUL or a
        // newline would break the journal's fields and every table).
        guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw reader.unusable("name", "is empty or holds control characters")
        }
        let ruleText: String = try reader.value("rule", at: indexes?.rule)
        do { rule = try RuleSpecColumn.decode(ruleText) } catch { throw reader.unusable("rule", "\(error)") }
        timeZone = try reader.value("timeZone", at: indexes?.timeZone)
        let enabled: Int64 = try reader.value("enabled", at: indexes?.enabled)
        guard enabled == 0 || enabled == 1 else { throw reader.unusable("enabled", "\(enabled) is neither 0 nor 1") }
        self.enabled = enabled == 1
        createdAt = try reader.instant("createdAt", at: indexes?.createdAt)
        handledThrough = try reader.instant("handledThrough", at: indexes?.handledThrough)
        windowSeconds = try reader.value("windowSeconds", at: indexes?.windowSeconds)
        if let windowSeconds, !WindowLength.range.contains(windowSeconds) {
            throw reader.unusable("windowSeconds", "\(windowSeconds) is not \(WindowLength.forms)")
        }
        let delivery: String? = try reader.value("delivery", at: indexes?.delivery)
        do {
            self.delivery = try delivery.map(DeliveryColumn.decode) ?? .default
        } catch {
            throw reader.unusable("delivery", "not the JSON of a delivery")
        }
        if let problem = self.delivery.problem { throw reader.unusable("delivery", problem) }
        origin = try reader.value("origin", at: indexes?.origin)
    }

    typealias Columns = StoredReminder.Columns

    /// The columns (all but `id`), in the order of ``columnValues()``.
    static let columnNames = [
        Columns.name, Columns.rule, Columns.timeZone, Columns.enabled, Columns.createdAt, Columns.handledThrough, Columns.windowSeconds,
        Columns.delivery, Columns.origin,
    ].map(\.name)

    /// The fields' values, as stored: the values themselves, which GRDB's arguments take in one pass (a list of
    /// database values made first, then boxed for GRDB, took twice as long: 3.4 against 1.8 µs a row).
    func columnValues() throws -> [(any DatabaseValueConvertible)?] {
        [name, RuleSpecColumn.encode(rule), timeZone, enabled, createdAt, handledThrough, windowSeconds, try DeliveryColumn.encode(delivery), origin]
    }

    func encode(to container: inout PersistenceContainer) throws {
        for (column, value) in zip(Self.columnNames, try columnValues()) { container[column] = value }
    }

    /// Inserts a row with these fields, under `id` when given (a reminder that comes back keeps its id), else
    /// the next; with one statement compiled once per connection: what a calendar of 20,000 items read at start
    /// does (GRDB's record insertion, which builds its statement for each row, took a fifth of that scan).
    /// - Returns: the row.
    public func insert(_ db: Database, id: Int64? = nil) throws -> StoredReminder {
        try db.cachedStatement(sql: Self.insertion).execute(arguments: StatementArguments([id] + (try columnValues())))
        return StoredReminder(id: db.lastInsertedRowID, fields: self)
    }

    /// The statement ``insert(_:id:)`` runs, written once (joining its names at each row was 3% of storing them).
    private static let insertion: String = {
        let names = [Columns.id.name] + columnNames
        return "INSERT INTO reminder (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }()
}
