import ReminderStore
import Synchronization

/// The one change feed: what was committed to the store (``StoreChanges``), from any writer, handed to every
/// feature that subscribed, in the order they subscribed. A writer calls ``deliver()`` after its write and
/// replies once its changes were handled; the store's commit bell (``ReminderStore/onCommit(_:)``) has the
/// daemon deliver what a writer did not (see `ChangeFeedService` in remindd), so no writer is missed.
///
/// Deliveries do not overlap: a `deliver()` while another runs waits for it, and the one running takes the
/// changes again before it ends, so each caller returns after its own changes were handled.
final class ChangeFeed: Sendable {
    typealias Subscriber = @Sendable (StoreChanges) async -> Void

    private struct State {
        var subscribers: [Subscriber] = []
        var delivering = false
        var waiting: [CheckedContinuation<Bool, Never>] = []
    }
    private let state = Mutex(State())
    private let take: @Sendable () throws(StoreError) -> StoreChanges
    private let failed: @Sendable (StoreError) -> Void

    /// - Parameters:
    ///   - take: the store's changes since the last take (``ReminderStore/takeChanges()``).
    ///   - failed: a take that failed (the changes stay for the next one).
    init(take: @escaping @Sendable () throws(StoreError) -> StoreChanges, failed: @escaping @Sendable (StoreError) -> Void) {
        (self.take, self.failed) = (take, failed)
    }

    func subscribe(_ subscriber: @escaping Subscriber) {
        state.withLock { $0.subscribers.append(subscriber) }
    }

    /// Hands what was committed and not yet handed to the subscribers, and returns once it was handled.
    func deliver() async {
        let leads = await withCheckedContinuation { continuation in
            state.withLock { state in
                if state.delivering {
                    state.waiting.append(continuation)
                } else {
                    state.delivering = true
                    continuation.resume(returning: true)
                }
            }
        }
        guard leads else { return }
        var waiters: [CheckedContinuation<Bool, Never>] = []
        repeat {
            // Those waiting now committed before they asked: the take after this includes their changes.
            waiters = state.withLock { state in
                defer { state.waiting = [] }
                return state.waiting
            }
            await handOut()
            for waiter in waiters { waiter.resume(returning: false) }
        } while state.withLock({ state in
            state.delivering = !state.waiting.isEmpty
            return state.delivering
        })
    }

    private func handOut() async {
        let subscribers = state.withLock { $0.subscribers }
        while true {
            let changes: StoreChanges
            do { changes = try take() } catch {
                failed(error)
                return
            }
            guard !changes.isEmpty else { return }
            for subscriber in subscribers { await subscriber(changes) }
        }
    }
}
