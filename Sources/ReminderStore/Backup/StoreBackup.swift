import Foundation
import GRDB

/// A value of one column of one row, as SQLite keeps it.
public enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    /// Bytes, written in JSON as `{"base64": "..."}`.
    case blob(Data)

    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let value): self = .integer(value)
        case .double(let value): self = .real(value)
        case .string(let value): self = .text(value)
        case .blob(let value): self = .blob(value)
        }
    }

    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        case .blob(let value): value.databaseValue
        }
    }
}

/// The backup document's format (`remindctl export` writes it; ``BackupStore/restore(path:merge:)`` reads it).
public enum BackupFormat {
    public static let name = "remindd-backup"
    /// The version of this format this remindd writes and reads.
    public static let currentVersion: Int64 = 1
}

/// What a restore did: rows added and rows skipped (exact duplicates, or a key already there) per table.
public struct RestoreReport: Codable, Sendable, Equatable {
    public var added: [String: Int]
    public var skipped: [String: Int]
}

/// Why a backup was refused (nothing was changed).
public struct BackupRefused: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
}

/// A whole store out and in: the lossless backup (`remindctl export`), its restore, and the imports from other
/// trackers (the backup service's store).
public struct BackupStore: Sendable {
    let database: ReminderStore

    /// Whether the store holds anything of the user's: a row in any table but the built-in reminders
    /// (`builtIn` names) and what the daemon writes by itself (notices, the handled-through marks).
    public func holdsUserData(builtIn: Set<String>) throws(StoreError) -> Bool {
        try database.read { db in try Self.holdsUserData(builtIn: builtIn, in: db) }
    }

    /// ``holdsUserData(builtIn:)`` in `db`'s transaction.
    static func holdsUserData(builtIn: Set<String>, in db: Database) throws -> Bool {
        for table in ReminderStore.backupTables where !["reminder", "habitNotice", "firing", "outcome"].contains(table) {
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0 > 0 { return true }
        }
        let names = try String.fetchAll(db, sql: "SELECT name FROM reminder")
            + String.fetchAll(db, sql: "SELECT reminderName FROM firing UNION SELECT reminderName FROM outcome")
        return names.contains { !builtIn.contains($0) }
    }

    /// Stages the backup file at `path` for a restore, all or nothing: into an empty store it replaces every table with the
    /// backup's rows (an identical state); with `merge`, it adds the rows that are not already there (a reminder
    /// is the same by name; rows of other tables by every column but their id), with the ids of reminders
    /// mapped. The file is read in two passes (``BackupFile``), a row at a time, and staged before one short
    /// transaction takes it in (``restoreStaged(_:builtIn:)``, which the daemon starts in a lull of the firings).
    /// - Throws: ``BackupRefused`` (not a regular file, damaged, a newer format or schema, a table or column this
    ///   store does not have, a value that ``BackupRowCheck`` refuses, with its place), and nothing is changed.
    public func stageRestore(path: String, merge: Bool) throws -> StagedRestore {
        let file = try BackupFile(path: path)
        let index: BackupFile.Index
        do { index = try file.index() } catch { throw BackupRefused(description: "not a remindd backup, or is damaged (\(error))") }
        guard let format = index.format else { throw BackupRefused(description: "not a remindd backup, or is damaged (no 'format')") }
        guard format == BackupFormat.name else { throw BackupRefused(description: "not a remindd backup (format '\(format)')") }
        guard let version = index.version, let schema = index.schema else {
            throw BackupRefused(description: "not a remindd backup, or is damaged (no '\(index.version == nil ? "version" : "schema")')")
        }
        guard version <= BackupFormat.currentVersion else {
            throw BackupRefused(description: "written by a newer remindd (backup format \(version), this one reads \(BackupFormat.currentVersion)): update remindd")
        }
        guard ReminderStore.migrator.migrations.contains(schema) else {
            throw BackupRefused(description: "written by a newer remindd (its database schema '\(schema)' is unknown here): update remindd")
        }
        let tables = ReminderStore.backupTables
        if let unknown = index.tables.keys.sorted().first(where: { !tables.contains($0) }) {
            throw BackupRefused(description: "the backup has a table '\(unknown)' this remindd does not know: update remindd")
        }
        if let fileProblem = database.fileProblem { throw fileProblem }
        return try refusing { try BackupRestore(database: database, file: file, index: index, merge: merge).stage() }
    }

    /// Moves a staged restore's rows into the store, in one transaction. - Returns: what was added and skipped.
    ///
    /// A restore without `merge` replaces every table: it is refused, and nothing changed, when the store holds
    /// anything of the user's by now (`builtIn`: as ``holdsUserData(builtIn:)``): a reminder added or a dose
    /// logged while the file was staged, or while the move waited for a lull in the firings, is not wiped.
    public func restoreStaged(_ staged: StagedRestore, builtIn: Set<String>) throws -> RestoreReport {
        try refusing { try staged.move(refusingUserDataBut: builtIn) }
    }

    /// The errors of a restore, as the caller is told them: a row that does not fit is the backup's fault.
    private func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as BackupRefused {
            throw error
        } catch let error as StoreError {
            throw error
        } catch let error as DatabaseError {
            throw BackupRefused(description: "a row does not fit this store (\(error.message ?? "\(error)"))")
        } catch {
            throw StoreError.unavailable(path: database.path, detail: "\(error)")
        }
    }
}

/// The rows a table holds, as sets of values by the columns a backup's rows name, so that a merge finds a
/// duplicate with one look-up (a query over every column per row took 25 s for 30,000 rows). Each set is read
/// once, when a row with those columns first comes, and grows with what the merge adds.
struct PresentRows {
    let table: String
    private var byColumns: [[String]: Set<[StoreValue]>] = [:]

    init(table: String) {
        self.table = table
    }

    /// Notes a row (without its id); false when an equal row is there already (in the store, read through one
    /// of its readers, or noted before).
    mutating func insert(_ row: [String: StoreValue], _ store: ReminderStore) throws -> Bool {
        let columns = row.keys.sorted()
        let values = columns.map { row[$0]! }
        if byColumns[columns] == nil {
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            // SQL: the columns are the backup's, known only at run time (each checked against the table's).
            let table = self.table
            byColumns[columns] = try store.writer.read { db in
                let rows = try Row.fetchCursor(db, sql: "SELECT \(list.isEmpty ? "1" : list) FROM \(table.quotedDatabaseIdentifier)")
                var set: Set<[StoreValue]> = []
                while let stored = try rows.next() {
                    set.insert(columns.indices.map { StoreValue(stored[$0] as DatabaseValue) })
                }
                return set
            }
        }
        return byColumns[columns]!.insert(values).inserted
    }
}
