import GRDB

/// A restore's rows staged (``BackupRestore/stage()``), to be moved into the store in one transaction by
/// ``move()`` (a firing due meanwhile waits for it: the daemon starts it in a lull). Whatever the move ends in, the
/// staging tables are dropped.
public struct StagedRestore: Sendable {
    /// A table's columns, as the store has them, and its staging table (qualified).
    struct Table: Sendable {
        let name: String
        let columns: [String]
        let staging: String
    }

    let database: ReminderStore
    let merge: Bool
    let stagingRun: StagingRun
    let tables: [Table]
    /// What the staging skipped, by table.
    var report: RestoreReport
    /// How many rows were staged.
    public internal(set) var rows: Int

    /// With merge: a new reminder's id in the backup (negated) -> its id in the store, for the rows that refer to it.
    private var reminderIDTable: String { "temp." + stagingRun.table("reminder_ids") }

    /// Moves every staged table into the store in one transaction. - Returns: what was added and skipped, by table.
    /// - Throws: ``BackupRefused`` when it replaces the tables (no merge) and the store holds something of the
    ///   user's (anything but the `builtIn` reminders' rows), checked in the move's transaction.
    func move(refusingUserDataBut builtIn: Set<String>) throws -> RestoreReport {
        defer { drop() }
        var report = self.report
        try database.writer.write { db in
            if !merge, try BackupStore.holdsUserData(builtIn: builtIn, in: db) {
                throw BackupRefused(description: """
                    reminders or logs were added while the backup was read, and a restore without --merge would replace them: \
                    add --merge to add the backup's rows to them
                    """)
            }
            if merge {
                try db.execute(sql: "CREATE TABLE \(reminderIDTable) (old INTEGER PRIMARY KEY, new INTEGER NOT NULL)")
            }
            for table in tables {
                let (added, staged) = try apply(table, db)
                report.added[table.name] = added
                report.skipped[table.name, default: 0] += staged - added
            }
            if merge { try db.execute(sql: "DROP TABLE \(reminderIDTable)") }
            // A backup's plain logs may take missed occurrences late without saying so (an older remindd's).
            if (report.added["intake"] ?? 0) > 0 { try db.execute(sql: "UPDATE storeInstance SET lateLogsToMatch = 1") }
            // The change feed: the firings' bookkeeping (open windows, snoozes) may have changed too.
            if report.added.values.contains(where: { $0 > 0 }) { try db.execute(sql: "INSERT INTO temp.changedOther VALUES ('restored', NULL)") }
        }
        return report
    }

    /// Drops the staging tables.
    func drop() {
        do {
            try database.writer.writeWithoutTransaction { db in
                for table in tables { try db.execute(sql: "DROP TABLE IF EXISTS \(table.staging)") }
            }
        } catch {
            // Temporary tables: gone with the connection at the latest; an empty one left here is harmless.
        }
    }

    /// Moves a staging table's rows into the store. - Returns: how many were added, of how many staged.
    private func apply(_ table: Table, _ db: Database) throws -> (added: Int, staged: Int) {
        let staging = table.staging
        let target = "main.\(table.name.quotedDatabaseIdentifier)"
        let staged = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(staging)") ?? 0
        guard merge else {
            try db.execute(sql: "DELETE FROM \(target)")
            // SQL: the staging table has the store table's columns in its order.
            try db.execute(sql: "INSERT INTO \(target) SELECT * FROM \(staging)")
            return (db.changesCount, staged)
        }
        if table.name == "reminder" {
            // Each new reminder gets its id here; the rows that refer to it are mapped from it below.
            let columns = table.columns.filter { $0 != "id" }
            let rows = try Row.fetchCursor(db, sql: "SELECT id, \(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")) FROM \(staging)")
            var added = 0
            while let row = try rows.next() {
                let old: Int64 = row[0]
                try db.execute(
                    sql: "INSERT OR IGNORE INTO \(target) (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))",
                    arguments: StatementArguments(columns.indices.map { row[$0 + 1] as DatabaseValue }))
                guard db.changesCount > 0 else { continue }
                added += 1
                try db.execute(sql: "INSERT INTO \(reminderIDTable) (old, new) VALUES (?, ?)", arguments: [-old, db.lastInsertedRowID])
            }
            return (added, staged)
        }
        let columns = table.columns.filter { $0 != "id" }
        let selected = columns.map { column in
            column == "reminderId"
                ? "coalesce((SELECT new FROM \(reminderIDTable) WHERE old = s.reminderId), s.reminderId)"
                : "s.\(column.quotedDatabaseIdentifier)"
        }
        // SQL: an insert from a select with the reminder ids mapped, which the query interface does not say.
        try db.execute(sql: "INSERT OR IGNORE INTO \(target) (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) SELECT \(selected.joined(separator: ", ")) FROM \(staging) AS s")
        return (db.changesCount, staged)
    }
}
