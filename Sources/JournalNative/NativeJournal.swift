import CJournalNative
import Glibc

/// Structured entries for the systemd journal in journald's native protocol, written without libsystemd (remindctl
/// links none; the daemon's entries go the same way, on one connected socket): each field `NAME=value` on a line, a
/// value holding a line break in the protocol's binary form (the name, a line break, its length as 64 bits
/// little-endian, the bytes, a line break), one datagram per entry, or a sealed memfd when the entry is too large
/// for one (an item of 1 MiB in a sync conflict).
///
/// Without a journal socket (a container, a plain terminal) the message goes to stderr with its `<N>` priority.
public struct NativeJournal: Sendable {
    /// `SYSLOG_IDENTIFIER` of every entry.
    public let identifier: String
    /// The socket entries go to; copies of this value share it.
    public let connection: JournalConnection
    /// journald's native socket (tests give another).
    public var socketPath: String { connection.socketPath }

    /// journald's own native socket.
    public static let defaultSocketPath = "/run/systemd/journal/socket"

    public init(identifier: String, socketPath: String = NativeJournal.defaultSocketPath) {
        self.init(identifier: identifier, connection: JournalConnection(socketPath: socketPath))
    }

    /// Entries under another identifier on the same socket (the daemon's hooks' output).
    public init(identifier: String, connection: JournalConnection) {
        (self.identifier, self.connection) = (identifier, connection)
    }

    /// Sends one entry at syslog `priority` (5: notice). Field names must be upper-case letters, digits and
    /// underscores (journald drops others). - Returns: whether it went to the journal (false: stderr).
    @discardableResult
    public func send(_ message: String, priority: Int, fields: [(String, String)] = []) -> Bool {
        let result = connection.send(Self.entry([("MESSAGE", message), ("PRIORITY", String(priority)), ("SYSLOG_IDENTIFIER", identifier)] + fields))
        guard result == 0 else {
            let reason = JournalConnection.meansNoJournal(result) ? "" : "journal refused the entry (\(String(cString: strerror(-result)))): "
            let line = "<\(priority)>\(reason)\(message)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            return false
        }
        return true
    }

    /// The bytes of an entry of `fields`, in order. Each value is read as one contiguous buffer (searched for a
    /// newline with `memchr`, copied whole): through the generic UTF-8 iterator, a burst's 10,000 entries spent
    /// 2 % of the daemon's CPU on the newline check alone.
    public static func entry(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 10 })
        for (name, value) in fields {
            var (name, value) = (name, value)
            name.withUTF8 { bytes.append(contentsOf: $0) }
            value.withUTF8 { value in
                if let start = value.baseAddress, memchr(start, Int32(UInt8(ascii: "\n")), value.count) != nil {
                    bytes.append(UInt8(ascii: "\n"))
                    withUnsafeBytes(of: UInt64(value.count).littleEndian) { bytes += $0 }
                } else {
                    bytes.append(UInt8(ascii: "="))
                }
                bytes.append(contentsOf: value)
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
