import Foundation
import GRDB
import ReminderCore

/// A reminder row: the user's rule as written (`RuleSpec`), its zone, and how far its firings are handled.
///
/// Rows are read and written by hand (not through Codable): reading 100,000 of them is the daemon's
/// start-up.
public struct StoredReminder: Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "reminder"

    public var id: Int64?
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

    public init(
        id: Int64?, name: String, rule: RuleSpec, timeZone: String?, enabled: Bool, createdAt: Int64, handledThrough: Int64,
        windowSeconds: Int64? = nil, delivery: Delivery = Delivery()
    ) {
        self.id = id
        self.name = name
        self.rule = rule
        self.timeZone = timeZone
        self.enabled = enabled
        self.createdAt = createdAt
        self.handledThrough = handledThrough
        self.windowSeconds = windowSeconds
        self.delivery = delivery
    }

    /// Reads a row, checking every value as `Add` would have (types, instants, window, delivery): a row written
    /// by hand, by an older bug or restored from a damaged backup throws ``UnusableRow``, never traps.
    public init(row: Row) throws {
        let reader = RowReader(row, table: Self.databaseTableName)
        id = try reader.value("id") as Int64
        name = try reader.value("name")
        let ruleText: String = try reader.value("rule")
        do { rule = try RuleSpecColumn.decode(ruleText) } catch { throw reader.unusable("rule", "\(error)") }
        timeZone = try reader.value("timeZone")
        let enabled: Int64 = try reader.value("enabled")
        guard enabled == 0 || enabled == 1 else { throw reader.unusable("enabled", "\(enabled) is neither 0 nor 1") }
        self.enabled = enabled == 1
        createdAt = try reader.instant("createdAt")
        handledThrough = try reader.instant("handledThrough")
        windowSeconds = try reader.value("windowSeconds")
        if let windowSeconds, !WindowLength.range.contains(windowSeconds) {
            throw reader.unusable("windowSeconds", "\(windowSeconds) is not \(WindowLength.forms)")
        }
        let delivery: String? = try reader.value("delivery")
        do {
            self.delivery = try delivery.map { try JSONDecoder().decode(Delivery.self, from: Data($0.utf8)) } ?? Delivery()
        } catch {
            throw reader.unusable("delivery", "not the JSON of a delivery")
        }
        if let problem = self.delivery.problem { throw reader.unusable("delivery", problem) }
    }

    public func encode(to container: inout PersistenceContainer) throws {
        container["id"] = id
        container["name"] = name
        container["rule"] = RuleSpecColumn.encode(rule)
        container["timeZone"] = timeZone
        container["enabled"] = enabled
        container["createdAt"] = createdAt
        container["handledThrough"] = handledThrough
        container["windowSeconds"] = windowSeconds
        container["delivery"] = delivery.isDefault ? nil : String(decoding: try JSONEncoder().encode(delivery), as: UTF8.self)
    }

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

/// One logged intake.
public struct IntakeRecord: Codable, Sendable, Hashable, FetchableRecord, MutablePersistableRecord {
    public static let databaseTableName = "intake"

    public var id: Int64?
    public var reminderId: Int64
    /// Epoch seconds.
    public var at: Int64
    /// The zone in effect when the intake happened.
    public var timeZone: String

    public mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

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

/// What became of one occurrence, recorded when it was decided: missed (its window closed with nothing
/// logged) or skipped (the user said so). Taken and suppressed are not recorded: they follow from the logs.
public struct OutcomeRecord: Codable, Sendable, Hashable, FetchableRecord, PersistableRecord {
    public static let databaseTableName = "outcome"

    /// The recorded states.
    public enum State: String, Codable, Sendable, DatabaseValueConvertible {
        case missed, skipped
    }

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

/// A stored row that remindd cannot use: a value of the wrong type, out of range, or unreadable.
public struct UnusableRow: Error, Hashable, Sendable, CustomStringConvertible {
    public var table: String
    /// The row's id (or rowid), when it could be read.
    public var id: Int64?
    public var column: String
    public var detail: String

    public var description: String {
        "table \(table), row \(id.map(String.init) ?? "?"), column \(column): \(detail)"
    }
}

/// Reads one row's columns with their types and ranges checked: a wrong value is an ``UnusableRow`` that names
/// the table, the row and the column (GRDB's subscripts would trap).
struct RowReader {
    let row: Row
    let table: String

    init(_ row: Row, table: String) {
        self.row = row
        self.table = table
    }

    /// The value of `column` as `T` (an optional `T` takes NULL).
    func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
        do {
            return try row.decode(T.self, forColumn: column)
        } catch {
            let stored: DatabaseValue = row[column] ?? .null
            throw unusable(column, "\(stored) is not \(T.self == Bool.self ? "a flag" : "of type \(T.self)")")
        }
    }

    /// An instant (epoch seconds) within ``Instant/storable``.
    func instant(_ column: String) throws -> Int64 {
        let seconds: Int64 = try value(column)
        guard Instant.storable.contains(Instant(secondsSinceEpoch: seconds)) else {
            throw unusable(column, "\(seconds) is not an instant between the years 1900 and 9999")
        }
        return seconds
    }

    /// The error for a bad value of `column`.
    func unusable(_ column: String, _ detail: String) -> UnusableRow {
        let id: Int64? = (row["id"] as DatabaseValue?).flatMap { Int64.fromDatabaseValue($0) }
        return UnusableRow(table: table, id: id, column: column, detail: detail)
    }
}

/// Why the store refused an operation; each case has a one-line message that says what to do.
public enum StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    case corrupt(path: String, detail: String)
    case newerSchema(path: String)
    /// A SQLite database, but not remindd's.
    case foreign(path: String)
    /// The file was deleted or replaced while the store was open.
    case replaced(path: String)
    /// Another process (a second remindd) has the store open.
    case locked(path: String, pid: Int32?)
    case unavailable(path: String, detail: String)
    case nameTaken(String)
    case notFound(String)
    /// The row asked for holds a value remindd cannot use (written by hand or by an older bug).
    case unusable(UnusableRow)

    public var description: String {
        switch self {
        case .corrupt(let path, let detail):
            return "the database \(path) is damaged (\(detail)); remindd will not touch it: move it aside and restart to begin a new one, or restore a backup"
        case .newerSchema(let path):
            return "the database \(path) was written by a newer remindd; remindd will not touch it: run that newer version, or move the file aside"
        case .foreign(let path):
            return "\(path) is not a remindd database (another program's, or empty of remindd's tables); remindd will not touch it: move it aside and restart to begin a new one"
        case .replaced(let path):
            return "the database \(path) was deleted or replaced while remindd was running, so nothing more is written (it would be lost): restart remindd (systemctl --user restart remindd) to open the file now there"
        case .locked(let path, let pid):
            let holder = pid.map { "remindd (pid \($0))" } ?? "remindd"
            return "another \(holder) is already running on \(path): use that one (remindctl talks to it), or stop it first (systemctl --user stop remindd)"
        case .unavailable(let path, let detail):
            return "the database \(path) cannot be used: \(detail)"
        case .nameTaken(let name):
            return "a reminder named '\(name)' already exists: choose another name or change that one with 'remindctl update'"
        case .notFound(let key):
            return "no reminder '\(key)': see 'remindctl list' for names and ids"
        case .unusable(let row):
            return "a stored row cannot be used (\(row)): remindd leaves it out; restore a backup, or remove the row by hand (sqlite3) while remindd is stopped"
        }
    }
}
