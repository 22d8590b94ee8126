import GRDB
import GRDBSQLite
import ReminderCore

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
/// the table, the row and the column (GRDB's subscripts would trap). For remindd's rows and foreign files alike.
public struct RowReader {
    let row: Row
    let table: String

    public init(_ row: Row, table: String) {
        self.row = row
        self.table = table
    }

    /// The value of `column` as `T` (an optional `T` takes NULL).
    public func value<T: DatabaseValueConvertible>(_ column: String) throws -> T {
        do {
            return try row.decode(T.self, forColumn: column)
        } catch {
            throw mistyped(column, T.self)
        }
    }

    /// The same for the types SQLite hands over directly (integers, strings, and their optionals): GRDB's faster
    /// path, which 100,000 reminders read at start-up take (the generic one made start-up 2.5 times slower).
    public func value<T: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String) throws -> T {
        do {
            return try row.decode(StrictColumn<T>.self, forColumn: column).value
        } catch {
            throw mistyped(column, T.self)
        }
    }

    /// The same, at `index` in the row when its statement's columns were found beforehand (nil: by name).
    public func value<T: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String, at index: Int?) throws -> T {
        guard let index else { return try value(column) }
        do {
            return try row.decode(StrictColumn<T>.self, atIndex: index).value
        } catch {
            throw mistyped(column, T.self)
        }
    }

    private func mistyped(_ column: String, _ type: Any.Type) -> UnusableRow {
        let stored: DatabaseValue = row[column] ?? .null
        return unusable(column, "\(stored) is not \(type == Bool.self ? "a flag" : "of type \(type)")")
    }

    /// An instant (epoch seconds) within ``Instant/storable``.
    /// (`index`: as for ``value(_:at:)``.)
    public func instant(_ column: String, at index: Int? = nil) throws -> Int64 {
        let seconds: Int64 = try value(column, at: index)
        guard Instant.storable.contains(Instant(secondsSinceEpoch: seconds)) else {
            throw unusable(column, "\(seconds) is not an instant between the years 1900 and 9999")
        }
        return seconds
    }

    /// The error for a bad value of `column`.
    public func unusable(_ column: String, _ detail: String) -> UnusableRow {
        let id: Int64? = (row["id"] as DatabaseValue?).flatMap { Int64.fromDatabaseValue($0) } ?? (row["rowid"] as DatabaseValue?).flatMap { Int64.fromDatabaseValue($0) }
        return UnusableRow(table: table, id: id, column: column, detail: detail)
    }
}

/// A column read on SQLite's fast path, refused when SQLite holds text or a blob where a number belongs: the
/// fast path reads those as 0 or their leading digits (a damaged row's `'tomorrow'` in `scheduledAt` was a
/// firing of 1970, a hostile Loop backup's text `timestamp` a mark on 1 January 1970). A string column takes
/// any value, a number as its digits. (Checking each value's type through `DatabaseValue` instead took a start
/// with 100,000 reminders 15 % more CPU; this takes no more than the noise: docs/performance.md.)
struct StrictColumn<Value: DatabaseValueConvertible & StatementColumnConvertible>: DatabaseValueConvertible, StatementColumnConvertible {
    let value: Value

    init(_ value: Value) { self.value = value }

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Value(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.value = value
    }

    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        let type = sqlite3_column_type(sqliteStatement, index)
        if type == SQLITE_TEXT || type == SQLITE_BLOB, Value.self != String.self, Value.self != String?.self { return nil }
        return Value.fromStatement(sqliteStatement, atUncheckedIndex: index).map(Self.init)
    }

    var databaseValue: DatabaseValue { value.databaseValue }

    /// An optional's column may be missing (a backup of an older remindd): nil, as GRDB reads it.
    static func fromMissingColumn() -> Self? { Value.fromMissingColumn().map(Self.init) }

    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .string, .blob: guard Value.self == String.self || Value.self == String?.self else { return nil }
        default: break
        }
        return Value.fromDatabaseValue(dbValue).map(Self.init)
    }
}
