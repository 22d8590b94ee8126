import Foundation
import ReminderCore
import SystemdSupport
import TimeZoneDatabase

/// The machine's clock: `gettimeofday` for "now", `$TZ` or `/etc/localtime` for the zone, and the
/// ``SystemClockMonitor``'s `CLOCK_REALTIME` timerfd for the wake-up (which also reports clock changes).
public struct SystemClock: DaemonClock {
    let monitor: SystemClockMonitor
    let zones: TimeZoneDatabase

    public init(monitor: SystemClockMonitor, zones: TimeZoneDatabase) {
        self.monitor = monitor
        self.zones = zones
    }

    public func now() -> Instant {
        Instant(secondsSinceEpoch: Int64(Date().timeIntervalSince1970.rounded(.down)))
    }

    public func systemZoneName() -> String {
        zones.systemZoneName(environment: ProcessInfo.processInfo.environment)
    }

    public func wake(at instant: Instant?) {
        if let instant { monitor.arm(atEpochSeconds: instant.secondsSinceEpoch) } else { monitor.disarm() }
    }
}

/// systemd's `STATUS=` through `sd_notify`.
extension Notifier: StatusReporter {}
