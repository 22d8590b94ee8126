import ReminderCore

/// The wall clock as the machine shows it: the instant, the zone it is set to, and the daemon's one wake-up.
///
/// Production uses the system clock with a `CLOCK_REALTIME` timerfd (`SystemClockMonitor` in the executable);
/// tests use a manual clock that they advance, set back, or jump as a suspend would. The clock does not call
/// the daemon: whoever drives it hands the daemon a ``ClockEvent`` when the wake-up is reached or the clock
/// or zone changes.
public protocol DaemonClock: Sendable {
    /// The current wall-clock instant.
    func now() -> Instant
    /// The system zone's name (`$TZ`, `/etc/localtime`): reminders without a zone of their own follow it.
    func systemZoneName() -> String
    /// Arms the wake-up at an instant, replacing the previous one; nil disarms it.
    func wake(at instant: Instant?)
}

/// What the clock reports to the daemon.
public enum ClockEvent: Sendable, Hashable {
    /// The armed wake-up was reached (also once after a resume from suspend past it).
    case deadlineReached
    /// The wall clock was set: everything is re-planned from the new "now".
    case clockChanged
    /// The system zone setting changed.
    case timeZoneChanged
    /// The zone files themselves changed (a tzdata update): every zone's rules are read again.
    case timeZoneDataChanged
}
