import Foundation
import GRDBSQLite

/// One SQLite connection through the C API, closed with the value: for the checks made before GRDB opens the
/// file, and for an export's snapshot. (Not a GRDB connection: freeing one hands its dispatch queue to
/// libdispatch's thread pool, whose monitor then woke the idle daemon every second after an export.)
final class SQLiteConnection {
    private var connection: OpaquePointer?
    /// The store's path, for error messages (the file opened may be a temporary one).
    let reportedPath: String

    /// Opens `path` read-only, or read-write and created when `create`.
    init(path: String, create: Bool, reportedPath: String) throws(StoreError) {
        self.reportedPath = reportedPath
        let flags = create ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY
        guard sqlite3_open_v2(path, &connection, flags, nil) == SQLITE_OK else {
            // The handle SQLite returns even then is closed by deinit (it runs once every property is set).
            throw .unavailable(path: reportedPath, detail: String(cString: sqlite3_errmsg(connection)))
        }
    }

    deinit { sqlite3_close_v2(connection) }

    /// Runs one statement and returns its first column, row by row.
    func strings(_ sql: String) throws(StoreError) -> [String] {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try check(sqlite3_prepare_v2(connection, sql, -1, &statement, nil), expected: SQLITE_OK)
        var rows: [String] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return rows }
            try check(step, expected: SQLITE_ROW)
            rows.append(sqlite3_column_text(statement, 0).map { String(cString: $0) } ?? "")
        }
    }

    /// Runs statements that return no rows (`BEGIN`, `COMMIT`).
    func execute(_ sql: String) throws(StoreError) {
        try check(sqlite3_exec(connection, sql, nil, nil, nil), expected: SQLITE_OK)
    }

    /// Runs one query with integer arguments and returns its column names and its rows' values.
    func rows(_ sql: String, _ arguments: [Int64]) throws(StoreError) -> (columns: [String], rows: [[StoreValue]]) {
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        try check(sqlite3_prepare_v2(connection, sql, -1, &statement, nil), expected: SQLITE_OK)
        for (index, argument) in arguments.enumerated() {
            try check(sqlite3_bind_int64(statement, Int32(index + 1), argument), expected: SQLITE_OK)
        }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [[StoreValue]] = []
        while true {
            let step = sqlite3_step(statement)
            if step == SQLITE_DONE { return (columns, rows) }
            try check(step, expected: SQLITE_ROW)
            rows.append((0..<count).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT:
                    // By its length, not up to a NUL (text may hold one).
                    .text(sqlite3_column_text(statement, column).map {
                        String(decoding: UnsafeBufferPointer(start: $0, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
                    } ?? "")
                case SQLITE_BLOB:
                    .blob(sqlite3_column_blob(statement, column).map { Data(bytes: $0, count: Int(sqlite3_column_bytes(statement, column))) } ?? Data())
                default: .null
                }
            })
        }
    }

    private func check(_ code: Int32, expected: Int32) throws(StoreError) {
        if code == expected { return }
        let message = String(cString: sqlite3_errmsg(connection))
        if code == SQLITE_NOTADB || code == SQLITE_CORRUPT { throw .corrupt(path: reportedPath, detail: message) }
        throw .unavailable(path: reportedPath, detail: message)
    }
}
