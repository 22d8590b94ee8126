import ReminderDaemon
import Synchronization

/// Keeps every event announced, in order, for a test to check.
public final class RecordingAnnouncer: Announcer {
    private let recorded = Mutex<[DaemonEvent]>([])

    public init() {}

    public func announce(_ event: DaemonEvent) {
        recorded.withLock { $0.append(event) }
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
