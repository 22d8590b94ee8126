import ReminderDaemon
import Synchronization
import Translation

/// Keeps every event announced, in order, for a test to check; and serves as the journal that a restart
/// reads announcements back from (``AnnouncementLedger``), readable or not as the test says.
public final class RecordingAnnouncer: Announcer, AnnouncementLedger {
    private let recorded = Mutex<[DaemonEvent]>([])
    private let readable = Mutex(true)
    private let deaf = Mutex(false)

    public init() {}

    public func announce(_ event: DaemonEvent) {
        guard !deaf.withLock({ $0 }) else { return }
        recorded.withLock { $0.append(event) }
    }

    /// Whether a restart can read the announcements back (false: a volatile journal the user may not read).
    public var isReadable: Bool {
        get { readable.withLock { $0 } }
        set { readable.withLock { $0 = newValue } }
    }

    /// While true, announcements are lost (the process died before they reached the journal).
    public var dropsAnnouncements: Bool {
        get { deaf.withLock { $0 } }
        set { deaf.withLock { $0 = newValue } }
    }

    public func announced(among keys: Set<String>) -> Set<String>? {
        guard isReadable else { return nil }
        return keys.intersection(firings.compactMap(\.record) + occurrences.compactMap(\.record) + escalations.compactMap(\.record))
    }

    /// The escalations so far.
    public var escalations: [EscalationEvent] {
        events.compactMap { if case .escalation(let escalation) = $0 { return escalation } else { return nil } }
    }

    /// Every event so far.
    public var events: [DaemonEvent] { recorded.withLock { $0 } }

    /// The firing events so far.
    public var firings: [FiringEvent] {
        events.compactMap { if case .firing(let firing) = $0 { return firing } else { return nil } }
    }

    /// The decided occurrences so far (missed).
    public var occurrences: [OccurrenceEvent] {
        events.compactMap { if case .occurrence(let occurrence) = $0 { return occurrence } else { return nil } }
    }

    /// The daemon's own messages so far, as their text, with the travel notices as the journal words them.
    public var messages: [String] {
        events.compactMap { event in
            switch event {
            case .daemon(let message): message.text
            case .travelled: JournalAnnouncer.entry(for: event, in: UntranslatedCatalog()).message
            default: nil
            }
        }
    }

    /// Forgets what was recorded.
    public func clear() { recorded.withLock { $0.removeAll() } }
}

/// Keeps every status line reported.
public final class RecordingStatus: StatusReporter {
    private let lines = Mutex<[String]>([])

    public init() {}

    public func status(_ line: String) { lines.withLock { $0.append(line) } }

    /// The last status reported.
    public var last: String? { lines.withLock { $0.last } }
}
