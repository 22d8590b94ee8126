import Glibc
import ReminderCore
import WebLogin

/// The process's environment and clock, read at the executable's edge only (the core takes both as parameters).
enum SystemEnvironment {
    /// The environment variables, as `ProcessInfo` would give them, without loading Foundation.
    static func variables() -> [String: String] { ProcessEnvironment.variables() }

    /// The current instant from the real-time clock, to the second.
    static func now() -> Instant {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Instant(secondsSinceEpoch: Int64(spec.tv_sec))
    }
}
