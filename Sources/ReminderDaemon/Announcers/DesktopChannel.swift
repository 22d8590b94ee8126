import ReminderCore
import Synchronization
import SystemdSupport
import Translation

/// Desktop notifications that follow the config's `notifications`: connects to the session bus when they are
/// on (at start, or at a reload that turns them on) and tries again at the next reload when there was no bus;
/// off, it shows nothing and keeps the connection. When the bus goes away (it was restarted), the next
/// announcement asks ``run(perform:)`` to connect again, never on the firing path (a bus that hangs blocks a
/// connect for 25 s, and held up every firing behind it); what is announced while connecting is kept and shown
/// once connected. A failed try waits a minute (on the daemon's clock) before the next one, so a burst of
/// firings does not try thousands of times. Once connected, every occurrence still due (``showAgain(from:)``) is
/// shown again, as it is whenever a notification server starts on the bus.
public final class DesktopChannel: Announcer {
    /// Opens the connection (production: `DesktopNotifications.connect(applicationName:)` on the session bus).
    public typealias Connect = @Sendable () async throws -> DesktopNotifications
    /// Carries out what the user chose on a notification.
    public typealias Perform = @Sendable (DesktopAnnouncer.Action) async -> Bool

    private enum Connection {
        /// No bus when last tried (said once): no try until a reload turns notifications on.
        case none
        /// ``run(perform:)`` is asked to connect; announcements are kept meanwhile.
        case wanted(again: Bool)
        case connected(DesktopAnnouncer)
        /// The bus went away: the next announcement (not before `retryAfter`) asks to connect again.
        case lost(retryAfter: Instant?)
    }

    private struct State {
        var connection: Connection
        var enabled: Bool
        /// Announced while connecting: shown once connected (the newest ``pendingLimit``).
        var pending: [DaemonEvent] = []
        /// A failure to connect again was said, and no connection has been made since.
        var failureReported = false

        mutating func keep(_ event: DaemonEvent) {
            pending.append(event)
            if pending.count > DesktopChannel.pendingLimit { pending.removeFirst() }
        }
    }

    /// Announcements kept while connecting (the journal has every one).
    private static let pendingLimit = 64

    private static let retrySeconds: Int64 = 60

    private let clock: any DaemonClock
    private let connect: Connect
    /// remindd plays the sounds itself: each notification asks the server not to play its own.
    private let playsSounds: Bool
    /// Where the occurrences still due are asked for (the daemon, once built).
    private let stillDue = Mutex<DesktopAnnouncer.StillDue>({ [] })
    private let report: @Sendable (DaemonMessage) -> Void
    /// The notifications' language (the daemon's).
    private let words: any MessageCatalog
    private let state: Mutex<State>
    /// Asks ``run(perform:)`` to connect (one request is enough however many come).
    private let requests: AsyncStream<Void>
    private let request: AsyncStream<Void>.Continuation

    public init(
        enabled: Bool, clock: any DaemonClock, connect: @escaping Connect, playsSounds: Bool = false, words: any MessageCatalog,
        report: @escaping @Sendable (DaemonMessage) -> Void
    ) {
        self.clock = clock
        self.words = words
        self.connect = connect
        self.playsSounds = playsSounds
        self.report = report
        self.state = Mutex(State(connection: enabled ? .wanted(again: false) : .none, enabled: enabled))
        (requests, request) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        if enabled { request.yield() }
    }

    /// Where the occurrences still due come from, to show them again on a desktop that appears.
    public func showAgain(from stillDue: @escaping DesktopAnnouncer.StillDue) {
        self.stillDue.withLock { $0 = stillDue }
    }

    private func stillDueNow() async -> [FiringEvent] {
        let ask = stillDue.withLock { $0 }
        return await ask()
    }

    /// The session bus's socket appeared (its bus was restarted, or a desktop logged in while remindd ran): when
    /// the connection was lost, or there was no bus, it connects at once, and what is still due is shown again,
    /// rather than at the next announcement.
    public func busAppeared() {
        let connect = state.withLock { state -> Bool in
            guard state.enabled else { return false }
            switch state.connection {
            case .none, .lost:
                state.connection = .wanted(again: true)
                return true
            case .wanted, .connected:
                return false
            }
        }
        if connect { request.yield() }
    }

