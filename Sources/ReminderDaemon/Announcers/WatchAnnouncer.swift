import ReminderCore
import ReminderInterface
import ReminderStore
import Synchronization

/// The `Watch` method's streams: each handled firing goes to every subscriber as a history entry.
///
/// Each subscriber has a bounded queue: one that lets ``queueLimit`` entries pile up (a client that does not
/// read) is dropped, its stream ended and marked lagging, rather than holding memory or anyone else up. All
/// subscribers together may hold ``totalLimit`` unread entries: past that, every one with ``lagLimit`` unread is
/// dropped, so 250 clients that never read cost about 13 MB (each is dropped near 260 unread) instead of 16,384
/// entries each, while one client reading a burst of 10,000 is never dropped.
public final class WatchAnnouncer: Announcer {
    /// Entries a subscriber may have waiting before it is dropped: more than a burst of 10,000 firings due at
    /// one instant, which a client reading as fast as it can still sees pile up (a few MB at most).
    static let queueLimit = 16_384
    /// Unread entries all subscribers may hold together (an entry is about 200 bytes).
    static let totalLimit = 65_536
    /// Past ``totalLimit``, every subscriber with this many unread entries is dropped.
    static let lagLimit = 256

    private struct Subscribers {
        var streams: [UInt64: AsyncStream<Reminders.Watch.Reply>.Continuation] = [:]
        /// Each subscriber's unread entries, as of the last entry given to it.
        var unread: [UInt64: Int] = [:]
        /// Subscribers dropped for lagging, until they unsubscribe.
        var lagging: Set<UInt64> = []
        var nextID: UInt64 = 0
    }
    private let subscribers = Mutex(Subscribers())

    public init() {}

    public func announce(_ event: DaemonEvent) {
        // Usually nobody watches: a burst then builds no entries (their JSON is made with them).
        guard subscribers.withLock({ !$0.streams.isEmpty }) else { return }
        var entry: HistoryEntryValue
        switch event {
        case .firing(let firing):
            entry = HistoryEntryValue(FiringRecord(firing))
            entry.kind = firing.kind.rawValue  // snoozed and repeated are stored as the firing they repeat
        case .occurrence(let occurrence):
            entry = HistoryEntryValue(OutcomeRecord(occurrence))
            entry.kind = occurrence.state.rawValue  // taken is not stored: it follows from the log
        case .habit, .daemon, .lowStock, .travelled, .escalation, .headsUp, .withdrawn: return
        }
        let reply = Reminders.Watch.Reply(entry: entry)  // its JSON made once for every subscriber
        let dropped = subscribers.withLock { state in
            var dropped: [AsyncStream<Reminders.Watch.Reply>.Continuation] = []
            func drop(_ id: UInt64) {
                guard let stream = state.streams.removeValue(forKey: id) else { return }
                state.unread[id] = nil
                state.lagging.insert(id)
                dropped.append(stream)
            }
            for (id, stream) in state.streams {
                switch stream.yield(reply) {
                case .enqueued(let remaining): state.unread[id] = Self.queueLimit - remaining
                case .dropped: drop(id)
                case .terminated: state.unread[id] = nil
                @unknown default: state.unread[id] = nil
                }
            }
            if state.unread.values.reduce(0, +) > Self.totalLimit {
                for (id, count) in state.unread where count >= Self.lagLimit { drop(id) }
            }
            return dropped
        }
        for stream in dropped { stream.finish() }
    }

    /// How many streams are open.
    var subscriberCount: Int { subscribers.withLock { $0.streams.count } }

    /// A new subscription: its id (for ``unsubscribe(_:)``) and its stream of entries.
    func subscribe() -> (UInt64, AsyncStream<Reminders.Watch.Reply>) {
        let (stream, continuation) = AsyncStream.makeStream(of: Reminders.Watch.Reply.self, bufferingPolicy: .bufferingOldest(Self.queueLimit))
        let id = subscribers.withLock { state in
            state.nextID += 1
            state.streams[state.nextID] = continuation
            return state.nextID
        }
        return (id, stream)
    }

