import ReminderCore
import Synchronization

/// Moments when no firing is due for a while, for a write that holds the store's writer long (an import's move
/// of 106,504 reminders: about 750 ms, in which a dose's record waited and the dose came that much late). Such a
/// write starts in a lull. The scheduler says after every plan when it next writes (``planned(nextWrite:now:)``);
/// a writer that asks during a busy stretch waits for its end, judged at the scheduler's wake-ups, or at most
/// ``longestWait`` by the daemon's clock (doses due every second for longer: it goes ahead then).
final class FiringLulls: Sendable {
    /// The longest a write waits for a lull, in seconds.
    static let longestWait: Int64 = 30
    /// Writes of fewer rows take a few tens of milliseconds: they never wait.
    static let rowsWorthAWait = 10_000

    private struct Waiter {
        let id: Int
        let seconds: Int64
        let since: Instant
        let continuation: CheckedContinuation<Void, Never>
    }
    private struct State {
        /// When the scheduler next writes (nil: nothing planned).
        var nextWrite: Instant?
        var waiters: [Waiter] = []
        var lastID = 0
    }
    private let state = Mutex(State())
    private let clock: any DaemonClock

    init(clock: any DaemonClock) {
        self.clock = clock
    }

    /// How many writes wait for a lull.
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// The lull a write of `rows` rows needs, in whole seconds: none for a small one; else about a second per
    /// 40,000 rows (the move measured 7 µs a row), and one more for the second the write starts in.
    static func seconds(toWrite rows: Int) -> Int64 {
        rows < rowsWorthAWait ? 0 : Int64((rows + 39_999) / 40_000) + 1
    }

    /// Whether a write that needs `seconds` and has waited since `since` may start at `now`.
    static func mayStart(seconds: Int64, since: Instant, now: Instant, nextWrite: Instant?) -> Bool {
        guard seconds > 0, let nextWrite else { return true }
        return nextWrite.secondsSinceEpoch - now.secondsSinceEpoch > seconds || now.secondsSinceEpoch - since.secondsSinceEpoch >= longestWait
    }

    /// Returns once no firing is due in the next `seconds` (at once when none is), after ``longestWait``, or when
    /// the calling task is cancelled (the daemon stops).
    func lull(lasting seconds: Int64) async {
        let since = clock.now()
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let goes = state.withLock { state in
                    guard !Task.isCancelled, !Self.mayStart(seconds: seconds, since: since, now: since, nextWrite: state.nextWrite) else { return true }
                    state.waiters.append(Waiter(id: id, seconds: seconds, since: since, continuation: continuation))
                    return false
                }
                if goes { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiters.firstIndex { $0.id == id }.map { state.waiters.remove(at: $0) }
            }
            waiter?.continuation.resume()
        }
    }

    /// The scheduler planned: it next writes at `nextWrite` (a firing, a repeat, a window's end, a retry). Each
    /// write waiting that may start now does.
    func planned(nextWrite: Instant?, now: Instant) {
        let starting = state.withLock { state in
            state.nextWrite = nextWrite
            var starting: [Waiter] = []
            state.waiters.removeAll { waiter in
                guard Self.mayStart(seconds: waiter.seconds, since: waiter.since, now: now, nextWrite: nextWrite) else { return false }
                starting.append(waiter)
                return true
            }
            return starting
        }
        for waiter in starting { waiter.continuation.resume() }
    }
}
