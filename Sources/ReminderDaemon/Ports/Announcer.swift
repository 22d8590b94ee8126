/// Where the daemon's events go: the journal, Watch streams, and any later channel (desktop notifications,
/// command hooks). Adding a channel is one type conforming to this and one line in ``DaemonPorts``.
///
/// `announce` is called on the daemon's firing path: an announcer must not block (queue, or drop and say so).
public protocol Announcer: Sendable {
    /// Takes one event. Events arrive in the order they happened.
    func announce(_ event: DaemonEvent)

    /// Takes events that happened together (a burst's firings), in order: as so many calls of `announce(_:)`,
    /// which an announcer that hands events to a thread of its own may do in one hand-over.
    func announce(_ events: [DaemonEvent])

    /// Runs `body` once every event announced before it has been written where this announcer writes it (an
    /// announcer that writes as it is called runs it at once). An announcement is confirmed in the store this
    /// way: only once the journal, the ledger a restart reads, has been sent its entry.
    func whenSent(_ body: @escaping @Sendable () -> Void)
}

extension Announcer {
    public func whenSent(_ body: @escaping @Sendable () -> Void) { body() }

    public func announce(_ events: [DaemonEvent]) {
        for event in events { announce(event) }
    }
}

/// Sends every event to several announcers, in order. The first is the ledger (the journal, which a start reads
/// after a crash): the others are given an event only once the first has sent it, so that no crash can leave an
/// announcement a user saw or heard that the ledger lacks (the next start would announce it again).
public struct AnnouncerGroup: Announcer {
    public let members: [any Announcer]

    public init(_ members: [any Announcer]) {
        self.members = members
    }

    public func announce(_ event: DaemonEvent) {
        guard let ledger = members.first else { return }
        ledger.announce(event)
        let others = members.dropFirst()
        ledger.whenSent { for member in others { member.announce(event) } }
    }

    public func announce(_ events: [DaemonEvent]) {
        guard let ledger = members.first, !events.isEmpty else { return }
        ledger.announce(events)
        let others = members.dropFirst()
        ledger.whenSent { for member in others { member.announce(events) } }
    }

    /// Runs `body` once each member has sent what it was given (one after the other).
    public func whenSent(_ body: @escaping @Sendable () -> Void) {
        @Sendable func after(_ index: Int) {
            guard index < members.count else { return body() }
            members[index].whenSent { after(index + 1) }
        }
        after(0)
    }
}

/// Receives the daemon's one-line state (`3 reminders, next: ...`) whenever it changes: systemd's `STATUS=`.
public protocol StatusReporter: Sendable {
    func status(_ line: String)
}

/// Where announcements can be read back after a crash (the journal): a firing recorded but not confirmed as
/// announced is looked up here at the next start, and announced only when it is not there.
public protocol AnnouncementLedger: Sendable {
    /// The keys, among `keys`, of announcements that reached the ledger (``FiringEvent/record``); nil when the
    /// ledger cannot be read back (then each is announced again, marked as such: nothing is lost).
    func announced(among keys: Set<String>) -> Set<String>?
}

/// A ledger that can never be read back: every firing a crash left unconfirmed is announced again.
public struct UnreadableLedger: AnnouncementLedger {
    public init() {}

    public func announced(among keys: Set<String>) -> Set<String>? { nil }
}
