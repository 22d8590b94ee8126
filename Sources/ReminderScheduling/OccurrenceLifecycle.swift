import ReminderCore

/// One occurrence of one reminder: the key of its snooze and of its open window.
public struct OccurrenceKey: Hashable, Comparable, Sendable {
    public let reminderID: Int64
    public let scheduledAt: Instant

    public init(reminderID: Int64, scheduledAt: Instant) {
        self.reminderID = reminderID
        self.scheduledAt = scheduledAt
    }

    public init(_ firing: DueFiring) {
        self.init(reminderID: firing.reminder.id, scheduledAt: firing.occurrence.instant)
    }

    /// Earlier occurrences first, then by reminder: the order in which those due together are announced.
    public static func < (a: OccurrenceKey, b: OccurrenceKey) -> Bool { (a.scheduledAt, a.reminderID) < (b.scheduledAt, b.reminderID) }
}

/// An announced (or postponed) occurrence whose window is open.
public struct OpenOccurrence: Sendable, Hashable {
    public var firing: DueFiring
    public var windowEnd: Instant
    /// The last time it was announced (its firing, its snooze, its last repeat).
    public var lastAnnounced: Instant
    public var repeatsSent: Int
    /// Taken or skipped: it is not announced again (unless a deleted log makes it due again).
    public var settled: Bool
    /// Where its escalation (`--escalate-after`) stands.
    public var escalation: Escalation

    /// An occurrence's escalation: run once, at its delay or, failing that, when it is missed.
    public enum Escalation: Sendable, Hashable {
        /// Due at its delay (when the reminder has one).
        case pending
        /// Run: not again, and not when the occurrence is missed either.
        case done
        /// Not run at its delay (taken or skipped by then, or its state could not be read): when it is missed.
        case atWindowEnd
    }

    public init(
        firing: DueFiring, windowEnd: Instant, lastAnnounced: Instant, repeatsSent: Int = 0, settled: Bool = false, escalation: Escalation = .pending
    ) {
        (self.firing, self.windowEnd, self.lastAnnounced, self.repeatsSent, self.settled) = (firing, windowEnd, lastAnnounced, repeatsSent, settled)
        self.escalation = escalation
    }

    /// The windows a start restores (`open`, as recorded before it), as they stand now from the logs (`logs`, by
    /// reminder) and the outcomes (`decided`: missed or skipped, by reminder): a window closed with its occurrence
    /// taken or decided is done (dropped); one still open whose occurrence was taken or skipped is settled, so it
    /// is neither shown again nor repeated (a restart showed a dose taken that morning as due again). A window
    /// still open and due, or closed with nothing settled (to be decided missed), is kept as recorded.
    public static func stillToRestore(_ open: [OpenOccurrence], logs: [Int64: [Instant]], decided: [Int64: Set<Instant>], now: Instant) -> [OpenOccurrence] {
        open.compactMap { entry in
            let (reminder, occurrence) = (entry.firing.reminder, entry.firing.occurrence)
            let skipped = decided[reminder.id]?.contains(occurrence.instant) == true
            let status = reminder.rule.state(
                of: occurrence, in: reminder.zone, logs: logs[reminder.id] ?? [], skips: skipped ? [occurrence.instant] : [],
                windowSeconds: reminder.windowSeconds, now: max(occurrence.instant, min(now, entry.windowEnd.adding(seconds: -1))))
            let settled = status.state != .due
            if entry.windowEnd <= now { return settled ? nil : entry }
            var restored = entry
            restored.settled = restored.settled || settled
            return restored
        }
    }

    /// When it is repeated next, by its reminder's repeat plan (nil: not again).
    public var nextRepeat: Instant? {
        settled ? nil : firing.reminder.delivery.repeating.plan?.next(after: lastAnnounced, sent: repeatsSent, windowEnd: windowEnd)
    }

    /// When it is escalated (its reminder's `--escalate-after` past its time) unless taken or skipped by then;
    /// nil when it is not (no delay, done, settled, or a delay that reaches the window's end: then it is
    /// escalated when missed).
    public var nextEscalation: Instant? {
        guard !settled, escalation == .pending, let after = firing.reminder.delivery.escalation.afterSeconds else { return nil }
        let at = firing.occurrence.instant.adding(seconds: after)
        return at < windowEnd ? at : nil
    }
}

/// What happens to an occurrence after it was announced, until its window closes: repeats, snoozes, being taken or
/// skipped, and the decision at the window's end. A pure state machine: the scheduling service tells it what
/// happened (an announcement, a snooze, what a read of the store said) and performs the actions it returns,
/// reading the store where an action needs it. It holds no I/O and reads no clock; tests drive it directly.
///
/// Everything here is rebuilt from the store after a restart (the announced firings of the last two days and the
/// stored snoozes), so a crash between two actions loses no decision: a window closed but not decided is decided
/// at the next tick, a snooze announced but not forgotten is passed over when its occurrence is no longer due.
public struct OccurrenceLifecycle: Sendable {
    /// A pending snooze: announce `firing` again at `due`.
    public struct Snooze: Sendable, Hashable {
        public var due: Instant
        public var firing: DueFiring

