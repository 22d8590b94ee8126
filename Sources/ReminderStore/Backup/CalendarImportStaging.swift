import GRDB

/// A calendar import's new reminders written as a merge restore writes its rows (``BackupRestore``): staged into
/// `TEMP` tables in short transactions of ``chunkSize`` rows, the writer free between them, then moved into the
/// store by `INSERT ... SELECT` inside the import's one transaction (all or nothing: a crash or a name taken
/// before it leaves the store as it was). A file of 106,504 events written row by row in one transaction held the
/// writer for seconds, and doses due meanwhile were recorded (and announced) that much later.
struct CalendarImportStaging: Sendable {
    static let chunkSize = 2_000

    let database: ReminderStore
    /// The reminder table's columns the staged rows give (all but `id`).
    let columns: [String]
    /// This import's own staging tables (another import may stage at the same time).
    let run = StagingRun()
    private var reminders: String { "temp." + run.table("reminder") }
    private var imports: String { "temp." + run.table("event") }

    /// A new reminder: its place in the file's plan, its encoded columns, and the event and alarm it came from.
    struct Row {
        var position: Int
        var values: [DatabaseValue]
        var uid: String?
        var key: String?
    }

    /// Makes the staging tables (empty) and writes the rows into them in chunks.
    func stage(_ rows: [Row]) throws(StoreError) {
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        try database.write { db in
            // SQL: a copy of the reminder table's columns (no constraint), which the query interface does not make.
            try db.execute(sql: "CREATE TABLE \(reminders) AS SELECT 0 AS position, \(list) FROM main.reminder WHERE 0")
            try db.execute(sql: "CREATE TABLE \(imports) (position INTEGER NOT NULL, uid TEXT NOT NULL, key TEXT NOT NULL)")
        }
        let insertReminder = "INSERT INTO \(reminders) (position, \(list)) VALUES (?\(String(repeating: ", ?", count: columns.count)))"
        for start in stride(from: 0, to: rows.count, by: Self.chunkSize) {
            try database.write { db in
                let reminder = try db.cachedStatement(sql: insertReminder)
                let event = try db.cachedStatement(sql: "INSERT INTO \(imports) (position, uid, key) VALUES (?, ?, ?)")
                for row in rows[start..<min(start + Self.chunkSize, rows.count)] {
                    try reminder.execute(arguments: StatementArguments(databaseValues: [row.position.databaseValue] + row.values))
                    if let uid = row.uid, let key = row.key { try event.execute(arguments: [row.position, uid, key]) }
                }
            }
        }
        // Two staged rows of one name: checked here, not in the move's transaction (it only reads the staged rows,
        // which nothing changes; 104 ms of the move's 850 for 106,504 rows, in which a dose's record waits).
        let shared = try database.write { db in
            // SQL: a grouping over the staging table, which the query interface does not say.
            try String.fetchOne(db, sql: "SELECT name FROM \(reminders) GROUP BY name COLLATE NOCASE HAVING count(*) > 1 LIMIT 1")
        }
        if let shared { throw .nameTaken(shared) }
    }

    /// Moves the staged rows into the store, inside the caller's transaction: a name that another reminder has
    /// refuses them all (one that two staged rows share refused them at ``stage(_:)``). Ids follow the store's last
    /// one (never one a removed reminder had: its history keeps it). - Returns: the id base (a row's id is the base
    /// plus its position).
    func move(file: String, in db: Database) throws -> Int64 {
        // SQL: joins and set inserts over the staging tables, which the query interface does not say.
        if let taken = try String.fetchOne(db, sql: """
            SELECT s.name FROM \(reminders) s JOIN main.reminder r ON r.name = s.name COLLATE NOCASE LIMIT 1
            """) {
            throw StoreError.nameTaken(taken)
        }
        let base = try Int64.fetchOne(db, sql: """
            SELECT max(coalesce((SELECT max(id) FROM main.reminder), 0), coalesce((SELECT seq FROM main.sqlite_sequence WHERE name = 'reminder'), 0))
            """) ?? 0
        let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        try db.execute(sql: "INSERT INTO main.reminder (id, \(list)) SELECT ? + 1 + position, \(list) FROM \(reminders) ORDER BY position", arguments: [base])
        try db.execute(
            sql: "INSERT INTO main.calendarImport (reminderId, uid, key, file) SELECT ? + 1 + position, uid, key, ? FROM \(imports) ORDER BY position",
            arguments: [base, file])
        return base + 1
    }

    /// Drops the staging tables (temporary: gone with the connection at the latest).
    func drop() {
        do {
            try database.writer.writeWithoutTransaction { db in
                try db.execute(sql: "DROP TABLE IF EXISTS \(reminders)")
                try db.execute(sql: "DROP TABLE IF EXISTS \(imports)")
            }
        } catch {
            // Temporary tables: an empty one left here is harmless.
        }
    }
}
