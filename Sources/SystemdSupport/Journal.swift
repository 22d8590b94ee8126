import Glibc
import JournalNative

/// Writes structured entries to the systemd journal in journald's native protocol (``NativeJournal``), on one
/// socket connected to journald and shared by every copy of this value, and by the `remindd-hook` entries.
///
/// When no journal socket exists (a container, a plain terminal) the entry's MESSAGE goes to stderr
/// instead, prefixed with its priority in the `<N>` form journald and systemd understand. Each entry tries
/// the socket until it is connected, so a journald that starts later is picked up.
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
    public var identifier: String { native.identifier }
    /// Entries less important than this are not written.
    public let maximumPriority: Priority
    /// journald's native socket (tests give another).
    public var socketPath: String { native.socketPath }
    private let native: NativeJournal

    /// journald's native socket.
    public static let defaultSocketPath = NativeJournal.defaultSocketPath

    public init(identifier: String, maximumPriority: Priority = .debug, socketPath: String = Journal.defaultSocketPath) {
        self.init(NativeJournal(identifier: identifier, socketPath: socketPath), maximumPriority: maximumPriority)
    }

    private init(_ native: NativeJournal, maximumPriority: Priority) {
        (self.native, self.maximumPriority) = (native, maximumPriority)
    }

    /// Entries under another identifier, on this journal's socket (the hooks' output, as `remindd-hook`).
    public func named(_ identifier: String) -> Journal {
        Journal(NativeJournal(identifier: identifier, connection: native.connection), maximumPriority: maximumPriority)
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
        return native.send(message, priority: priority.rawValue, fields: fields)
    }
}
