import GRDB
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
        try refuseTextAsNumber(T.self, column, stored: row[column])
        do {
            return try row.decode(T.self, forColumn: column)
        } catch {
            throw mistyped(column, T.self)
        }
    }

    /// The same, at `index` in the row when its statement's columns were found beforehand (nil: by name).
    public func value<T: DatabaseValueConvertible & StatementColumnConvertible>(_ column: String, at index: Int?) throws -> T {
        guard let index else { return try value(column) }
        try refuseTextAsNumber(T.self, column, stored: row[index])
        do {
            return try row.decode(T.self, atIndex: index)
        } catch {
            throw mistyped(column, T.self)
        }
    }

    /// SQLite's fast path reads a text or blob where a number belongs as 0 (or its leading digits): a damaged
    /// row's `'abc'` in `scheduledAt` was 1970, a hostile Loop backup's `timestamp` of text a mark on 1 January
    /// 1970. Such a value is refused as the generic path refuses it. (Strings take any value: a number reads as
    /// its digits.)
    private func refuseTextAsNumber<T>(_ type: T.Type, _ column: String, stored: @autoclosure () -> DatabaseValue?) throws {
        guard T.self != String.self, T.self != String?.self else { return }
        switch stored()?.storage {
        case .string?, .blob?: throw mistyped(column, T.self)
        default: return
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
