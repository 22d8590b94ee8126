import GRDB

/// Rows of one table, in rowid order: one page of a backup.
public struct BackupPage: Sendable, Equatable {
    public var table: String
    public var rows: [[String: StoreValue]]
}

/// A store's tables read out page by page from one snapshot, so that an export holds a page in memory, not the
/// store. Every table comes at least once (an empty page for an empty table), its pages one after another.
///
/// On a file, the snapshot is a read transaction on a connection of its own (SQLite's C API: a GRDB snapshot's
/// dispatch queue made the idle daemon wake every second after an export). In WAL mode the writer does not wait
/// for it: firings go on being recorded meanwhile, and are not in this export. An in-memory store (tests) is
/// read through its GRDB queue.
public struct BackupPages {
    fileprivate enum Source {
        case snapshot(SQLiteConnection)
        case queue(any DatabaseReader, path: String)
    }

    /// The store's last schema migration as this snapshot has it (the backup's `schema`).
    public let schema: String
    private let source: Source
    private let pageSize: Int
    private var table = 0
    /// The last rowid read of the current table; nil before its first page.
    private var lastRowID: Int64?

    fileprivate init(source: Source, schema: String, pageSize: Int) {
        (self.source, self.schema, self.pageSize) = (source, schema, pageSize)
    }

    /// The next page, or nil after the last table's last page (the snapshot then ends).
    public mutating func next() throws(StoreError) -> BackupPage? {
        let tables = ReminderStore.backupTables
        while table < tables.count {
            let name = tables[table]
            // SQL: a table known only at run time, paged by rowid, which the query interface does not say for any table.
            let (columns, read) = try Self.rows(
                from: source, "SELECT rowid, * FROM \(name.quotedDatabaseIdentifier) WHERE rowid > ? ORDER BY rowid LIMIT ?",
                [lastRowID ?? .min, Int64(pageSize)])
            let first = lastRowID == nil
            if read.count == pageSize, case .integer(let last)? = read.last?.first {
                lastRowID = last
            } else {
                table += 1
                lastRowID = nil
            }
            // A table whose rows end exactly at a page's end gets no empty page after it.
            if read.isEmpty && !first { continue }
            return BackupPage(table: name, rows: read.map { values in
                Dictionary(uniqueKeysWithValues: zip(columns.dropFirst(), values.dropFirst()))
            })
        }
        if case .snapshot(let connection) = source { try connection.execute("COMMIT") }
        return nil
    }

    fileprivate static func rows(from source: Source, _ sql: String, _ arguments: [Int64]) throws(StoreError) -> (columns: [String], rows: [[StoreValue]]) {
        switch source {
        case .snapshot(let connection):
            return try connection.rows(sql, arguments)
        case .queue(let reader, let path):
            do {
                return try reader.read { db in
                    let rows = try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments))
                    return (rows.first.map { Array($0.columnNames) } ?? [], rows.map { row in row.databaseValues.map(StoreValue.init) })
                }
            } catch {
                throw StoreError.unavailable(path: path, detail: "\(error)")
            }
        }
    }
}

extension BackupStore {
    /// The store's tables, page by page, as they are now (later writes are not in it).
    public func pages(pageSize: Int = 1_000) throws(StoreError) -> BackupPages {
        let source: BackupPages.Source
        if database.writer is DatabasePool {
            let connection = try SQLiteConnection(path: database.path, create: false, reportedPath: database.path)
            try connection.execute("BEGIN")
            source = .snapshot(connection)
        } else {
            source = .queue(database.writer, path: database.path)
        }
        // The first read begins the snapshot: the header's schema is the rows'.
        let schema = try BackupPages.rows(from: source, "SELECT identifier FROM grdb_migrations ORDER BY rowid", [])
        let last: String = if case .text(let name)? = schema.rows.last?.first { name } else { "" }
        return BackupPages(source: source, schema: last, pageSize: pageSize)
    }
}
