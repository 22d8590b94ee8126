import Foundation
import GRDB
import GRDBSQLite
import ReminderCore
import Synchronization

/// The daemon's durable state in one SQLite file (WAL mode, `synchronous=FULL`): reminders, logged intake,
/// and every handled firing. A write that returned has reached the file; `kill -9` loses nothing acknowledged.
///
/// Opening refuses, without writing, a file that is empty, not a database, another program's database, fails
/// SQLite's integrity check, was written by a newer remindd, or lacks a table or column of the schema. While
/// open, every write first checks that the path still names the file that was opened: a store deleted or
/// replaced under the daemon refuses writes (they would be acknowledged and lost) until a restart.
public final class ReminderStore: Sendable {
    let database: any DatabaseWriter

    /// The file the store lives in (`:memory:` for tests that need no file).
    public let path: String
    /// The device and inode opened at `path` (nil in memory).
    private let identity: FileIdentity?
    /// The single-writer lock on `path + ".lock"`, held while open (nil in memory).
    private let lock: InstanceLock?
    /// Reminder rows the readers left out since ``takeUnusableRows()`` was last called, by id.
    private let unusableRows = Mutex<[Int64: UnusableRow]>([:])

    /// `PRAGMA application_id` of a remindd store: "rmdd".
    static let applicationID: Int32 = 0x726D_6464

