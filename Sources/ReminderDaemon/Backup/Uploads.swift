import Foundation
import ReminderCore
import ReminderInterface
import Synchronization

/// Files sent to the daemon in parts (``Backup/Upload``) until an import reads them: each upload a private
/// folder under `directory`, the daemon's own (the service's sandbox lets it write its state directory and
/// hides the caller's `/tmp`, so remindctl sends what it is given rather than a path).
final class Uploads: Sendable {
    /// An upload in progress.
    private struct Upload {
        var size = 0
        var lastUsed: Instant
        /// The first component of the first file sent: what the import reads (the file, or the folder).
        var root: String
    }

    /// An upload unused this long is dropped when another begins (remindctl sends its parts one after another).
    static let idleSeconds: Int64 = 600
    /// At most this many uploads wait at once (1,000 were accepted), holding at most ``maximumTotalBytes``
    /// together (three of about 1 GiB held 3.2 GB of the state folder for an hour).
    static let defaultMaximumUploads = 4
    static let defaultMaximumTotalBytes = Backup.Upload.maximumSize + (Backup.Upload.maximumSize >> 1)
    private let maximumUploads: Int
    private let maximumTotalBytes: Int

    private let directory: String
    private let uploads = Mutex<[String: Upload]>([:])

    init(directory: String, maximumUploads: Int = defaultMaximumUploads, maximumTotalBytes: Int = defaultMaximumTotalBytes) {
        (self.directory, self.maximumUploads, self.maximumTotalBytes) = (directory, maximumUploads, maximumTotalBytes)
        // Uploads from before a restart can never be finished: a folder that cannot be removed is reported by
        // the first upload that needs it.
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Appends a part to a file of an upload (a new one when `upload` is nil).
    func append(_ parameters: Backup.Upload.Parameters, now: Instant) throws(ServiceError) -> Backup.Upload.Reply {
        let components = parameters.name.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard (1...3).contains(components.count),
            components.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && $0.utf8.count <= 255 && !$0.contains("\0") })
        else {
            throw .invalidInput(parameter: "name", message: "a file's name in an upload is one to three plain components (like 'backup.json' or 'loop/Habits.csv')")
        }
        guard let data = Data(base64Encoded: parameters.data) else {
            throw .invalidInput(parameter: "data", message: "the part is not base64")
        }
        guard data.count <= Backup.Upload.partSize else {
            throw .invalidInput(parameter: "data", message: "a part holds at most \(Backup.Upload.partSize / 1024) KiB: send the file in smaller parts")
        }
        let id = try reserve(parameters.upload, root: components[0], adding: data.count, now: now)
        let folder = directory + "/" + id + "/" + components.dropLast().joined(separator: "/")
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try Self.append(data, to: folder + "/" + components[components.count - 1])
        } catch {
            remove(id)
            throw .store("cannot keep the uploaded file in \(directory): \(error.localizedDescription); the upload was dropped")
        }
        return Backup.Upload.Reply(upload: id, size: uploads.withLock { $0[id]?.size ?? 0 })
    }

    /// Counts `bytes` more against an upload (begun now when `upload` is nil, dropping those idle too long).
    private func reserve(_ upload: String?, root: String, adding bytes: Int, now: Instant) throws(ServiceError) -> String {
        let idle = now.adding(seconds: -Self.idleSeconds)
        let (id, expired): (String?, [String]) = uploads.withLock { uploads in
            let total = uploads.values.reduce(0) { $0 + $1.size }
            guard let upload else {
                let expired = uploads.filter { $0.value.lastUsed < idle }.map(\.key)
                for key in expired { uploads[key] = nil }
                guard uploads.count < maximumUploads, total + bytes <= maximumTotalBytes else { return (nil, expired) }
                let id = (0..<2).map { _ in String(UInt64.random(in: .min ... .max), radix: 16) }.joined(separator: "-")
                uploads[id] = Upload(size: bytes, lastUsed: now, root: root)
                return (id, expired)
            }
            guard var current = uploads[upload], current.size + bytes <= Backup.Upload.maximumSize, total + bytes <= maximumTotalBytes else {
                return (nil, [])
            }
            current.size += bytes
            current.lastUsed = now
            uploads[upload] = current
            return (upload, [])
        }
        for key in expired { removeFolder(key) }
        guard let id else {
            guard let upload else {
                throw .invalidInput(parameter: "upload", message: """
                    \(maximumUploads) uploads (or \(maximumTotalBytes >> 20) MiB) already wait to be imported: import them, or send \
                    this one when they are done (an upload unused for \(Self.idleSeconds / 60) minutes is dropped)
                    """)
            }
            if uploads.withLock({ $0[upload] }) != nil {
                remove(upload)
                throw .invalidInput(parameter: "data", message: """
                    an upload holds at most \(Backup.Upload.maximumSize >> 30) GiB, and all waiting together \(maximumTotalBytes >> 20) MiB; the upload was dropped
                    """)
            }
            throw Self.unknown(upload)
        }
        return id
    }

    /// Where an import reads an upload (its file, or its folder), and the name to show for it; the upload is
    /// then the caller's to remove.
    func take(_ upload: String) throws(ServiceError) -> (path: String, shown: String) {
        guard let root = uploads.withLock({ $0[upload]?.root }) else { throw Self.unknown(upload) }
        return (directory + "/" + upload + "/" + root, root)
    }

    /// Drops an upload and its files.
    func remove(_ upload: String) {
        uploads.withLock { $0[upload] = nil }
        removeFolder(upload)
    }

    private func removeFolder(_ upload: String) {
        // Left behind only when the folder cannot be removed; the next start removes every upload.
        try? FileManager.default.removeItem(atPath: directory + "/" + upload)
    }

    private static func unknown(_ upload: String) -> ServiceError {
        .invalidInput(parameter: "upload", message: "no upload '\(upload)': it was imported already, or dropped (\(idleSeconds / 60) minutes unused, or a restart); send the file again")
    }

    /// Appends to a file (made 0600, never through a link).
    private static func append(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                }
                offset += written
            }
        }
    }
}
