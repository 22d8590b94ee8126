import Synchronization
import SystemdSupport

/// Desktop notifications that follow the config's `notifications`: connects to the session bus the first time
/// they are on (at start, or at a reload that turns them on) and tries again at the next reload when there
/// was no bus; off, it shows nothing and keeps the connection.
public final class DesktopChannel: Announcer {
    /// Opens the connection (production: `DesktopNotifications(applicationName:)` on the session bus).
    public typealias Connect = @Sendable () throws -> DesktopNotifications

    private struct State {
        var announcer: DesktopAnnouncer?
        var enabled: Bool
        /// The daemon's handler for the actions chosen; nil until ``start(perform:)``.
        var perform: (@Sendable (DesktopAnnouncer.Action) async -> Void)?
    }

    private let connect: Connect
    private let report: @Sendable (DaemonMessage) -> Void
    private let state: Mutex<State>

    public init(enabled: Bool, connect: @escaping Connect, report: @escaping @Sendable (DaemonMessage) -> Void) {
        self.connect = connect
        self.report = report
        self.state = Mutex(State(enabled: enabled))
    }

    /// Connects when notifications are on and starts handing the actions chosen to `perform`.
    public func start(perform: @escaping @Sendable (DesktopAnnouncer.Action) async -> Void) {
        state.withLock { $0.perform = perform }
        connectIfWanted()
    }

    /// The config's `notifications` at reload: on connects if not connected yet.
    public func setEnabled(_ enabled: Bool) {
        state.withLock { $0.enabled = enabled }
        connectIfWanted()
    }

    public func announce(_ event: DaemonEvent) {
        state.withLock { $0.enabled ? $0.announcer : nil }?.announce(event)
    }

    /// Connects under the lock, so that a reload and the start never open two connections.
    private func connectIfWanted() {
        let started = state.withLock { state -> (DesktopAnnouncer, @Sendable (DesktopAnnouncer.Action) async -> Void)? in
            guard state.enabled, state.announcer == nil, let perform = state.perform else { return nil }
            do {
                let announcer = DesktopAnnouncer(notifications: try connect(), report: report)
                state.announcer = announcer
                return (announcer, perform)
            } catch {
                report(DaemonMessage(.notice, "No session bus (\(error)): desktop notifications are off; every reminder goes to the journal"))
                return nil
            }
        }
        // Runs until the bus goes away (at shutdown).
        if let (announcer, perform) = started { Task { await announcer.run(perform: perform) } }
    }
}