    /// Ends one subscription.
    /// - Returns: whether it had been dropped for lagging.
    @discardableResult
    func unsubscribe(_ id: UInt64) -> Bool {
        let (stream, lagged) = subscribers.withLock { state in
            state.unread[id] = nil
            return (state.streams.removeValue(forKey: id), state.lagging.remove(id) != nil)
        }
        stream?.finish()
        return lagged
    }

    /// Ends every subscription (at shutdown).
    func finishAll() {
        let streams = subscribers.withLock { state in
            defer {
                state.streams.removeAll()
                state.unread.removeAll()
            }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}

extension OutcomeRecord {
    /// The stored record of a decided occurrence.
    init(_ event: OccurrenceEvent) {
        self.init(
            reminderId: event.firing.reminder.id, reminderName: event.firing.reminder.name, slot: event.firing.slotID,
            scheduledAt: event.firing.occurrence.instant.secondsSinceEpoch, state: event.state == .skipped ? .skipped : .missed,
            decidedAt: event.decidedAt.secondsSinceEpoch, reason: event.reason)
    }
}

extension HistoryEntryValue {
    /// The interface record of a decided occurrence: kind `missed` or `skipped`, handled when decided.
    init(_ record: OutcomeRecord) {
        self.init(
            reminderId: record.reminderId, reminderName: record.reminderName, slot: record.slot, kind: record.state.rawValue,
            scheduledUtc: Instant(secondsSinceEpoch: record.scheduledAt).description,
            handledUtc: Instant(secondsSinceEpoch: record.decidedAt).description,
            lateSeconds: max(0, record.decidedAt - record.scheduledAt), slotsDue: 1, detail: record.reason, replanned: false)
    }

    /// The interface record of a stored firing.
    init(_ record: FiringRecord) {
        self.init(
            reminderId: record.reminderId, reminderName: record.reminderName, slot: record.slot, kind: record.kind.rawValue,
            scheduledUtc: Instant(secondsSinceEpoch: record.scheduledAt).description,
            handledUtc: Instant(secondsSinceEpoch: record.handledAt).description,
            lateSeconds: record.lateSeconds, slotsDue: record.slotsDue, detail: record.detail,
            replanned: record.replanned > 0, announcedAgain: record.repeats > 0 ? record.repeats : nil,
            lastAnnouncedUtc: record.repeats > 0 ? record.lastAnnouncedAt.map { Instant(secondsSinceEpoch: $0).description } : nil)
    }

    /// The interface record of a log: kind taken, taken-late, logged-ahead or logged, handled when logged.
    init(_ log: IntakeValue, late: Bool) {
        let occurrence = (log.takes ?? log.suppresses).flatMap(ISO8601.parseInstant)
        let scheduled = occurrence.map { parsed in Instant(secondsSinceEpoch: parsed.local.localSeconds - Int64(parsed.offsetSeconds ?? 0)) }
        let handled = ISO8601.parseInstant(log.utc).map { Instant(secondsSinceEpoch: $0.local.localSeconds - Int64($0.offsetSeconds ?? 0)) }
        let kind = log.takes != nil ? (late ? "taken-late" : "taken") : log.suppresses != nil ? "logged-ahead" : "logged"
        self.init(
            reminderId: log.reminderId, reminderName: log.reminderName, slot: "", kind: kind,
            scheduledUtc: scheduled?.description ?? log.utc, handledUtc: log.utc,
            lateSeconds: max(0, (handled?.secondsSinceEpoch ?? 0) - (scheduled?.secondsSinceEpoch ?? Int64.max)), slotsDue: 1,
            detail: "log \(log.id)", replanned: false)
        (amount, unit, forced) = (log.amount, log.unit, log.forced)
    }
}
