import ReminderCore

/// What waits while the store does not answer: firings whose logs could not be read (nothing is decided on a guess:
/// a logged dose would be announced) and handled firings the store refused to record (a slot announced without its
/// record would be announced again after a restart). Later firings wait behind them, in order; all are tried again
/// ``retrySeconds`` after the last failure.
///
/// Pure: the scheduling service says what failed and when, and asks at each wake-up what to try; it does the reads,
/// the writes and the announcements. `Event` is what a handled firing becomes (the daemon's `FiringEvent`).
public struct StoreRetryQueue<Event: Sendable>: Sendable {
    /// How long after a failure the store is tried again.
    public static var retrySeconds: Int64 { 30 }

    /// A due firing not yet decided, and whether it came due at start (after the daemon was down).
    public typealias Undecided = (firing: DueFiring, afterDowntime: Bool)

    /// Firings whose logs could not be read, in the order they came due.
    public private(set) var undecided: [Undecided] = []
    /// Handled firings the store refused to record, in order.
    public private(set) var unrecorded: [Event] = []
    /// When to try again, and why the last try failed; nil while nothing waits.
    public private(set) var retry: (at: Instant, reason: String)?

    public init() {}

    /// How many firings wait.
    public var waiting: Int { undecided.count + unrecorded.count }

    /// Firings that came due: true when they may be decided now; false when others wait, and they were queued
    /// behind them (the order is kept).
    public mutating func admit(_ firings: [DueFiring], afterDowntime: Bool) -> Bool {
        guard waiting > 0 else { return true }
        undecided += firings.map { ($0, afterDowntime) }
        return false
    }

    /// The logs of `firings` could not be read at `now`: they wait.
    public mutating func readFailed(_ firings: [DueFiring], afterDowntime: Bool, now: Instant, reason: String) {
        undecided += firings.map { ($0, afterDowntime) }
        retry = (now.adding(seconds: Self.retrySeconds), reason)
    }

    /// Handled firings to record: true when they may be recorded now; false when others wait to be recorded, and
    /// they were queued behind them.
    public mutating func admit(_ events: [Event]) -> Bool {
        guard unrecorded.isEmpty else {
            unrecorded += events
            return false
        }
        return true
    }

    /// The store refused to record `events` at `at`: they wait.
    public mutating func recordFailed(_ events: [Event], at: Instant, reason: String) {
        unrecorded += events
        retry = (at.adding(seconds: Self.retrySeconds), reason)
    }

    /// Whether a retry is due at `now`.
    public func isDue(now: Instant) -> Bool { retry.map { $0.at <= now } ?? false }

    /// The first firing waiting to be recorded, tried first (in order, one at a time).
    public var nextUnrecorded: Event? { unrecorded.first }

    /// ``nextUnrecorded`` was recorded.
    public mutating func recordedNext() { unrecorded.removeFirst() }

    /// A retry failed at `now`: everything still waiting is tried again later.
    public mutating func retryFailed(now: Instant, reason: String) {
        retry = (now.adding(seconds: Self.retrySeconds), reason)
    }

    /// Once every waiting record is written: the undecided firings, taken out, in runs of the same kind (due at
    /// start, or while running) in their order, to be decided again. The retry is over unless deciding them fails.
    public mutating func takeUndecided() -> [(firings: [DueFiring], afterDowntime: Bool)] {
        precondition(unrecorded.isEmpty, "the records waiting are written first")
        let waiting = undecided
        (undecided, retry) = ([], nil)
        var runs: [(firings: [DueFiring], afterDowntime: Bool)] = []
        for (firing, afterDowntime) in waiting {
            if runs.last?.afterDowntime == afterDowntime {
                runs[runs.count - 1].firings.append(firing)
            } else {
                runs.append(([firing], afterDowntime))
            }
        }
        return runs
    }

    /// The status line's part while firings wait.
    public var statusLine: String? {
        retry.map { "Cannot record firings (\(waiting) waiting, retrying): \($0.reason)" }
    }
}