    /// Where the session bus's socket is: `DBUS_SESSION_BUS_ADDRESS`'s `unix:path=`, else `$XDG_RUNTIME_DIR/bus`
    /// (as sd-bus looks); nil for an address without a file (abstract, TCP).
    public static func busSocket(environment: [String: String]) -> (folder: String, name: String)? {
        let path: String
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty {
            guard let first = address.split(separator: ";").first, first.hasPrefix("unix:"),
                let entry = first.dropFirst(5).split(separator: ",").first(where: { $0.hasPrefix("path=") })
            else { return nil }
            path = String(entry.dropFirst(5))
        } else {
            guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
            path = runtime + "/bus"
        }
        guard let slash = path.lastIndex(of: "/"), path.hasPrefix("/") else { return nil }
        let folder = slash == path.startIndex ? "/" : String(path[..<slash])
        return (folder, String(path[path.index(after: slash)...]))
    }

    /// The config's `notifications` at reload: on connects if there was no bus.
    public func setEnabled(_ enabled: Bool) {
        let connect = state.withLock { state -> Bool in
            state.enabled = enabled
            guard enabled, case .none = state.connection else { return false }
            state.connection = .wanted(again: false)
            return true
        }
        if connect { request.yield() }
    }

    public func announce(_ event: DaemonEvent) {
        let now = clock.now()
        let (announcer, connect) = state.withLock { state -> (DesktopAnnouncer?, Bool) in
            guard state.enabled else { return (nil, false) }
            switch state.connection {
            case .none:
                return (nil, false)  // no bus at all: said once
            case .connected(let announcer):
                return (announcer, false)
            case .wanted:
                state.keep(event)
                return (nil, false)
            case .lost(let retryAfter):
                state.keep(event)
                if let retryAfter, now < retryAfter { return (nil, false) }
                state.connection = .wanted(again: true)
                return (nil, true)
            }
        }
        announcer?.announce(event)
        if connect { request.yield() }
    }

    /// Connects when asked, then hands the actions chosen to `perform` until the bus goes away; until cancelled.
    public func run(perform: @escaping Perform) async {
        for await _ in requests {
            guard case .wanted(let again) = state.withLock({ $0.connection }) else { continue }
            let announcer: DesktopAnnouncer
            do {
                announcer = DesktopAnnouncer(
                    notifications: try await connect(), playsSounds: playsSounds, words: words, stillDue: { await self.stillDueNow() }, report: report)
            } catch is CancellationError {
                return
            } catch {
                failed(error, again: again)
                continue
            }
            let pending = state.withLock { state in
                state.connection = .connected(announcer)
                state.failureReported = false
                defer { state.pending = [] }
                return state.pending
            }
            if again { report(DaemonMessage(.info, "Connected to the session bus again: desktop notifications are shown")) }
            for event in pending { announcer.announce(event) }
            // What was due while there was no connection (a bus that went away and came back): shown again, but
            // for what was just shown.
            let shown = Set(pending.compactMap { event -> Int64? in if case .firing(let firing) = event { firing.firing.reminder.id } else { nil } })
            announcer.showAgain(await stillDueNow().filter { !shown.contains($0.firing.reminder.id) })
            await announcer.run(perform: perform)
            guard !Task.isCancelled else { return }
            state.withLock { $0.connection = .lost(retryAfter: nil) }
        }
    }

    /// A try to connect failed: at start or reload, said and given up until the next reload; after the bus
    /// went away, said the first time and tried again a minute later.
    private func failed(_ error: any Error, again: Bool) {
        let retryAfter = clock.now().adding(seconds: Self.retrySeconds)
        let say = state.withLock { state -> Bool in
            state.pending = []
            state.connection = again ? .lost(retryAfter: retryAfter) : .none
            defer { state.failureReported = true }
            return !again || !state.failureReported
        }
        if say { report(DaemonMessage(.notice, "No session bus (\(error)): desktop notifications are off; every reminder goes to the journal")) }
    }
}
