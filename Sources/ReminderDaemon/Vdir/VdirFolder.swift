import Foundation
import Glibc
import ReminderCore
import SystemdSupport

/// A vdir folder, the storage format of pimutils' tools (vdirsyncer's `filesystem` storage, khal, todoman):
/// one iCalendar item per `.ics` file; other files (`.tmp` files being written, names without the extension,
/// hidden files) are not items.
///
/// Its files are untrusted input: only regular files are read (a symbolic link could lead out of the folder,
/// a FIFO would block), never one larger than ``maximumItemBytes``, never one whose name holds a control
/// character (it would break the journal's lines). Such files are listed as refused, with the reason.
struct VdirFolder: Sendable {
    /// The folder's absolute path, without a trailing slash.
    let path: String

    /// The largest item read: one event with its overrides and zones is a few kilobytes.
    static let maximumItemBytes = 1 << 20

    /// An item file and its etag: modification time, inode and size, as vdirsyncer's own (a rewritten file,
    /// even with the same text, is a new etag; an untouched one keeps it).
    struct Entry: Sendable, Hashable {
        var name: String
        var etag: String
    }

    /// A file that looks like an item but is not read.
    struct Refused: Sendable, Hashable {
        var name: String
        var reason: String
    }

    /// What a name in the folder is: an item, a file that looks like one but is not read, or neither (not an
    /// `.ics` file, hidden, or gone).
    enum Listed: Sendable, Hashable {
        case item(Entry)
        case refused(Refused)
        case none
    }

