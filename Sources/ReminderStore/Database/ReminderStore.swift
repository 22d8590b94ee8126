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
    /// The GRDB writer (a pool on a file; a queue in tests). Feature stores use ``read(_:)`` and ``write(_:)``.
    let writer: any DatabaseWriter

    /// The file the store lives in (`:memory:` for tests that need no file).
    public let path: String
    /// The device and inode opened at `path` (nil in memory).
    private let identity: FileIdentity?
    /// The single-writer lock on `path + ".lock"`, held while open (nil in memory).
    private let lock: InstanceLock?
    /// Reminder rows the readers left out since ``takeUnusableRows()`` was last called, by id.
    let unusableRows = Mutex<[Int64: UnusableRow]>([:])
    /// Rung after a commit that changed a followed row (``onCommit(_:)``).
    let commitBell = CommitBell()
    /// The reminders' counts, kept between commits that change them.
    let reminderCounts = ReminderCountCache()

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
            writer = try DatabasePool(path: path, configuration: configuration)
            try Self.migrate(writer)
            try Self.followChanges(writer, bell: commitBell, counts: reminderCounts)
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
        (writer as? DatabasePool)?.releaseMemory()
    }

    /// Opens the store on a database the caller made (an in-memory `DatabaseQueue` in tests) and migrates it.
    /// - Parameter path: what ``path`` reports.
    public init(database: any DatabaseWriter, path: String = ":memory:") throws(StoreError) {
        self.path = path
        writer = database
        identity = nil
        lock = nil
        do {
            try Self.migrate(database)
            try Self.followChanges(database, bell: commitBell, counts: reminderCounts)
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

    // MARK: Feature stores

    /// The reminders.
    public var reminders: RemindersStore { RemindersStore(database: self) }
    /// The alarms of read-only calendars (reminder rows with an origin).
    public var calendarAlarms: CalendarAlarmsStore { CalendarAlarmsStore(database: self) }
    /// The linked collection's items.
    public var collection: CollectionStore { CollectionStore(database: self) }
    /// Logged intake.
    public var intake: IntakeStore { IntakeStore(database: self) }
    public var stock: StockStore { StockStore(database: self) }
    /// Rest days, recovery, habit notices.
    public var habits: HabitsStore { HabitsStore(database: self) }
    /// Workouts, food, the profile.
    public var fitness: FitnessStore { FitnessStore(database: self) }
    /// Handled firings, outcomes, snoozes.
    public var firings: FiringsStore { FiringsStore(database: self) }
    /// Whole-store export, restore and imports.
    public var backups: BackupStore { BackupStore(database: self) }

    /// Reminder ids as an SQL list, `(1,2,3)`: with `IN`, SQLite seeks the `(reminderId, time)` index once per
    /// id and ranges over the time in each; `BETWEEN` on the ids would read every row of every id in between.
    /// (Integers only, so nothing can be injected.)
    static func idList(_ ids: [Int64]) -> String {
        "(" + ids.map(String.init).joined(separator: ",") + ")"
    }

    /// Values as one JSON array, for a statement that reads them as `IN (SELECT value FROM json_each(?))`: one
    /// short statement, compiled once per connection, where a parameter per value made a statement to compile
    /// for every list (a calendar read at start: 200 chunks of alarms, each stored and read back).
    static func jsonArray(_ values: some Sequence<String>) -> String {
        "[" + values.map(FlatJSON.quoted).joined(separator: ",") + "]"
    }

    /// Ids as one JSON array (see ``jsonArray(_:)-(Sequence<String>)``).
    static func jsonArray(_ ids: some Sequence<Int64>) -> String {
        "[" + ids.map(String.init).joined(separator: ",") + "]"
    }

    /// Values to bind in an `IN (...)` list, in parts of 500: well under SQLite's limit of variables per statement.
    static func inParts<Value>(_ values: [Value]) -> [ArraySlice<Value>] {
        stride(from: 0, to: values.count, by: 500).map { values[$0..<min($0 + 500, values.count)] }
    }

    /// Closes the database (checkpointing the WAL); later calls fail.
    public func close() throws(StoreError) {
        do {
            // Fold the WAL into the database file first, so a stopped daemon leaves one self-contained file.
            _ = try writer.writeWithoutTransaction { try $0.checkpoint(.truncate) }
            if let pool = writer as? DatabasePool { try pool.close() }
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

    /// Runs `body` in a write transaction, unless the file was deleted or replaced (see ``fileProblem``).
    func write<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if let fileProblem { throw fileProblem }
        return try storeErrors { try writer.write(body) }
    }

    /// Runs `body` in a write transaction that is not synced to the disk (`synchronous = NORMAL` for it: the WAL is
    /// written, not flushed). It survives `kill -9` but may be lost to a power cut: only for what the next start
    /// can tell another way (a firing's confirmation: the journal has it). A burst of 10,000 spent 20 flushes on
    /// them.
    func writeUnsynced<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        if let fileProblem { throw fileProblem }
        return try storeErrors {
            try writer.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA synchronous = NORMAL")
                let outcome = Result { () throws -> T in
                    var result: T?
                    try db.inTransaction {
                        result = try body(db)
                        return .commit
                    }
                    return result!
                }
                // Every other write stays FULL: a failure to set it back is thrown, not passed over.
                try db.execute(sql: "PRAGMA synchronous = FULL")
                return try outcome.get()
            }
        }
    }

    /// Runs `body` on a reader.
    func read<T>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        try storeErrors { try writer.read(body) }
    }

    /// Runs `operation`, its errors as ``StoreError``s: SQLite's are `unavailable`, a bad row `unusable`.
    private func storeErrors<T>(_ operation: () throws -> T) throws(StoreError) -> T {
        do {
            return try operation()
        } catch let error as StoreError {
            throw error
        } catch let error as UnusableRow {
            throw .unusable(error)
        } catch {
            throw .unavailable(path: path, detail: "\(error)")
        }
    }
}
