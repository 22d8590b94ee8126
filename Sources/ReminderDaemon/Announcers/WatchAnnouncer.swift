import NIOCore
import ReminderCore
import ReminderInterface
import ReminderStore
import Synchronization

/// The `Watch` method's streams: each handled firing goes to every subscriber as a history entry.
///
/// Each subscriber has a bounded queue, which its stream takes in batches (a burst's entries then go out
/// several to a write, not one write, flush and task switch each). One that lets ``queueLimit`` entries pile
/// up (a client that does not read) is dropped, its stream ended and marked lagging, rather than holding memory
/// or anyone else up. All subscribers together may hold ``totalLimit`` unread entries: past that, every one with
/// ``lagLimit`` unread is dropped, so 250 clients that never read cost about 13 MB (each is dropped near 260
/// unread) instead of 16,384 entries each, while one client reading a burst of 10,000 is never dropped.
public final class WatchAnnouncer: Announcer {
    /// Entries a subscriber may have waiting before it is dropped: more than a burst of 10,000 firings due at
    /// one instant, which a client reading as fast as it can still sees pile up (a few MB at most).
    static let queueLimit = 16_384
    /// Unread entries all subscribers may hold together (an entry is about 200 bytes).
    static let totalLimit = 65_536
    /// Past ``totalLimit``, every subscriber with this many unread entries is dropped.
    static let lagLimit = 256

    /// A class, changed in place under the lock: a queue of 16,384 entries is not copied by an append.
    private final class Subscriber {
        /// Entries not taken by the stream yet.
        var queue = CircularBuffer<Reminders.Watch.Reply>()
        /// Told when the queue stops being empty, and finished when the subscription ends.
        let wake: AsyncStream<Void>.Continuation
        /// Ended at shutdown: takes no more entries, and its stream ends once it has taken those queued.
        var finished = false

        init(wake: AsyncStream<Void>.Continuation) { self.wake = wake }
    }
    private struct Subscribers {
        var open: [UInt64: Subscriber] = [:]
        /// Entries in every queue together.
        var unread = 0
        /// Subscribers dropped for lagging, until they unsubscribe.
        var lagging: Set<UInt64> = []
        var nextID: UInt64 = 0

        /// Ends a subscription for lagging: its queue is discarded.
        mutating func drop(_ id: UInt64) {
            guard let subscriber = open.removeValue(forKey: id) else { return }
            unread -= subscriber.queue.count
            lagging.insert(id)
            subscriber.wake.finish()
        }
    }
    private let subscribers = Mutex(Subscribers())

    public init() {}

    public func announce(_ event: DaemonEvent) {
        announce([event])
    }

    /// Events that happened together (a burst's chunk of 500) go into each queue under one lock and wake each
    /// stream at most once: one at a time, a stream on another core took each entry as it came, and a burst of
    /// 10,000 woke it about 10,000 times.
    public func announce(_ events: [DaemonEvent]) {
        // Usually nobody watches: a burst then builds no entries (their JSON is made with them).
        guard subscribers.withLock({ !$0.open.isEmpty }) else { return }
        let replies = events.compactMap(Self.reply(for:))  // each JSON made once for every subscriber
        guard !replies.isEmpty else { return }
        subscribers.withLock { state in
            for (id, subscriber) in state.open where !subscriber.finished {
                guard subscriber.queue.count + replies.count <= Self.queueLimit else {
                    state.drop(id)
                    continue
                }
                let wasEmpty = subscriber.queue.isEmpty
                subscriber.queue.append(contentsOf: replies)
                state.unread += replies.count
                if wasEmpty { subscriber.wake.yield() }
            }
            if state.unread > Self.totalLimit {
                for (id, subscriber) in state.open where subscriber.queue.count >= Self.lagLimit { state.drop(id) }
            }
        }
    }

    /// The stream's entry for an event, or nil for an event a Watch client is not sent.
    private static func reply(for event: DaemonEvent) -> Reminders.Watch.Reply? {
        var entry: HistoryEntryValue
        switch event {
        case .firing(let firing):
            entry = HistoryEntryValue(FiringRecord(firing))
            entry.kind = firing.kind.rawValue  // snoozed and repeated are stored as the firing they repeat
        case .occurrence(let occurrence):
            entry = HistoryEntryValue(OutcomeRecord(occurrence))
            entry.kind = occurrence.state.rawValue  // taken is not stored: it follows from the log
        case .habit, .daemon, .lowStock, .travelled, .escalation, .headsUp, .withdrawn: return nil
        }
        return Reminders.Watch.Reply(entry: entry)
    }

    /// How many streams are open.
    var subscriberCount: Int { subscribers.withLock { $0.open.count } }

    /// A new subscription, whose stream takes its entries with ``Subscription/next(atMost:)``.
    func subscribe() -> Subscription {
        let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = subscribers.withLock { state in
            state.nextID += 1
            state.open[state.nextID] = Subscriber(wake: wake)
            return state.nextID
        }
        return Subscription(id: id, announcer: self, wakes: wakes)
    }

    /// One subscriber's side: its id (for ``unsubscribe(_:)``) and its entries, taken in batches.
    struct Subscription: Sendable {
        let id: UInt64
        let announcer: WatchAnnouncer
        let wakes: AsyncStream<Void>

        /// Waits for entries and takes up to `limit` of them, oldest first.
        /// - Returns: nil once the subscription ended (shutdown, after its last entries; lagging; the task cancelled).
        func next(atMost limit: Int) async -> [Reminders.Watch.Reply]? {
            var wakes = wakes.makeAsyncIterator()
            while true {
                guard let taken = announcer.take(id, atMost: limit) else { return nil }
                if !taken.isEmpty { return taken }
                guard await wakes.next() != nil else {
                    // Ended (shutdown, lagging, the task cancelled): what is still queued is taken once more.
                    let rest = announcer.take(id, atMost: limit)
                    return rest?.isEmpty == false ? rest : nil
                }
            }
        }
    }

    /// Up to `limit` of a subscriber's queued entries; nil when it is gone, or finished with none left.
    private func take(_ id: UInt64, atMost limit: Int) -> [Reminders.Watch.Reply]? {
        subscribers.withLock { state in
            guard let subscriber = state.open[id] else { return nil }
            if subscriber.queue.isEmpty { return subscriber.finished ? nil : [] }
            let count = min(limit, subscriber.queue.count)
            let taken = Array(subscriber.queue.prefix(count))
            subscriber.queue.removeFirst(count)
            state.unread -= count
            return taken
        }
    }

    /// Ends one subscription.
    /// - Returns: whether it had been dropped for lagging.
    @discardableResult
    func unsubscribe(_ id: UInt64) -> Bool {
        let (subscriber, lagged) = subscribers.withLock { state in
            let subscriber = state.open.removeValue(forKey: id)
            state.unread -= subscriber?.queue.count ?? 0
            return (subscriber, state.lagging.remove(id) != nil)
        }
        subscriber?.wake.finish()
        return lagged
    }

    /// Ends every subscription (at shutdown): each stream still takes the entries already queued for it.
    func finishAll() {
        let wakes = subscribers.withLock { state in
            for subscriber in state.open.values { subscriber.finished = true }
            return state.open.values.map(\.wake)
        }
        for wake in wakes { wake.finish() }
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