    /// The items, and the `.ics` files that are not read.
    func list() throws(SystemError) -> (entries: [Entry], refused: [Refused]) {
        guard let stream = opendir(path) else { throw SystemError(operation: "opendir \(path)") }
        defer { closedir(stream) }
        var entries: [Entry] = []
        var refused: [Refused] = []
        let directory = dirfd(stream)
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            switch look(at: name, in: directory) {
            case .item(let item): entries.append(item)
            case .refused(let refusal): refused.append(refusal)
            case .none: continue
            }
        }
        return (entries.sorted { $0.name < $1.name }, refused.sorted { $0.name < $1.name })
    }

    /// The items among `names` (the entries a watcher named: one file changed among 20,000 is one `lstat`, not
    /// a listing), and those of them that are not read; names no longer there are left out.
    func look(at names: Set<String>) -> (entries: [Entry], refused: [Refused]) {
        var found: (entries: [Entry], refused: [Refused]) = ([], [])
        for name in names.sorted() {
            switch look(at: name) {
            case .item(let entry): found.entries.append(entry)
            case .refused(let refusal): found.refused.append(refusal)
            case .none: continue
            }
        }
        return found
    }

    /// What `name` is now (the watcher named it: only it is looked at, not the whole folder). In a listing,
    /// `directory` is the folder's open descriptor: the name is looked up in it (a path from the root for each of
    /// 20,000 items was a third of listing them).
    func look(at name: String, in directory: Int32? = nil) -> Listed {
        // By byte and scalar (Foundation's `contains` and a lowercased copy were a tenth of listing 20,000 items).
        guard !name.hasPrefix("."), !name.utf8.contains(UInt8(ascii: "/")), Self.endsInICS(name) else { return .none }
        if name.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) || name.unicodeScalars.contains("\u{FFFD}") {
            return .refused(Refused(name: name, reason: "its name holds a control character or is not UTF-8"))
        }
        var info = stat()
        let (base, relative) = located(name, in: directory)
        guard fstatat(base, relative, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .none }  // removed meanwhile
        switch info.st_mode & S_IFMT {
        case S_IFREG:
            if info.st_size > Self.maximumItemBytes {
                return .refused(Refused(name: name, reason: "it is \(info.st_size / 1024) KiB, larger than an item can be (\(Self.maximumItemBytes / 1024) KiB)"))
            }
            return .item(Entry(name: name, etag: Self.etag(info)))
        case S_IFLNK:
            return .refused(Refused(name: name, reason: "it is a symbolic link (remindd reads only the folder's own files)"))
        default:
            return .refused(Refused(name: name, reason: "it is not a regular file"))
        }
    }

    /// Where the `*at` calls find `name`: in the folder's open descriptor, or by the folder's path.
    private func located(_ name: String, in directory: Int32?) -> (base: Int32, path: String) {
        directory.map { ($0, name) } ?? (AT_FDCWD, path + "/" + name)
    }

    /// `O_NOATIME`, which glibc declares only with `_GNU_SOURCE`: 01000000 on Linux's every architecture Debian
    /// builds for (asm-generic/fcntl.h; MIPS's own header has the same).
    private static let noAccessTime: Int32 = 0o1_000_000

    /// Whether a name ends in `.ics`, in any case.
    private static func endsInICS(_ name: String) -> Bool {
        let last = Array(name.utf8.suffix(4))
        return last.count == 4 && last[0] == UInt8(ascii: ".") && zip(last.dropFirst(), "ics".utf8).allSatisfy { $0 | 0x20 == $1 }
    }

    /// The text of an item, read without following a link and without reading more than the limit.
    /// (`directory`: the folder's open descriptor, to look the name up in, as ``look(at:in:)`` does.)
    func read(_ entry: Entry, in directory: Int32? = nil) throws(SystemError) -> String {
        let (base, relative) = located(entry.name, in: directory)
        // Without touching its access time: a first read of 20,000 items wrote 20,000 inodes back to the disk
        // (with `relatime`, an item's first read after each change does). O_NOATIME is for the file's owner only:
        // another's item (EPERM) is opened without it.
        var descriptor = openat(base, relative, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | Self.noAccessTime)
        if descriptor < 0 && errno == EPERM { descriptor = openat(base, relative, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else { throw SystemError(operation: "open \(entry.name)") }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw SystemError(operation: "stat \(entry.name)") }
        // The size it has now, and one more byte to see that it grew past the limit since it was listed.
        var bytes = [UInt8](repeating: 0, count: min(Int(max(info.st_size, 0)), Self.maximumItemBytes) + 1)
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n >= 0 else { throw SystemError(operation: "read \(entry.name)") }
            if n == 0 { break }
            count += n
        }
        // It grew while it was read: written meanwhile (the watcher reports it again) or past the limit.
        guard count < bytes.count else { throw SystemError(operation: "read \(entry.name): it grew while it was read", code: EAGAIN) }
        return ICalendarReader.text(utf8: bytes[..<count])
    }

    /// Writes an item as vdirsyncer does: a hidden temporary file, flushed, then renamed over the item (a reader
    /// sees the old text or the new, never half of it). - Returns: the new etag.
    func write(_ name: String, _ text: String) throws(SystemError) -> String {
        try write([(name, text)])[0].get()
    }

    /// Writes items as ``write(_:_:)`` does, many at once: each into its hidden temporary file, then one flush of
    /// the file system for all of them (`syncfs`: a first publish of 20,000 items waited for 20,000 `fsync`s), then
    /// each renamed over its item. - Returns: per item, its new etag or why it was not written.
    func write(_ items: [(name: String, text: String)]) -> [Result<String, SystemError>] {
        var results: [Result<String, SystemError>] = []
        var temporaries: [String?] = []
        for (name, text) in items {
            let temporary = path + "/." + name + "." + String(UInt64.random(in: .min ... .max), radix: 16) + ".tmp"
            do throws(SystemError) {
                try Self.create(temporary, holding: text, name: name)
                temporaries.append(temporary)
                results.append(.success(""))
            } catch {
                temporaries.append(nil)
                results.append(.failure(error))
            }
        }
        let flushFailure = flushFileSystem(holding: path)
        let flushed = flushFailure == 0 ? nil : SystemError(operation: "syncfs \(path)", code: flushFailure)
        for (index, temporary) in temporaries.enumerated() {
            guard let temporary else { continue }
            let name = items[index].name
            if let flushed {
                unlink(temporary)
                results[index] = .failure(flushed)
            } else if rename(temporary, path + "/" + name) != 0 {
                results[index] = .failure(SystemError(operation: "rename to \(name)"))
                unlink(temporary)
            } else {
                var info = stat()
                results[index] = lstat(path + "/" + name, &info) == 0 ? .success(Self.etag(info)) : .failure(SystemError(operation: "stat \(name)"))
            }
        }
        return results
    }

    /// Creates `temporary` (it must not exist) with `text` in it, not yet flushed; removed again when that fails.
    private static func create(_ temporary: String, holding text: String, name: String) throws(SystemError) {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw SystemError(operation: "create \(temporary)") }
        defer { close(descriptor) }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let error = SystemError(operation: "write \(name)")
                unlink(temporary)
                throw error
            }
            written += n
        }
    }

    /// Removes an item (gone already: nothing to do).
    func remove(_ name: String) throws(SystemError) {
        guard unlink(path + "/" + name) == 0 || errno == ENOENT else { throw SystemError(operation: "remove \(name)") }
    }

    /// The calendar's name: its `displayname` file (vdirsyncer's metasync writes the server's), else the
    /// folder's own name.
    var displayName: String {
        let fallback = String(path.split(separator: "/").last ?? "calendar")
        let descriptor = open(path + "/displayname", O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return fallback }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: 256)
        let n = Glibc.read(descriptor, &bytes, bytes.count)
        let text = String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self)
        let line = text.unicodeScalars.prefix { $0.value >= 0x20 && $0.value != 0x7F }
        let name = String(String.UnicodeScalarView(line)).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? fallback : String(name.prefix(60))
    }

    /// A file name for a message: control characters shown as escapes.
    static func printable(_ name: String) -> String {
        name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? name.debugDescription : name
    }

    private static func etag(_ info: stat) -> String {
        "\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)-\(info.st_ino)-\(info.st_size)"
    }
}
