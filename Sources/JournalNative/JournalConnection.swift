import CJournalNative
import Glibc
import Synchronization

/// A datagram socket connected to journald's native socket, shared by every thread that writes entries: opened at
/// the first entry, and again when journald went away (a journald that stopped, or one restarted without systemd
/// holding its socket: a new socket at the same path). Connected once rather than addressed per entry: a burst of
/// 10,000 entries looked the socket's path up 10,000 times (`sd_journal_sendv` sends each to the path).
///
/// One entry at a time: a sender waits while journald catches up (the socket's queue full) whether or not another
/// sender holds the lock.
public final class JournalConnection: Sendable {
    /// journald's native socket (tests give another).
    public let socketPath: String
    /// The connected socket, or -1 before the first entry and after journald went away.
    private let descriptor = Mutex<Int32>(-1)

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    deinit {
        descriptor.withLock { if $0 >= 0 { close($0) } }
    }

    /// Sends an entry already in the native format (``NativeJournal/entry(_:)``).
    /// - Returns: 0, or -errno: -ENOENT or -ECONNREFUSED when no journald listens at `socketPath`.
    public func send(_ entry: [UInt8]) -> Int32 {
        descriptor.withLock { socket in
            var result: Int32 = 0
            for _ in 0..<2 {
                if socket < 0 {
                    socket = socketPath.withCString { remindd_journal_connect($0) }
                    guard socket >= 0 else {
                        defer { socket = -1 }
                        return socket
                    }
                }
                result = entry.withUnsafeBytes { remindd_journal_send(socket, $0.baseAddress, $0.count) }
                // The journald it was connected to is gone: once more, to whatever listens at the path now.
                guard [-ECONNREFUSED, -ENOTCONN, -ECONNRESET, -EPIPE].contains(result) else { return result }
                close(socket)
                socket = -1
            }
            return result
        }
    }

    /// Whether a result of ``send(_:)`` says that no journald listens (the entry belongs on stderr), rather than
    /// that journald refused the entry.
    public static func meansNoJournal(_ result: Int32) -> Bool {
        result == -ENOENT || result == -ECONNREFUSED || result == -ENOTDIR || result == -ENOTCONN
    }
}
