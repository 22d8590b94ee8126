import GRDB

/// A restore in two phases, so that firings are recorded while it runs: the file's rows are checked,
/// de-duplicated against the store (with `merge`) and written to `TEMP` staging tables in short transactions of
/// ``chunkSize`` rows, the writer free between them (``stage()``); then one transaction moves them into the store
/// with `INSERT ... SELECT` (``StagedRestore/move()``: the long part stays in SQLite). A failure or a crash before
/// that transaction leaves the store as it was: staging tables are temporary, and dropped at the end either way.
///
/// Before, the whole restore was one transaction of a statement per row: a merge of 30,000 rows held the writer
/// for seconds, and a firing due meanwhile waited for it (6.4 s late on the debug build).
struct BackupRestore {
    static let chunkSize = 500
    /// The columns that say whether a row's announcement went out, by table: never restored (a restored row
    /// takes their defaults, confirmed and nothing pending).
    static let announcementState = ["firing": ["confirmed", "againPending", "escalationPending"], "outcome": ["confirmed"]]

    let database: ReminderStore
    let file: BackupFile
    let index: BackupFile.Index
    let merge: Bool
    /// This restore's own staging tables (another restore or import may stage at the same time).
    let stagingRun = StagingRun()

    /// One table's columns, as the store has them, with each one's default value (filled in for a column a
    /// row of an older backup does not have, so that every staged row has every column).
    private struct Table {
        let name: String
        let columns: [String]
        let defaults: [String: DatabaseValue]
        let check: BackupRowCheck
        /// The staging table, qualified.
        let staging: String
        /// What the move needs of it.
        var moved: StagedRestore.Table { .init(name: name, columns: columns, staging: staging) }
    }

    /// Makes this restore's staging tables and stages every table's rows. - Returns: the move that takes them in
    /// (``StagedRestore``); on a failure the staging tables are dropped.
    func stage() throws -> StagedRestore {
        let tables = try ReminderStore.backupTables.map(describe)
        let move = StagedRestore(
            database: database, merge: merge, stagingRun: stagingRun, tables: tables.map(\.moved), report: RestoreReport(added: [:], skipped: [:]), rows: 0)
        do {
            try database.writer.write { db in
                for table in tables {
                    // SQL: a copy of a table's columns, which the query interface does not make.
                    try db.execute(sql: "CREATE TABLE \(table.staging) AS SELECT * FROM main.\(table.name.quotedDatabaseIdentifier) WHERE 0")
                }
            }
            // With merge: a backup reminder's id -> the store's reminder of that name, or -id for a reminder the
            // store does not have (its id is known once it is inserted; the rows that refer to it wait for that).
            var reminderIDs: [Int64: Int64] = [:]
            var staged = move
            for table in tables {
                let counts = try stage(table, reminderIDs: &reminderIDs)
                staged.report.skipped[table.name] = counts.skipped
                staged.rows += counts.staged
            }
            return staged
        } catch {
            move.drop()
            throw error
        }
    }

    private func describe(_ name: String) throws -> Table {
        try database.writer.read { db in
            let info = try db.columns(in: name)
            var defaults: [String: DatabaseValue] = [:]
            for column in info {
                // SQL: the schema's default, an expression that only SQLite evaluates.
                defaults[column.name] = try column.defaultValueSQL.map { try DatabaseValue.fetchOne(db, sql: "SELECT \($0)") ?? .null } ?? .null
            }
            return Table(
                name: name, columns: info.map(\.name), defaults: defaults, check: try BackupRowCheck(table: name, db),
                staging: "temp." + stagingRun.table(name).quotedDatabaseIdentifier)
        }
    }

    /// Reads the table's rows from the file, checks each, and writes those to add to the staging table in
    /// chunks. - Returns: how many were skipped (a reminder whose name the store has, a duplicate row), and
    /// how many staged.
    private func stage(_ table: Table, reminderIDs: inout [Int64: Int64]) throws -> (skipped: Int, staged: Int) {
        guard let offset = index.tables[table.name] else { return (0, 0) }
        var (skipped, staged) = (0, 0)
        var chunk: [[DatabaseValue]] = []
        var present = PresentRows(table: table.name)
        let columns = Set(table.columns)
        let insert = "INSERT INTO \(table.staging) (\(table.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: table.columns.count).joined(separator: ", ")))"
        func flush() throws {
            guard !chunk.isEmpty else { return }
            try database.writer.write { db in
                let statement = try db.cachedStatement(sql: insert)
                for values in chunk { try statement.execute(arguments: StatementArguments(values)) }
            }
            staged += chunk.count
            chunk = []
        }
        do {
            try file.rows(at: offset) { row, place in
                if let unknown = row.keys.sorted().first(where: { !columns.contains($0) }) {
                    throw BackupRefused(description: "the backup's table '\(table.name)' has a column '\(unknown)' this remindd does not know: update remindd")
                }
                try table.check.check(row, index: place)
                var row = row
                // A restored row was announced long ago, to a journal that knows it under another store's id.
                for column in Self.announcementState[table.name] ?? [] { row[column] = nil }
                if merge {
                    guard try mergeable(&row, table: table, reminderIDs: &reminderIDs, present: &present) else {
                        skipped += 1
                        return
                    }
                }
                chunk.append(table.columns.map { row[$0]?.databaseValue ?? table.defaults[$0] ?? .null })
                if chunk.count == Self.chunkSize { try flush() }
            }
            try flush()
        } catch let damaged as BackupFile.Damaged {
            throw BackupRefused(description: "not a remindd backup, or is damaged (\(damaged))")
        }
        return (skipped, staged)
    }

    /// With merge: maps the row's reminder, and says whether it is new to the store (not a reminder of a name
    /// the store has, nor a row equal to one there or staged already).
    private func mergeable(_ row: inout [String: StoreValue], table: Table, reminderIDs: inout [Int64: Int64], present: inout PresentRows) throws -> Bool {
        if table.name == "reminder", case .integer(let old)? = row["id"], case .text(let name)? = row["name"] {
            let existing = try database.writer.read { db in
                try Int64.fetchOne(db, sql: "SELECT id FROM reminder WHERE name = ? COLLATE NOCASE", arguments: [name])
            }
            reminderIDs[old] = existing ?? -old
            if existing != nil { return false }
            return try present.insert(["name": .text(name.lowercased())], database)
        }
        if case .integer(let old)? = row["reminderId"], let mapped = reminderIDs[old] { row["reminderId"] = .integer(mapped) }
        return try present.insert(row.filter { $0.key != "id" }, database)
    }
}