    /// Opens (creating it and its directory if needed) the store at `path` and migrates it to the current schema.
    public init(path: String) throws(StoreError) {
        self.path = path
        do {
            let directory = (path as NSString).deletingLastPathComponent
            if !directory.isEmpty {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            }
            var configuration = Configuration()
            configuration.foreignKeysEnabled = true
            configuration.busyMode = .timeout(5)
            // Never close a reader (``releaseMemory()`` would): freeing a GRDB connection hands its dispatch
            // queue to libdispatch's thread pool, whose monitor then wakes the idle daemon every second.
            configuration.persistentReadOnlyConnections = true
            configuration.prepareDatabase { db in
                try db.execute(sql: "PRAGMA synchronous = FULL")
            }
            lock = try InstanceLock(path: path + ".lock", storePath: path)
            if FileManager.default.fileExists(atPath: path) {
                try Self.checkBeforeOpening(path)
            } else if Self.isDanglingLink(path) {
                // Replacing it would start an empty store in place of the one the link meant (an unmounted disk).
                throw StoreError.corrupt(path: path, detail: "it is a symbolic link to a file that does not exist")
            } else {
                try Self.createMarked(path)
            }
            identity = FileIdentity(path: path)
            database = try DatabasePool(path: path, configuration: configuration)
            try Self.migrate(database)
            try Self.recordHistoryChanges(database)
            try Self.checkSchema(SQLiteConnection(path: path, create: false, reportedPath: path))
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError where [.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            throw .corrupt(path: path, detail: error.message ?? "\(error.resultCode)")
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
    }

    /// Hands back the memory SQLite keeps for reading (every connection's page cache). Called after start-up,
    /// whose parallel load filled a page cache per reader.
    public func releaseMemory() {
        (database as? DatabasePool)?.releaseMemory()
    }

    /// Opens the store on a database the caller made (an in-memory `DatabaseQueue` in tests) and migrates it.
    /// - Parameter path: what ``path`` reports.
    public init(database: any DatabaseWriter, path: String = ":memory:") throws(StoreError) {
        self.path = path
        self.database = database
        identity = nil
        lock = nil
        do {
            try Self.migrate(database)
            try Self.recordHistoryChanges(database)
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
    }

    /// Moves a database from `legacyPath` to `path` once, when `path` has none: the user service of systemd
    /// 253 and older kept it in `~/.config/remindd` (`StateDirectory=` there meant `$XDG_CONFIG_HOME`). The WAL
    /// is folded into the file first, so one atomic rename moves everything; nothing is copied or deleted.
    /// - Returns: whether a database was moved.
    public static func adoptLegacy(from legacyPath: String, to path: String) throws(StoreError) -> Bool {
        guard legacyPath != path, !FileManager.default.fileExists(atPath: path), FileManager.default.fileExists(atPath: legacyPath) else {
            return false
        }
        let legacyLock = try InstanceLock(path: legacyPath + ".lock", storePath: legacyPath)
        defer {
            unlink(legacyPath + ".lock")
            legacyLock.release()
        }
        do {
            let connection = try SQLiteConnection(path: legacyPath, create: true, reportedPath: legacyPath)
            _ = try connection.strings("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        guard rename(legacyPath, path) == 0 else {
            throw .unavailable(path: legacyPath, detail: "cannot move it to \(path): \(String(cString: strerror(errno))); move it there by hand with remindd stopped")
        }
        for suffix in ["-wal", "-shm"] { unlink(legacyPath + suffix) }
        return true
    }

    /// Migrates to the current schema and marks the file as a remindd store of that schema
    /// (`application_id`, and `user_version` = the number of migrations); a store already there is not written.
    private static func migrate(_ database: any DatabaseWriter) throws {
        try migrator.migrate(database)
        try database.writeWithoutTransaction { db in
            let mark = (try Int32.fetchOne(db, sql: "PRAGMA application_id"), try Int.fetchOne(db, sql: "PRAGMA user_version"))
            guard mark != (applicationID, migrator.migrations.count) else { return }
            try db.execute(sql: "PRAGMA application_id = \(applicationID); PRAGMA user_version = \(migrator.migrations.count)")
        }
    }

    /// Whether `path` is a symbolic link whose target does not exist.
    static func isDanglingLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFLNK
    }

    /// Creates a new store's file, marked as remindd's, under a temporary name and renames it into place: a
    /// file at `path` is always remindd's, so an empty or foreign one there is damage, never a start cut short.
    static func createMarked(_ path: String) throws(StoreError) {
        let temporary = path + ".new"
        unlink(temporary)
        do {
            let connection = try SQLiteConnection(path: temporary, create: true, reportedPath: path)
            _ = try connection.strings("PRAGMA application_id = \(applicationID)")
            _ = try connection.strings("PRAGMA journal_mode = WAL")
        }
        guard rename(temporary, path) == 0 else { throw .unavailable(path: path, detail: String(cString: strerror(errno))) }
    }

    /// Checks an existing file before anything can write to it, on a read-only connection: it must not be
    /// empty, must be a database, pass `PRAGMA quick_check`, be remindd's (its `application_id`, or the
    /// migration table of a store from before the mark), hold no migration or schema version this remindd
    /// does not know, and, when it has every migration, every table and column of the schema.
    static func checkBeforeOpening(_ path: String) throws(StoreError) {
        var info = stat()
        if stat(path, &info) == 0, info.st_size == 0 {
            throw .corrupt(path: path, detail: "the file is empty")
        }
        let connection = try SQLiteConnection(path: path, create: false, reportedPath: path)
        let check = try connection.strings("PRAGMA quick_check")
        guard check == ["ok"] else { throw .corrupt(path: path, detail: check.prefix(3).joined(separator: "; ")) }
        let applicationID = Int32(try connection.strings("PRAGMA application_id").first ?? "") ?? 0
        let hasMigrations = try !connection.strings("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'").isEmpty
        guard applicationID == Self.applicationID || (applicationID == 0 && hasMigrations) else {
            throw .foreign(path: path)
        }
        if Int(try connection.strings("PRAGMA user_version").first ?? "") ?? 0 > migrator.migrations.count {
            throw .newerSchema(path: path)
        }
        guard hasMigrations else { return }
        let applied = Set(try connection.strings("SELECT identifier FROM grdb_migrations"))
        if !applied.isSubset(of: migrator.migrations) { throw .newerSchema(path: path) }
        if applied.count == migrator.migrations.count { try checkSchema(connection) }
    }

    /// Every table of the current schema and its columns. `theSchemaListMatchesTheMigrations` (a test) keeps it
    /// equal to what the migrations create.
    static let expectedSchema: [String: Set<String>] = [
        "reminder": ["id", "name", "rule", "timeZone", "enabled", "createdAt", "handledThrough", "windowSeconds", "delivery"],
        "intake": ["id", "reminderId", "at", "timeZone"],
        "firing": ["id", "reminderId", "reminderName", "slot", "scheduledAt", "handledAt", "kind", "lateSeconds", "slotsDue", "detail", "replanned", "repeats", "lastAnnouncedAt", "confirmed"],
        "restDay": ["date", "reason", "lightActivities"],
        "recovery": ["id", "usedAt", "firstDay", "lastDay"],
        "habitNotice": ["key", "announcedAt"],
        "workout": ["id", "exercise", "minutes", "intensity", "met", "kcal", "at", "timeZone"],
        "food": ["id", "name", "kcal", "at", "timeZone"],
        "profile": ["key", "value"],
        "snooze": ["id", "reminderId", "scheduledAt", "dueAt"],
        "outcome": ["id", "reminderId", "reminderName", "slot", "scheduledAt", "state", "decidedAt", "reason"],
        "storeInstance": ["id"],
    ]

    /// Refuses a store whose migrations are all recorded but a table or column of theirs is missing (dropped by
    /// hand, or a damaged copy).
    static func checkSchema(_ connection: SQLiteConnection) throws(StoreError) {
        for (table, columns) in expectedSchema.sorted(by: { $0.key < $1.key }) {
            let present = Set(try connection.strings("SELECT name FROM pragma_table_info('\(table)')"))
            if present.isEmpty { throw .corrupt(path: connection.reportedPath, detail: "table \(table) is missing") }
            if let column = columns.subtracting(present).sorted().first {
                throw .corrupt(path: connection.reportedPath, detail: "column \(table).\(column) is missing")
            }
        }
    }

    /// The schema, one migration per version; never edit a shipped migration, add a new one.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "reminder") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique().collate(.nocase)
                t.column("rule", .text).notNull()  // RuleSpec as JSON: the user's own words, re-validated on load
                t.column("timeZone", .text)  // null: follows the system zone
                t.column("enabled", .boolean).notNull().defaults(to: true)
                t.column("createdAt", .integer).notNull()
                t.column("handledThrough", .integer).notNull()  // firings at or before this instant are handled
            }
            try db.create(table: "intake") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("reminder", onDelete: .cascade).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
            }
            try db.create(index: "intake_by_reminder_time", on: "intake", columns: ["reminderId", "at"])
            try db.create(table: "firing") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("reminderId", .integer).notNull()  // kept after the reminder is removed: history
                t.column("reminderName", .text).notNull()
                t.column("slot", .text).notNull()
                t.column("scheduledAt", .integer).notNull()
                t.column("handledAt", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("lateSeconds", .integer).notNull()
                t.column("slotsDue", .integer).notNull()
                t.column("detail", .text)
                t.uniqueKey(["reminderId", "slot", "scheduledAt"])
            }
            try db.create(index: "firing_by_time", on: "firing", columns: ["handledAt"])
        }
        migrator.registerMigration("v2-habits") { db in
            try db.create(table: "restDay") { t in
                t.primaryKey("date", .text)  // YYYY-MM-DD
                t.column("reason", .text).notNull()
                t.column("lightActivities", .text).notNull().defaults(to: "")  // one per line
            }
            try db.create(table: "recovery") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("usedAt", .integer).notNull()
                t.column("firstDay", .integer).notNull()  // day numbers of the restored missed days
                t.column("lastDay", .integer).notNull()
            }
            try db.create(table: "habitNotice") { t in
                t.primaryKey("key", .text)  // what was announced in the journal, once: "achievement:first_rest_day"
                t.column("announcedAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v3-fitness") { db in
            try db.create(table: "workout") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("exercise", .text).notNull()  // library id
                t.column("minutes", .integer).notNull()
                t.column("intensity", .text).notNull()
                t.column("met", .double).notNull()
                t.column("kcal", .integer).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
            }
            try db.create(table: "food") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("kcal", .integer).notNull()
                t.column("at", .integer).notNull()
                t.column("timeZone", .text).notNull()
            }
            try db.create(table: "profile") { t in
                t.primaryKey("key", .text)
                t.column("value", .text).notNull()
            }
        }
        migrator.registerMigration("v4-snoozes") { db in
            try db.create(table: "snooze") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("reminder", onDelete: .cascade).notNull()
                t.column("scheduledAt", .integer).notNull()  // the firing being repeated
                t.column("dueAt", .integer).notNull()
            }
        }
        migrator.registerMigration("v5-replanned-firings") { db in
            // A slot may be handled again after the clock went back (see `recordFiring`): the unique key gains
            // `replanned`, 0 for a slot's first record and 1, 2, ... for each later one. SQLite cannot change a
            // table's unique key, so the table is rebuilt. (Its columns repeat v1's on purpose: a shipped migration
            // is frozen, so the two never share code that could change under one of them.)
            try db.create(table: "firing_v5") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("reminderId", .integer).notNull()  // kept after the reminder is removed: history
                t.column("reminderName", .text).notNull()
                t.column("slot", .text).notNull()
                t.column("scheduledAt", .integer).notNull()
                t.column("handledAt", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("lateSeconds", .integer).notNull()
                t.column("slotsDue", .integer).notNull()
                t.column("detail", .text)
                t.column("replanned", .integer).notNull().defaults(to: 0)
                t.uniqueKey(["reminderId", "slot", "scheduledAt", "replanned"])
            }
            try db.execute(sql: """
                INSERT INTO firing_v5 (id, reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue, detail)
                SELECT id, reminderId, reminderName, slot, scheduledAt, handledAt, kind, lateSeconds, slotsDue, detail FROM firing;
                DROP TABLE firing;
                ALTER TABLE firing_v5 RENAME TO firing;
                """)
            try db.create(index: "firing_by_time", on: "firing", columns: ["handledAt"])
        }
        migrator.registerMigration("v6-occurrence-outcomes") { db in
            // A reminder's own window (nil: until its next occurrence); what became of an occurrence once its
            // window closed with nothing logged (missed), or when the user skipped it.
            try db.alter(table: "reminder") { t in t.add(column: "windowSeconds", .integer) }
            try db.create(table: "outcome") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("reminderId", .integer).notNull()  // kept after the reminder is removed: history
                t.column("reminderName", .text).notNull()
                t.column("slot", .text).notNull()
                t.column("scheduledAt", .integer).notNull()
                t.column("state", .text).notNull()
                t.column("decidedAt", .integer).notNull()
                t.column("reason", .text)
                t.uniqueKey(["reminderId", "scheduledAt", "state"])
            }
            try db.create(index: "outcome_by_time", on: "outcome", columns: ["decidedAt"])
        }
        migrator.registerMigration("v7-delivery") { db in
            // Repeats until acknowledged, a command per reminder, critical urgency: JSON, null for the default.
            try db.alter(table: "reminder") { t in t.add(column: "delivery", .text) }
            try db.create(index: "intake_by_time", on: "intake", columns: ["at"])
        }
        migrator.registerMigration("v8-repeats-and-skips") { db in
            // Repeats and the last re-announcement survive a restart; skips per reminder for per-goal streaks.
            try db.alter(table: "firing") { t in
                t.add(column: "repeats", .integer).notNull().defaults(to: 0)
                t.add(column: "lastAnnouncedAt", .integer)
            }
            try db.create(index: "outcome_by_reminder", on: "outcome", columns: ["reminderId", "scheduledAt"])
        }
        migrator.registerMigration("v9-announcement-ledger") { db in
            // A firing is recorded unconfirmed, announced, then confirmed: one left unconfirmed by a crash is
            // looked up in the journal at the next start (by its store instance and id) and announced if absent.
            try db.alter(table: "firing") { t in t.add(column: "confirmed", .boolean).notNull().defaults(to: true) }
            // A partial index: the few unconfirmed rows, found at once.
            try db.create(index: "firing_unconfirmed", on: "firing", columns: ["id"], condition: Column("confirmed") == false)
            // Which store this is, for the journal: ids of a new or restored store repeat another's.
            try db.create(table: "storeInstance") { t in t.column("id", .text).notNull() }
            // SQL: the query interface has no randomblob.
            try db.execute(sql: "INSERT INTO storeInstance (id) VALUES (lower(hex(randomblob(16))))")
        }
        return migrator
    }

    // MARK: Reminders

    /// Adds a reminder; nothing is written when the name is taken.
    public func addReminder(
        name: String, rule: RuleSpec, timeZone: String?, enabled: Bool = true, windowSeconds: Int64? = nil, delivery: Delivery = Delivery(),
        now: Instant
    ) throws(StoreError) -> StoredReminder {
        try write { db in
            if try StoredReminder.filter(Column("name").collating(.nocase) == name).fetchCount(db) > 0 {
                throw StoreError.nameTaken(name)
            }
            var reminder = StoredReminder(
                id: nil, name: name, rule: rule, timeZone: timeZone, enabled: enabled,
                createdAt: now.secondsSinceEpoch, handledThrough: now.secondsSinceEpoch, windowSeconds: windowSeconds,
                delivery: delivery)
            try reminder.insert(db)
            return reminder
        }
    }

    /// Replaces a reminder's fields; `handledThrough` moves to `now` when the rule changes, so the new rule
    /// does not catch up on slots that belonged to the old one.
    public func updateReminder(_ reminder: StoredReminder, now: Instant) throws(StoreError) -> StoredReminder {
        try write { db in
            guard let id = reminder.id, let old = try StoredReminder.fetchOne(db, key: id) else { throw StoreError.notFound("\(reminder.id ?? 0)") }
            if old.name.lowercased() != reminder.name.lowercased(),
                try StoredReminder.filter(Column("name").collating(.nocase) == reminder.name).fetchCount(db) > 0
            {
                throw StoreError.nameTaken(reminder.name)
            }
            var updated = reminder
            if old.rule != reminder.rule || old.timeZone != reminder.timeZone || (!old.enabled && reminder.enabled) {
                updated.handledThrough = max(old.handledThrough, now.secondsSinceEpoch)
            }
            try updated.update(db)
            return updated
        }
    }

    /// Removes a reminder and its intake log; its firing history stays.
    public func removeReminder(id: Int64) throws(StoreError) {
        try write { db in
            guard try StoredReminder.deleteOne(db, key: id) else { throw StoreError.notFound(String(id)) }
        }
    }

    /// Every reminder, by id; or those whose ids fall in a range (concurrent readers can load a large store in parts).
    /// A row remindd cannot use is left out (see ``takeUnusableRows()``).
    public func reminders(ids: ClosedRange<Int64>? = nil) throws(StoreError) -> [StoredReminder] {
        try read { db in
            var request = StoredReminder.order(Column("id"))
            if let ids { request = request.filter(ids.contains(Column("id"))) }
            return try usable(request, db)
        }
    }

    /// At most `limit` reminders with an id above `after`, by id: one page of a long list (unusable rows left out).
    public func reminders(after: Int64, limit: Int) throws(StoreError) -> [StoredReminder] {
        try read { db in try usable(StoredReminder.filter(Column("id") > after).order(Column("id")).limit(limit), db) }
    }

    /// The reminders a request finds, without the rows remindd cannot use (they are kept for
    /// ``takeUnusableRows()``): one bad row must not keep the others from firing, or the daemon from starting.
    private func usable(_ request: QueryInterfaceRequest<StoredReminder>, _ db: Database) throws -> [StoredReminder] {
        let rows = try Row.fetchCursor(db, request)
        var reminders: [StoredReminder] = []
        while let row = try rows.next() {
            do {
                reminders.append(try StoredReminder(row: row))
            } catch let error as UnusableRow {
                unusableRows.withLock { $0[error.id ?? 0] = error }
            }
        }
        return reminders
    }

    /// The reminder rows left out since the last call (each is reported once; a later read finds it again).
    public func takeUnusableRows() -> [UnusableRow] {
        unusableRows.withLock { found in
            defer { found = [:] }
            return found.keys.sorted().compactMap { found[$0] }
        }
    }

    /// The intake logged for each of some reminders between two instants, oldest first: one query for a page.
    public func intakes(reminderIDs: [Int64], from: Instant, through: Instant) throws(StoreError) -> [Int64: [Instant]] {
        guard !reminderIDs.isEmpty else { return [:] }
        return try read { db in
            var result: [Int64: [Instant]] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderId, at FROM intake WHERE reminderId IN \(Self.idList(reminderIDs)) AND at BETWEEN ? AND ? ORDER BY reminderId, at",
                arguments: [from.secondsSinceEpoch, through.secondsSinceEpoch])
            while let row = try rows.next() { result[row[0], default: []].append(Instant(secondsSinceEpoch: row[1])) }
            return result
        }
    }

    /// Reminder ids as an SQL list, `(1,2,3)`: with `IN`, SQLite seeks the `(reminderId, time)` index once per
    /// id and ranges over the time in each; `BETWEEN` on the ids would read every row of every id in between.
    /// (Integers only, so nothing can be injected.)
    static func idList(_ ids: [Int64]) -> String {
        "(" + ids.map(String.init).joined(separator: ",") + ")"
    }

    /// How many reminders there are, and how many of them are enabled (counted, not read; a hand-written
    /// `enabled` that is neither 0 nor 1 counts as not enabled, as the readers leave that row out).
    public func reminderCounts() throws(StoreError) -> (total: Int, enabled: Int) {
        try read { db in
            (try StoredReminder.fetchCount(db), try StoredReminder.filter(Column("enabled") == 1).fetchCount(db))
        }
    }

    /// The smallest and largest reminder id, or nil when there is no reminder.
    public func reminderIDBounds() throws(StoreError) -> ClosedRange<Int64>? {
        try read { db in
            let row = try Row.fetchOne(db, sql: "SELECT min(id), max(id) FROM reminder")
            guard let low: Int64 = row?[0], let high: Int64 = row?[1] else { return nil }
            return low...high
        }
    }

    /// A reminder by id, or by name (case-insensitive).
    public func reminder(_ key: String) throws(StoreError) -> StoredReminder {
        let found: StoredReminder? = try read { db in
            if let id = Int64(key), let byID = try StoredReminder.fetchOne(db, key: id) { return byID }
            return try StoredReminder.filter(Column("name").collating(.nocase) == key).fetchOne(db)
        }
        guard let found else { throw StoreError.notFound(key) }
        return found
    }

    // MARK: Intake

    /// Records an intake of a reminder's goal at an instant, with the zone in effect then.
    public func logIntake(reminderID: Int64, at instant: Instant, timeZone: String) throws(StoreError) -> IntakeRecord {
        try write { db in
            var record = IntakeRecord(id: nil, reminderId: reminderID, at: instant.secondsSinceEpoch, timeZone: timeZone)
            try record.insert(db)
            return record
        }
    }

    /// Intake instants of a reminder within a range (inclusive).
    public func intakes(reminderID: Int64, from: Instant, through: Instant) throws(StoreError) -> [Instant] {
        try read { db in
            try Int64.fetchAll(
                db, sql: "SELECT at FROM intake WHERE reminderId = ? AND at BETWEEN ? AND ? ORDER BY at",
                arguments: [reminderID, from.secondsSinceEpoch, through.secondsSinceEpoch]
            ).map(Instant.init(secondsSinceEpoch:))
        }
    }

    /// The intake logged between two instants (inclusive), oldest first, optionally of one reminder.
    public func intakeRecords(from: Instant, through: Instant, reminderID: Int64? = nil) throws(StoreError) -> [IntakeRecord] {
        try read { db in
            var request = IntakeRecord.filter(Column("at") >= from.secondsSinceEpoch && Column("at") <= through.secondsSinceEpoch)
            if let reminderID { request = request.filter(Column("reminderId") == reminderID) }
            return try request.order(Column("at"), Column("id")).fetchAll(db)
        }
    }

    /// One logged intake, or nil when there is none with that id.
    public func intakeRecord(id: Int64) throws(StoreError) -> IntakeRecord? {
        try read { db in try IntakeRecord.fetchOne(db, key: id) }
    }

    /// Deletes one logged intake. - Returns: what was deleted, or nil when there is no log with that id.
    public func deleteIntake(id: Int64) throws(StoreError) -> IntakeRecord? {
        try write { db in
            guard let record = try IntakeRecord.fetchOne(db, key: id) else { return nil }
            try IntakeRecord.deleteOne(db, key: id)
            return record
        }
    }

    // MARK: Habits

    /// Every intake log with the zone in effect when it happened (the habit system's activities).
    public func allIntakes() throws(StoreError) -> [(at: Instant, timeZone: String)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT at, timeZone FROM intake ORDER BY at").map { (Instant(secondsSinceEpoch: $0[0]), $0[1]) }
        }
    }

    /// Marks (or re-marks) rest days; all or nothing.
    public func markRestDays(_ days: [(date: String, reason: String, lightActivities: [String])]) throws(StoreError) {
        try write { db in
            for day in days {
                try db.execute(
                    sql: "INSERT OR REPLACE INTO restDay (date, reason, lightActivities) VALUES (?, ?, ?)",
                    arguments: [day.date, day.reason, day.lightActivities.joined(separator: "\n")])
            }
        }
    }

    /// Removes a rest day; false when the date was not marked.
    public func unmarkRestDay(_ date: String) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "DELETE FROM restDay WHERE date = ?", arguments: [date])
            return db.changesCount > 0
        }
    }

    /// Every rest day: date (YYYY-MM-DD), reason, light activities.
    public func restDays() throws(StoreError) -> [(date: String, reason: String, lightActivities: [String])] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT date, reason, lightActivities FROM restDay ORDER BY date").map { row in
                let activities: String = row[2]
                return (row[0], row[1], activities.isEmpty ? [] : activities.split(separator: "\n").map(String.init))
            }
        }
    }

    /// The one-time manual recovery, if it was used: the restored day numbers.
    public func recovery() throws(StoreError) -> (days: ClosedRange<Int>, usedAt: Instant)? {
        try read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT firstDay, lastDay, usedAt FROM recovery ORDER BY id LIMIT 1") else { return nil }
            let first: Int = row[0]
            let last: Int = row[1]
            return (first...last, Instant(secondsSinceEpoch: row[2]))
        }
    }

    /// Records the manual recovery; refuses a second one (it can be used once, ever).
    public func recordRecovery(days: ClosedRange<Int>, at instant: Instant) throws(StoreError) -> Bool {
        try write { db in
            guard try Int.fetchOne(db, sql: "SELECT count(*) FROM recovery") == 0 else { return false }
            try db.execute(
                sql: "INSERT INTO recovery (usedAt, firstDay, lastDay) VALUES (?, ?, ?)",
                arguments: [instant.secondsSinceEpoch, days.lowerBound, days.upperBound])
            return true
        }
    }

    /// Records that a notice was announced; false when it had been already (so it is announced once).
    public func recordNotice(_ key: String, at instant: Instant) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO habitNotice (key, announcedAt) VALUES (?, ?)", arguments: [key, instant.secondsSinceEpoch])
            return db.changesCount > 0
        }
    }

    // MARK: Fitness

    /// A logged workout or food entry, as stored.
    public struct LogEntry: Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var kcal: Int
        public var at: Instant
        public var timeZone: String
        /// Workouts only.
        public var minutes: Int?
        public var intensity: String?
        public var met: Double?
    }

    public func addWorkout(exercise: String, minutes: Int, intensity: String, met: Double, kcal: Int, at: Instant, timeZone: String) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(
                sql: "INSERT INTO workout (exercise, minutes, intensity, met, kcal, at, timeZone) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [exercise, minutes, intensity, met, kcal, at.secondsSinceEpoch, timeZone])
            return db.lastInsertedRowID
        }
    }

    public func updateWorkout(id: Int64, minutes: Int, intensity: String, met: Double, kcal: Int) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "UPDATE workout SET minutes = ?, intensity = ?, met = ?, kcal = ? WHERE id = ?",
                arguments: [minutes, intensity, met, kcal, id])
            guard db.changesCount > 0 else { throw StoreError.notFound("workout \(id)") }
        }
    }

    /// Deletes a workout or food entry.
    /// - Returns: the entry, or nil when there is none with that id.
    public func deleteEntry(table: EntryTable, id: Int64) throws(StoreError) -> LogEntry? {
        try write { db in
            try Row.fetchOne(db, sql: "DELETE FROM \(table.rawValue) WHERE id = ? RETURNING \(table.columns)", arguments: [id])
                .map { table.entry($0) }
        }
    }

    /// The tables of workouts and food, read as ``LogEntry``.
    public enum EntryTable: String, Sendable {
        case workout, food

        fileprivate var columns: String {
            self == .workout ? "id, exercise, kcal, at, timeZone, minutes, intensity, met" : "id, name, kcal, at, timeZone"
        }

        fileprivate func entry(_ row: Row) -> LogEntry {
            LogEntry(
                id: row[0], name: row[1], kcal: row[2], at: Instant(secondsSinceEpoch: row[3]), timeZone: row[4],
                minutes: self == .workout ? row[5] : nil, intensity: self == .workout ? row[6] : nil, met: self == .workout ? row[7] : nil)
        }
    }

    public func addFood(name: String, kcal: Int, at: Instant, timeZone: String) throws(StoreError) -> Int64 {
        try write { db in
            try db.execute(sql: "INSERT INTO food (name, kcal, at, timeZone) VALUES (?, ?, ?, ?)", arguments: [name, kcal, at.secondsSinceEpoch, timeZone])
            return db.lastInsertedRowID
        }
    }

    /// One workout or food entry, or nil when there is none with that id.
    public func entry(_ table: EntryTable, id: Int64) throws(StoreError) -> LogEntry? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT \(table.columns) FROM \(table.rawValue) WHERE id = ?", arguments: [id]).map { table.entry($0) }
        }
    }

    /// Workouts, or food entries, in a time range (inclusive), oldest first.
    public func entries(_ table: EntryTable, from: Instant, through: Instant) throws(StoreError) -> [LogEntry] {
        try read { db in
            let sql = "SELECT \(table.columns) FROM \(table.rawValue) WHERE at BETWEEN ? AND ? ORDER BY at, id"
            return try Row.fetchAll(db, sql: sql, arguments: [from.secondsSinceEpoch, through.secondsSinceEpoch]).map { table.entry($0) }
        }
    }

    /// Deletes workouts and food entries before an instant (the config's retention).
    public func pruneEntries(before instant: Instant) throws(StoreError) {
        try write { db in
            try db.execute(sql: "DELETE FROM workout WHERE at < ?", arguments: [instant.secondsSinceEpoch])
            try db.execute(sql: "DELETE FROM food WHERE at < ?", arguments: [instant.secondsSinceEpoch])
        }
    }

    public func setProfile(_ key: String, _ value: String) throws(StoreError) {
        try write { db in try db.execute(sql: "INSERT OR REPLACE INTO profile (key, value) VALUES (?, ?)", arguments: [key, value]) }
    }

    public func removeProfile(_ key: String) throws(StoreError) {
        try write { db in try db.execute(sql: "DELETE FROM profile WHERE key = ?", arguments: [key]) }
    }

    public func profile(_ key: String) throws(StoreError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT value FROM profile WHERE key = ?", arguments: [key]) }
    }

    // MARK: Snoozes

    /// Records a snoozed repeat of an occurrence, so that it survives a restart; it replaces an earlier snooze
    /// of the same occurrence.
    public func setSnooze(reminderID: Int64, scheduledAt: Instant, dueAt: Instant) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM snooze WHERE reminderId = ? AND scheduledAt = ?", arguments: [reminderID, scheduledAt.secondsSinceEpoch])
            try db.execute(
                sql: "INSERT INTO snooze (reminderId, scheduledAt, dueAt) VALUES (?, ?, ?)",
                arguments: [reminderID, scheduledAt.secondsSinceEpoch, dueAt.secondsSinceEpoch])
        }
    }

    /// Every pending snooze: reminder, the repeated firing's instant, and when to repeat it.
    public func snoozes() throws(StoreError) -> [(reminderID: Int64, scheduledAt: Instant, dueAt: Instant)] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT reminderId, scheduledAt, dueAt FROM snooze ORDER BY dueAt").map {
                ($0[0], Instant(secondsSinceEpoch: $0[1]), Instant(secondsSinceEpoch: $0[2]))
            }
        }
    }

    /// Forgets the snooze of an occurrence (announced, or cancelled by a log or a skip).
    public func removeSnooze(reminderID: Int64, scheduledAt: Instant) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "DELETE FROM snooze WHERE reminderId = ? AND scheduledAt = ?", arguments: [reminderID, scheduledAt.secondsSinceEpoch])
        }
    }

    // MARK: Firings

    /// What ``recordFiring(_:handledThrough:)`` did.
    public enum FiringRecorded: Sendable, Hashable {
        /// Recorded (unconfirmed: see ``confirmAnnounced(_:)``) as row `id`; `replanned` when the slot had been
        /// handled once already, before the clock went back.
        case recorded(id: Int64, replanned: Bool)
        /// Not recorded: the reminder's `handledThrough` already covers the slot (the caller must not announce it).
        case alreadyHandled
    }

    /// Durably records a handled firing and advances the reminder's `handledThrough`, in one transaction.
    ///
    /// A slot at or before the reminder's `handledThrough` is never recorded again: that is what makes every
    /// slot fire once across retries and restarts. Only ``rewindHandled(to:)`` (the clock went back) lowers
    /// `handledThrough`; a slot handled again after it is recorded a second time, marked `replanned`.
    public func recordFiring(_ record: FiringRecord, handledThrough: Instant) throws(StoreError) -> FiringRecorded {
        try recordFirings([(record, handledThrough)])[0]
    }

    /// Records several handled firings in order, in one transaction (one write to the disk for a burst of
    /// firings due together); each as ``recordFiring(_:handledThrough:)`` does. All or none are recorded.
    public func recordFirings(_ batch: [(record: FiringRecord, handledThrough: Instant)]) throws(StoreError) -> [FiringRecorded] {
        try write { db in
            let handledThrough = try db.cachedStatement(sql: "SELECT handledThrough FROM reminder WHERE id = ?")
            let advance = try db.cachedStatement(sql: "UPDATE reminder SET handledThrough = max(handledThrough, ?) WHERE id = ?")
            let earlier = try db.cachedStatement(sql: "SELECT count(*) FROM firing WHERE reminderId = ? AND slot = ? AND scheduledAt = ?")
            return try batch.map { record, through in
                let handled = try Int64.fetchOne(handledThrough, arguments: [record.reminderId])
                if let handled, handled >= record.scheduledAt { return .alreadyHandled }
                try advance.execute(arguments: [through.secondsSinceEpoch, record.reminderId])
                var copy = record
                copy.replanned = try Int.fetchOne(earlier, arguments: [record.reminderId, record.slot, record.scheduledAt]) ?? 0
                copy.confirmed = false
                try copy.insert(db)
                return .recorded(id: copy.id ?? db.lastInsertedRowID, replanned: copy.replanned > 0)
            }
        }
    }

    /// Lowers every `handledThrough` that is after `now` to `now`: the clock went back, and the slots that are
    /// in the future again are to be handled again.
    /// - Returns: how many reminders were re-planned.
    public func rewindHandled(to now: Instant) throws(StoreError) -> Int {
        try write { db in
            try db.execute(
                sql: "UPDATE reminder SET handledThrough = ? WHERE handledThrough > ?", arguments: [now.secondsSinceEpoch, now.secondsSinceEpoch])
            return db.changesCount
        }
    }

    // MARK: Outcomes

    /// Records what became of an occurrence (missed, skipped), once: a second record of the same occurrence
    /// and state changes nothing.
    /// - Returns: whether it was recorded now (false: it already was).
    public func recordOutcome(_ outcome: OutcomeRecord) throws(StoreError) -> Bool {
        try write { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO outcome (reminderId, reminderName, slot, scheduledAt, state, decidedAt, reason)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    outcome.reminderId, outcome.reminderName, outcome.slot, outcome.scheduledAt, outcome.state.rawValue, outcome.decidedAt,
                    outcome.reason,
                ])
            return db.changesCount > 0
        }
    }

    /// The outcomes of a reminder's occurrences scheduled between two instants, oldest first.
    public func outcomes(reminderID: Int64, from: Instant, through: Instant) throws(StoreError) -> [OutcomeRecord] {
        try read { db in
            try OutcomeRecord.filter(Column("reminderId") == reminderID && Column("scheduledAt") >= from.secondsSinceEpoch
                && Column("scheduledAt") <= through.secondsSinceEpoch).order(Column("scheduledAt")).fetchAll(db)
        }
    }

    /// The instants of the skipped occurrences scheduled between two instants (inclusive), per reminder: of
    /// `reminderIDs`, or of all reminders when it is nil.
    public func skips(from: Instant, through: Instant, reminderIDs: [Int64]? = nil) throws(StoreError) -> [Int64: Set<Instant>] {
        if reminderIDs?.isEmpty == true { return [:] }
        let which = reminderIDs.map { "reminderId IN \(Self.idList($0)) AND" } ?? ""
        return try read { db in
            var result: [Int64: Set<Instant>] = [:]
            let rows = try Row.fetchCursor(
                db, sql: "SELECT reminderId, scheduledAt FROM outcome WHERE \(which) scheduledAt BETWEEN ? AND ? AND state = ?",
                arguments: [from.secondsSinceEpoch, through.secondsSinceEpoch, OutcomeRecord.State.skipped.rawValue])
            while let row = try rows.next() { result[row[0], default: []].insert(Instant(secondsSinceEpoch: row[1])) }
            return result
        }
    }

    /// Outcomes decided since an instant, newest first, optionally for one reminder (for the history).
    public func outcomes(since: Instant, reminderID: Int64? = nil, limit: Int) throws(StoreError) -> [OutcomeRecord] {
        try read { db in
            var request = OutcomeRecord.filter(Column("decidedAt") >= since.secondsSinceEpoch)
            if let reminderID { request = request.filter(Column("reminderId") == reminderID) }
            return try request.order(Column("decidedAt").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// Notes that an announced occurrence was announced again at `at` (a snooze, or its `repeats`-th repeat).
    public func noteAnnouncedAgain(reminderID: Int64, scheduledAt: Instant, at: Instant, repeats: Int) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "UPDATE firing SET repeats = ?, lastAnnouncedAt = ? WHERE reminderId = ? AND scheduledAt = ? AND kind IN ('fired', 'late', 'postponed')",
                arguments: [repeats, at.secondsSinceEpoch, reminderID, scheduledAt.secondsSinceEpoch])
        }
    }

    /// Announced (or postponed) firings scheduled since an instant, oldest first: the occurrences whose windows
    /// may still be open after a restart.
    public func announcedFirings(since: Instant) throws(StoreError) -> [FiringRecord] {
        try read { db in
            // A firing is handled at or after its instant: the handledAt index finds them without reading all.
            try FiringRecord.filter(
                Column("handledAt") >= since.secondsSinceEpoch && Column("scheduledAt") >= since.secondsSinceEpoch
                    && ["fired", "late", "postponed"].contains(Column("kind")))
                .order(Column("scheduledAt")).fetchAll(db)
        }
    }

    /// Handled firings since an instant, newest first, optionally for one reminder.
    public func history(since: Instant, reminderID: Int64? = nil, limit: Int = 1000) throws(StoreError) -> [FiringRecord] {
        try read { db in
            var request = FiringRecord.filter(Column("handledAt") >= since.secondsSinceEpoch)
            if let reminderID { request = request.filter(Column("reminderId") == reminderID) }
            return try request.order(Column("handledAt").desc, Column("id").desc).limit(limit).fetchAll(db)
        }
    }

    /// The most recent handled firing of a reminder.
    public func lastFiring(reminderID: Int64) throws(StoreError) -> FiringRecord? {
        try read { db in
            try FiringRecord.filter(Column("reminderId") == reminderID).order(Column("scheduledAt").desc).fetchOne(db)
        }
    }

    /// Closes the database (checkpointing the WAL); later calls fail.
    public func close() throws(StoreError) {
        do {
            // Fold the WAL into the database file first, so a stopped daemon leaves one self-contained file.
            _ = try database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            if let pool = database as? DatabasePool { try pool.close() }
            lock?.release()
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
    }

    /// Why writes are refused whatever they are (the file was deleted or replaced), or nil.
    public var fileProblem: StoreError? {
        guard let identity, FileIdentity(path: path) != identity else { return nil }
        return .replaced(path: path)
    }

    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if let fileProblem { throw fileProblem }
        do {
            return try database.write(body)
        } catch let error as StoreError {
            throw error
        } catch let error as UnusableRow {
            throw .unusable(error)
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
    }

    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        do {
            return try database.read(body)
        } catch let error as StoreError {
            throw error
        } catch let error as UnusableRow {
            throw .unusable(error)
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
    }
}

