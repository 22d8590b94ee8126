import CSystemd
import Glibc

/// Writes structured entries to the systemd journal with `sd_journal_sendv`, one iovec per `FIELD=value`.
///
/// When no journal socket exists (a container, a plain terminal) the entry's MESSAGE goes to stderr
/// instead, prefixed with its priority in the `<N>` form journald and systemd understand. Each entry tries
/// the socket, so a journald that starts later is picked up.
public struct Journal: Sendable {
    /// syslog priorities, as journald's `PRIORITY=` field takes them.
    public enum Priority: Int, Sendable, Comparable {
        case emergency = 0, alert, critical, error, warning, notice, info, debug

        public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.rawValue < rhs.rawValue }

        /// Parses `debug`, `info`, `notice`, `warning`, `error` (the config's log-level names).
        public init?(name: String) {
            let names = ["emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"]
            let aliases = ["error": 3, "warn": 4, "emergency": 0, "critical": 2]
            guard let value = names.firstIndex(of: name) ?? aliases[name] else { return nil }
            self.init(rawValue: value)
        }
    }

    /// `SYSLOG_IDENTIFIER` of every entry.
    public let identifier: String
    /// Entries less important than this are not written.
    public let maximumPriority: Priority
    /// The native journal socket whose presence decides between the journal and stderr. (`sd_journal_sendv`
    /// always writes to journald's own: another path, which tests give, only says whether to try it.)
    public let socketPath: String

    /// journald's native socket.
    public static let defaultSocketPath = "/run/systemd/journal/socket"

    public init(identifier: String, maximumPriority: Priority = .debug, socketPath: String = Journal.defaultSocketPath) {
        self.identifier = identifier
        self.maximumPriority = maximumPriority
        self.socketPath = socketPath
    }

    /// Whether entries currently go to the journal (false: to stderr).
    public var isJournalAvailable: Bool {
        var info = stat()
        return stat(socketPath, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
    }

    /// Sends one entry. Field names must be upper-case letters, digits and underscores (journald drops others).
    /// - Returns: whether the entry went to the journal (false: stderr, or filtered out by priority).
    @discardableResult
    public func send(_ message: String, priority: Priority, fields: [(String, String)] = []) -> Bool {
        guard priority <= maximumPriority else { return false }
        guard socketPath == Self.defaultSocketPath || isJournalAvailable else {
            writeToStandardError(message, priority: priority)
            return false
        }
        // Every field in one buffer, each an iovec into it: one allocation per entry (a burst sends thousands).
        var buffer: [UInt8] = []
        var ends: [Int] = []
        func append(_ name: String, _ value: String) {
            buffer.append(contentsOf: name.utf8)
            buffer.append(UInt8(ascii: "="))
            buffer.append(contentsOf: value.utf8)
            ends.append(buffer.count)
        }
        append("MESSAGE", message)
        append("PRIORITY", String(priority.rawValue))
        append("SYSLOG_IDENTIFIER", identifier)
        for (name, value) in fields { append(name, value) }
        let result = buffer.withUnsafeMutableBytes { bytes in
            var start = 0
            var vectors = ends.map { end in
                defer { start = end }
                return iovec(iov_base: bytes.baseAddress! + start, iov_len: end - start)
            }
            return sd_journal_sendv(&vectors, Int32(vectors.count))
        }
        guard result >= 0 else {
            // No journald (no socket, or a socket file a stopped one left behind): stderr, as without systemd.
            // (Tried first rather than checked before each entry: the check was a path look-up per entry.)
            if result == -ENOENT || result == -ECONNREFUSED || result == -ENOTDIR {
                writeToStandardError(message, priority: priority)
            } else {
                writeToStandardError("journal refused the entry (\(String(cString: strerror(-result)))): \(message)", priority: priority)
            }
            return false
        }
        return true
    }

    private func writeToStandardError(_ message: String, priority: Priority) {
        let line = "<\(priority.rawValue)>\(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
}
