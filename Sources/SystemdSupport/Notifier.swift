import CSystemd
import Glibc

/// Reports the daemon's state to its service manager with `sd_notify` (READY, STATUS, WATCHDOG, RELOADING, STOPPING).
///
/// Outside systemd (no `NOTIFY_SOCKET`), every call is a no-op, as `sd_notify` itself is.
public struct Notifier: Sendable {
    public init() {}

    /// Sends `READY=1` with a status line.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// Sends `STATUS=...`.
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// Sends `WATCHDOG=1`.
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends `RELOADING=1` with the monotonic timestamp systemd 253+ expects (older ones ignore it).
    public func reloading() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        send("RELOADING=1\nMONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + now.tv_nsec / 1000)")
    }

    /// Sends `STOPPING=1` with a status line.
    public func stopping(status: String) { send("STOPPING=1\nSTATUS=\(status)") }

    /// The interval at which to send `WATCHDOG=1` (half of `WATCHDOG_USEC`), or nil when the manager asks for none.
    public var watchdogInterval: Duration? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return .microseconds(Int64(usec / 2))
    }

    private func send(_ state: String) {
        _ = sd_notify(0, state)
    }
}

/// Sockets passed by systemd socket activation (`LISTEN_FDS`, `LISTEN_PID`).
public enum SocketActivation {
    /// The file descriptors passed to this process, starting at 3; empty when not socket-activated.
    /// Unsets the variables so child processes do not inherit them.
    public static func listeningDescriptors() -> [Int32] {
        let count = sd_listen_fds(1)
        guard count > 0 else { return [] }
        return (0..<count).map { SD_LISTEN_FDS_START + $0 }
    }
}
