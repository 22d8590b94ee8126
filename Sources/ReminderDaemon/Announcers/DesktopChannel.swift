import Synchronization
import SystemdSupport

/// Desktop notifications that follow the config's `notifications`: connects to the session bus the first time
/// they are on (at start, or at a reload that turns them on) and tries again at the next reload when there
/// was no bus; off, it shows nothing and keeps the connection.
public final class DesktopChannel: Announcer {
    /// Opens the connection (production: `DesktopNotifications(applicationName:)` on the session bus).
    public typealias Connect = @Sendable () throws -> DesktopNotifications
    /// Carries out what the user chose on a notification.
    public typealias Perform = @Sendable (DesktopAnnouncer.Action) async -> Void

    private struct State {
        var announcer: DesktopAnnouncer?
        var enabled: Bool
        var connecting = false
        /// The daemon's handler for the actions chosen; nil until ``start(perform:)``.
        var perform: Perform?
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
    public func start(perform: @escaping Perform) {
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

    /// Connects outside the lock (adding the signal matches waits for the bus), so that firings are announced
    /// elsewhere meanwhile; `connecting` keeps the start and a reload from opening two connections.
    private func connectIfWanted() {
        let wanted = state.withLock { state -> Perform? in
            guard state.enabled, state.announcer == nil, !state.connecting, let perform = state.perform else { return nil }
            state.connecting = true
            return perform
        }
        guard let perform = wanted else { return }
        var announcer: DesktopAnnouncer?
        do {
            announcer = DesktopAnnouncer(notifications: try connect(), report: report)
        } catch {
            report(DaemonMessage(.notice, "No session bus (\(error)): desktop notifications are off; every reminder goes to the journal"))
        }
        state.withLock { state in
            state.announcer = announcer
            state.connecting = false
        }
        // Runs until the bus goes away (at shutdown).
        if let announcer { Task { await announcer.run(perform: perform) } }
    }
}
