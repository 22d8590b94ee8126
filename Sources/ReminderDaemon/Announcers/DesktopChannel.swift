import Foundation
import Synchronization
import SystemdSupport

/// Desktop notifications that follow the config's `notifications`: connects to the session bus the first time
/// they are on (at start, or at a reload that turns them on) and tries again at the next reload when there
/// was no bus; off, it shows nothing and keeps the connection. When the bus goes away (it was restarted),
/// the next announcement connects again on a thread of its own, never on the firing path (a bus that hangs
/// blocked a connect for 25 s, and every firing behind it); what is announced meanwhile is kept and shown
/// once connected. A failed try waits a minute before the next one, so a burst of firings does not try
/// thousands of times.
public final class DesktopChannel: Announcer {
    /// Opens the connection (production: `DesktopNotifications(applicationName:)` on the session bus).
    public typealias Connect = @Sendable () throws -> DesktopNotifications
    /// Carries out what the user chose on a notification.
    public typealias Perform = @Sendable (DesktopAnnouncer.Action) async -> Void

    private struct State {
        var announcer: DesktopAnnouncer?
        var enabled: Bool
        var connecting = false
        /// The connection went away: the next announcement connects again.
        var lost = false
        /// After a failed try to connect again: not before then.
        var retryAfter: ContinuousClock.Instant?
        /// The daemon's handler for the actions chosen; nil until ``start(perform:)``.
        var perform: Perform?
        /// Announced while connecting again: shown once connected (the newest ``pendingLimit``).
        var pending: [DaemonEvent] = []
    }

    /// Announcements kept while connecting again (the journal has every one).
    private static let pendingLimit = 64

    private static let retryInterval = Duration.seconds(60)

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
        connectIfWanted(again: false)
    }

    /// The config's `notifications` at reload: on connects if not connected yet.
    public func setEnabled(_ enabled: Bool) {
        state.withLock { $0.enabled = enabled }
        connectIfWanted(again: false)
    }

    public func announce(_ event: DaemonEvent) {
        let now = ContinuousClock.now
        let (announcer, reconnect) = state.withLock { state -> (DesktopAnnouncer?, Bool) in
            guard state.enabled else { return (nil, false) }
            if let announcer = state.announcer { return (announcer, false) }
            guard state.lost, state.perform != nil else { return (nil, false) }  // no bus at all: said once
            state.pending.append(event)
            if state.pending.count > Self.pendingLimit { state.pending.removeFirst() }
            // One try at a time, and not within a minute of a failed one.
            guard !state.connecting, state.retryAfter.map({ now >= $0 }) ?? true else { return (nil, false) }
            state.connecting = true
            return (nil, true)
        }
        announcer?.announce(event)
        guard reconnect else { return }
        // A thread only while connecting: an idle daemon has none.
        Thread.detachNewThread { [self] in connectIfWanted(again: true, claimed: true) }
    }

    /// Connects outside the lock (adding the signal matches waits for the bus), so that firings are announced
    /// elsewhere meanwhile; `connecting` keeps two callers from opening two connections.
    /// - Parameter again: after the connection was lost: not within a minute of a failed try, and said only
    ///   when it fails the first time and when it succeeds.
    /// - Parameter claimed: the caller already set `connecting` (``announce(_:)``, which then starts a thread).
    private func connectIfWanted(again: Bool, claimed: Bool = false) {
        let now = ContinuousClock.now
        let wanted = state.withLock { state -> Perform? in
            if claimed, let perform = state.perform { return perform }
            guard state.enabled, state.announcer == nil, !state.connecting, let perform = state.perform else { return nil }
            if again, let retryAfter = state.retryAfter, now < retryAfter { return nil }
            state.connecting = true
            return perform
        }
        guard let perform = wanted else { return }
        var announcer: DesktopAnnouncer?
        var failure: (any Error)?
        do {
            announcer = DesktopAnnouncer(notifications: try connect(), report: report)
        } catch {
            failure = error
        }
        let (firstFailure, pending) = state.withLock { state -> (Bool, [DaemonEvent]) in
            let first = state.retryAfter == nil
            state.connecting = false
            state.announcer = announcer
            if announcer != nil { state.lost = false }
            state.retryAfter = announcer == nil && state.lost ? now + Self.retryInterval : nil
            defer { state.pending = [] }
            return (first, announcer == nil ? [] : state.pending)
        }
        if let failure, !again || firstFailure {
            report(DaemonMessage(.notice, "No session bus (\(failure)): desktop notifications are off; every reminder goes to the journal"))
        }
        guard let announcer else { return }
        if again { report(DaemonMessage(.info, "Connected to the session bus again: desktop notifications are shown")) }
        for event in pending { announcer.announce(event) }
        Task {
            // Until the bus goes away: then the next announcement connects again.
            await announcer.run(perform: perform)
            self.state.withLock { state in
                guard state.announcer === announcer else { return }
                state.announcer = nil
                state.lost = true
            }
        }
    }
}
