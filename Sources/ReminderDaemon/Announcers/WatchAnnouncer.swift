import ReminderCore
import ReminderInterface
import ReminderStore
import Synchronization

/// The `Watch` method's streams: each handled firing goes to every subscriber as a history entry.
public final class WatchAnnouncer: Announcer {
    private struct Subscribers {
        var streams: [UInt64: AsyncStream<HistoryEntryValue>.Continuation] = [:]
        var nextID: UInt64 = 0
    }
    private let subscribers = Mutex(Subscribers())

    public init() {}

    public func announce(_ event: DaemonEvent) {
        guard case .firing(let firing) = event else { return }
        let entry = HistoryEntryValue(FiringRecord(firing))
        subscribers.withLock { state in
            for stream in state.streams.values { stream.yield(entry) }
        }
    }

    /// How many streams are open.
    var subscriberCount: Int { subscribers.withLock { $0.streams.count } }

    /// A new subscription: its id (for ``unsubscribe(_:)``) and its stream of entries.
    func subscribe() -> (UInt64, AsyncStream<HistoryEntryValue>) {
        let (stream, continuation) = AsyncStream.makeStream(of: HistoryEntryValue.self, bufferingPolicy: .bufferingNewest(1000))
        let id = subscribers.withLock { state in
            state.nextID += 1
            state.streams[state.nextID] = continuation
            return state.nextID
        }
        return (id, stream)
    }

    /// Ends one subscription.
    func unsubscribe(_ id: UInt64) {
        subscribers.withLock { $0.streams.removeValue(forKey: id) }?.finish()
    }

    /// Ends every subscription (at shutdown).
    func finishAll() {
        let streams = subscribers.withLock { state in
            defer { state.streams.removeAll() }
            return Array(state.streams.values)
        }
        for stream in streams { stream.finish() }
    }
}

extension HistoryEntryValue {
    /// The interface record of a stored firing.
    init(_ record: FiringRecord) {
        self.init(
            reminderId: record.reminderId, reminderName: record.reminderName, slot: record.slot, kind: record.kind.rawValue,
            scheduledUtc: Instant(secondsSinceEpoch: record.scheduledAt).description,
            handledUtc: Instant(secondsSinceEpoch: record.handledAt).description,
            lateSeconds: record.lateSeconds, slotsDue: record.slotsDue, detail: record.detail,
            replanned: record.replanned > 0)
    }
}