        public init(due: Instant, firing: DueFiring) {
            (self.due, self.firing) = (due, firing)
        }
    }

    /// Why an occurrence is announced again.
    public enum Again: Sendable, Hashable {
        case snoozed
        /// Its `number`-th repeat.
        case repeated(number: Int)
    }

    /// What the scheduling service does, in order.
    public enum Action: Sendable, Hashable {
        /// The window closed: unless a log took it or a skip settled it, record it missed and announce that
        /// (`escalated`: its escalation already ran, at its delay). When the store cannot say,
        /// report ``decideFailed(_:escalated:now:retrySeconds:)``.
        case decide(DueFiring, windowEnd: Instant, escalated: Bool)
        /// Its `--escalate-after` delay passed: unless a log took it or a skip settled it, run its escalation
        /// and record that it ran (once: the lifecycle has marked it done; report
        /// ``escalationPassedOver(_:)`` when it is not run).
        case escalate(DueFiring)
        /// Forget the stored snooze of the occurrence.
        case forgetSnooze(OccurrenceKey)
        /// Read the occurrence's state and report it with ``stateRead(_:for:again:now:retrySeconds:)``, which
        /// says whether to announce it again. A snooze's stored snooze is forgotten with the announcement (in
        /// one write, so that a crash neither loses nor repeats it), or when the state read says it is settled.
        case announceAgain(DueFiring, Again)
    }

    public private(set) var open: [OccurrenceKey: OpenOccurrence] = [:]
    public private(set) var snoozes: [OccurrenceKey: Snooze] = [:]

    public init() {}

    // MARK: Events

    /// The open windows as the store had them at start (or after a reload).
    public mutating func restore(open: [OpenOccurrence]) {
        self.open = Dictionary(open.map { (OccurrenceKey($0.firing), $0) }) { _, last in last }
    }

    /// The pending snoozes as the store had them at start (or after a reload).
    public mutating func restore(snoozes: [Snooze]) {
        self.snoozes = Dictionary(snoozes.map { (OccurrenceKey($0.firing), $0) }) { _, last in last }
    }

    /// The occurrence was announced (or postponed by a snooze set before it was due) at `instant`: its window opens.
    public mutating func opened(_ firing: DueFiring, at instant: Instant) {
        open[OccurrenceKey(firing)] = OpenOccurrence(firing: firing, windowEnd: firing.reminder.windowEnd(of: firing.occurrence), lastAnnounced: instant)
    }

    /// The user snoozed the occurrence until `due` (it replaces an earlier snooze of it).
    /// - Returns: when the snooze it replaced was due.
    public mutating func snoozed(_ firing: DueFiring, until due: Instant) -> Instant? {
        let key = OccurrenceKey(firing)
        defer { snoozes[key] = Snooze(due: due, firing: firing) }
        return snoozes[key]?.due
    }

    /// The clock reached `now`: the windows that closed, to be decided (their snoozes forgotten), by occurrence.
    /// (The service handles them before the firings due at `now`: at 20:00 the morning's occurrence is missed,
    /// and stops repeating, before the evening's fires.)
    public mutating func windowsClosed(at now: Instant) -> [Action] {
        var actions: [Action] = []
        for (key, entry) in open.filter({ $0.value.windowEnd <= now }).sorted(by: { $0.key < $1.key }) {
            open[key] = nil
            if snoozes.removeValue(forKey: key) != nil { actions.append(.forgetSnooze(key)) }
            actions.append(.decide(entry.firing, windowEnd: entry.windowEnd, escalated: entry.escalation == .done))
        }
        return actions
    }

    /// The clock reached `now`: the snoozes due, then the repeats due (of occurrences without a snooze), each
    /// to be announced again, by occurrence. An occurrence is announced again at most once per call.
    public mutating func againDue(at now: Instant) -> [Action] {
        var actions: [Action] = []
        var snoozedNow: Set<OccurrenceKey> = []
        for (key, snooze) in snoozes.filter({ $0.value.due <= now }).sorted(by: { $0.key < $1.key }) {
            snoozes[key] = nil
            snoozedNow.insert(key)
            actions.append(.announceAgain(snooze.firing, .snoozed))
        }
        // The due ones taken out before they are sorted: after a burst every announced occurrence is open, and
        // sorting all 10,000 at each tick copied each one.
        let repeating = open.filter { key, entry in
            entry.nextRepeat.map { $0 <= now } == true && snoozes[key] == nil && !snoozedNow.contains(key)
        }
        for (_, entry) in repeating.sorted(by: { $0.key < $1.key }) {
            actions.append(.announceAgain(entry.firing, .repeated(number: entry.repeatsSent + 1)))
        }
        return actions
    }

