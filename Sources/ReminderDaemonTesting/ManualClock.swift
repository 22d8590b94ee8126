import ReminderCore
import ReminderDaemon
import Synchronization

/// A wall clock that moves only when a test moves it, with a settable system zone and the armed wake-up in view.
///
/// It does not call the daemon by itself: ``TestDaemon`` turns its moves into the ``ClockEvent``s the real
/// timer would have produced.
public final class ManualClock: DaemonClock {
    private struct State {
        var now: Instant
        var zone: String
        var wakeUp: Instant?
    }
    private let state: Mutex<State>

    /// - Parameters:
    ///   - now: the starting instant.
    ///   - systemZone: the machine's zone name.
    public init(now: Instant, systemZone: String = "UTC") {
        state = Mutex(State(now: now, zone: systemZone, wakeUp: nil))
    }

    public func now() -> Instant { state.withLock { $0.now } }

    public func systemZoneName() -> String { state.withLock { $0.zone } }

    public func wake(at instant: Instant?) { state.withLock { $0.wakeUp = instant } }

    /// The wake-up the daemon armed last (nil: none).
    public var wakeUp: Instant? { state.withLock { $0.wakeUp } }

    /// Sets the clock without telling anyone (``TestDaemon`` decides which event that is).
    public func set(_ instant: Instant) { state.withLock { $0.now = instant } }

    /// Sets the system zone's name without telling anyone.
    public func setSystemZone(_ name: String) { state.withLock { $0.zone = name } }
}