/// A file's device and inode: the same path naming another file (replaced) or none (deleted) is noticed.
struct FileIdentity: Hashable, Sendable {
    let device: UInt64
    let inode: UInt64

    /// The identity of the file at `path` now, or nil when there is none.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}

/// One SQLite connection through the C API, closed with the value, for the checks made before GRDB opens the
/// file. (Not a GRDB queue: freeing one hands its dispatch queue to libdispatch's thread pool, whose monitor
/// then wakes the idle daemon every second.)
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

    private func check(_ code: Int32, expected: Int32) throws(StoreError) {
        if code == expected { return }
        let message = String(cString: sqlite3_errmsg(connection))
        if code == SQLITE_NOTADB || code == SQLITE_CORRUPT { throw .corrupt(path: reportedPath, detail: message) }
        throw .unavailable(path: reportedPath, detail: message)
    }
}

/// An exclusive `flock` on a file next to the store, held for as long as the store is open, with the
/// holder's pid written in it: a second daemon on the same state refuses to start and names the first.
final class InstanceLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock.
    /// - Throws: ``StoreError/locked(path:pid:)`` naming the holder, or `unavailable` when the file cannot be made.
    init(path: String, storePath: String) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .unavailable(path: storePath, detail: "cannot open its lock file \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let holder = (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            throw .locked(path: storePath, pid: holder)  // deinit closes the file (it runs for a thrown init too)
        }
        let pid = "\(getpid())\n"
        ftruncate(descriptor, 0)
        _ = pid.withCString { pwrite(descriptor, $0, strlen($0), 0) }
    }

    /// Gives the lock up (also done by the process ending, however it ends).
    func release() {
        flock(descriptor, LOCK_UN)
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }
}