    /// The clock reached `now`: the occurrences whose escalation delay passed, by occurrence, each marked
    /// done (an escalation runs at most once).
    public mutating func escalationsDue(at now: Instant) -> [Action] {
        var actions: [Action] = []
        for (key, entry) in open.filter({ $0.value.nextEscalation.map { $0 <= now } == true }).sorted(by: { $0.key < $1.key }) {
            open[key]?.escalation = .done
            actions.append(.escalate(entry.firing))
        }
        return actions
    }

    /// An escalation due was not run (the occurrence was taken or skipped by then, or its state could not be
    /// read): it runs when the occurrence is missed, if it is.
    public mutating func escalationPassedOver(_ key: OccurrenceKey) {
        open[key]?.escalation = .atWindowEnd
    }

    /// What the store said of an occurrence to announce again (nil: it could not be read).
    /// - Returns: whether to announce it now. Unread, it is not announced on a guess (the dose may have been
    ///   taken): a snooze waits `retrySeconds` and is tried again, a repeat is passed over until the next one.
    ///   Taken or skipped, it settles and is not repeated.
    public mutating func stateRead(_ state: OccurrenceState?, for firing: DueFiring, again: Again, now: Instant, retrySeconds: Int64) -> Bool {
        let key = OccurrenceKey(firing)
        guard let state else {
            if again == .snoozed {
                snoozes[key] = Snooze(due: now.adding(seconds: retrySeconds), firing: firing)
            } else {
                open[key]?.lastAnnounced = now
            }
            return false
        }
        guard state == .due else {
            open[key]?.settled = true
            return false
        }
        var entry = open[key] ?? OpenOccurrence(firing: firing, windowEnd: firing.reminder.windowEnd(of: firing.occurrence), lastAnnounced: now)
        if case .repeated = again { entry.repeatsSent += 1 }
        entry.lastAnnounced = now
        open[key] = entry
        return true
    }

    /// An announcement again that a crash held back went out at `instant`, after the restart: the next repeat
    /// counts from it.
    public mutating func announcedAfterRestart(_ key: OccurrenceKey, at instant: Instant) {
        open[key]?.lastAnnounced = instant
    }

    /// Deciding whether a closed window was missed failed (the store did not answer): tried again in
    /// `retrySeconds`, without repeats or an escalation meanwhile (`escalated`: as the decision had it).
    public mutating func decideFailed(_ firing: DueFiring, escalated: Bool, now: Instant, retrySeconds: Int64) {
        open[OccurrenceKey(firing)] = OpenOccurrence(
            firing: firing, windowEnd: now.adding(seconds: retrySeconds), lastAnnounced: now, settled: true, escalation: escalated ? .done : .atWindowEnd)
    }

    /// A log, a skip or a deleted log changed an open occurrence's state (read from the store): one no longer
    /// due stops repeating; one due again (its log deleted) repeats from `now`.
    /// - Returns: whether it became settled just now (taken or skipped: to be announced as such).
    public mutating func reconsidered(_ key: OccurrenceKey, state: OccurrenceState, now: Instant) -> Bool {
        guard let entry = open[key] else { return false }
        let settled = state != .due
        open[key]?.settled = settled
        if entry.settled, !settled { open[key]?.lastAnnounced = now }
        return settled && !entry.settled
    }

    /// A snooze whose occurrence is no longer due or upcoming (taken, skipped) is cancelled.
    /// - Returns: whether it was.
    public mutating func cancelSnoozeIfSettled(_ key: OccurrenceKey, state: OccurrenceState) -> Bool {
        guard snoozes[key] != nil, state != .due, state != .upcoming else { return false }
        snoozes[key] = nil
        return true
    }

    /// The reminder was removed or disabled: its windows and snoozes are gone.
    public mutating func removeReminder(_ id: Int64) {
        for key in snoozes.keys where key.reminderID == id { snoozes[key] = nil }
        for key in open.keys where key.reminderID == id { open[key] = nil }
    }

    /// The last announcement of the occurrence announced last among those still waiting for their dose (window
    /// open, neither taken nor skipped); nil: none waits.
    public var newestWaitingAnnouncement: Instant? {
        open.values.lazy.filter { !$0.settled }.map(\.lastAnnounced).max()
    }

    /// The next instant something here is due: a window's end, a snooze, a repeat, or an escalation.
    public var nextDeadline: Instant? {
        let repeats = open.lazy.filter { self.snoozes[$0.key] == nil }.compactMap(\.value.nextRepeat).min()
        let escalations = open.values.lazy.compactMap(\.nextEscalation).min()
        return [snoozes.values.map(\.due).min(), open.values.map(\.windowEnd).min(), repeats, escalations].compactMap { $0 }.min()
    }
}
