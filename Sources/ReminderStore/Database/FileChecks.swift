import Foundation
import GRDB
import GRDBSQLite

/// What is checked of the file before GRDB opens it, and the lock: a store is never opened, created or written
/// over where that would lose or damage the user's data.
extension ReminderStore {
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

/// An exclusive `flock` on a file next to the store, held for as long as the store is open, with the
/// holder's pid written in it: a second daemon on the same state refuses to start and names the first.
final class InstanceLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock.
    /// - Throws: ``StoreError/locked(path:pid:)`` naming the holder, or `unavailable` when the file cannot be made.
    init(path: String, storePath: String) throws(StoreError) {
        let directory = (path as NSString).deletingLastPathComponent
        // A directory that cannot be made is reported by the open below, with the lock file's path.
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .unavailable(path: storePath, detail: "cannot open its lock file \(path): \(String(cString: strerror(errno)))") }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            // The holder's pid only words the error; "locked" stands without it.
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
