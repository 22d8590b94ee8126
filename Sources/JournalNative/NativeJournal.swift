import CJournalNative
import Glibc

/// Structured entries for the systemd journal in journald's native protocol, written without libsystemd (so that
/// remindctl links none): each field `NAME=value` on a line, a value holding a line break in the protocol's binary
/// form (the name, a line break, its length as 64 bits little-endian, the bytes, a line break), one datagram per
/// entry, or a sealed memfd when the entry is too large for one (an item of 1 MiB in a sync conflict).
///
/// Without a journal socket (a container, a plain terminal) the message goes to stderr with its `<N>` priority, as
/// ``SystemdSupport/Journal`` does.
public struct NativeJournal: Sendable {
    /// `SYSLOG_IDENTIFIER` of every entry.
    public let identifier: String
    /// journald's native socket (tests give another).
    public let socketPath: String

    public init(identifier: String, socketPath: String = "/run/systemd/journal/socket") {
        (self.identifier, self.socketPath) = (identifier, socketPath)
    }

    /// Sends one entry at syslog `priority` (5: notice). Field names must be upper-case letters, digits and
    /// underscores (journald drops others). - Returns: whether it went to the journal (false: stderr).
    @discardableResult
    public func send(_ message: String, priority: Int, fields: [(String, String)] = []) -> Bool {
        let entry = Self.entry([("MESSAGE", message), ("PRIORITY", String(priority)), ("SYSLOG_IDENTIFIER", identifier)] + fields)
        let result = entry.withUnsafeBytes { remindd_journal_native_send(socketPath, $0.baseAddress, $0.count) }
        guard result == 0 else {
            let reason = result == -ENOENT || result == -ECONNREFUSED || result == -ENOTDIR ? "" : "journal refused the entry (\(String(cString: strerror(-result)))): "
            let line = "<\(priority)>\(reason)\(message)\n"
            _ = line.withCString { write(2, $0, strlen($0)) }
            return false
        }
        return true
    }

    /// The bytes of an entry of `fields`, in order.
    public static func entry(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes += name.utf8
            if value.utf8.contains(UInt8(ascii: "\n")) {
                bytes.append(UInt8(ascii: "\n"))
                withUnsafeBytes(of: UInt64(value.utf8.count).littleEndian) { bytes += $0 }
            } else {
                bytes.append(UInt8(ascii: "="))
            }
            bytes += value.utf8
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }
}
